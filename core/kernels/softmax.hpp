// Scalar reference for the stable row softmax used by attention.
//
// exp is Cephes' expf (range reduction by ln 2 in two parts, degree-6 polynomial, 2^n built
// in the exponent bits); the SIMD body in softmax_simd.hpp is the same algorithm in f32x4.
// Arguments are x - max(row) <= 0; below kExpCutoff the weight is exactly 0, which is also what
// -Infinity (a masked score) becomes. A row whose entries are all -Infinity becomes all zeros
// (there is nothing to attend to; PyTorch would give NaN).
// Max rel error of one weight vs float64: (|x_j| + max|x| + n + 5) * 2^-24 — the rounding of
// x - max, the exp, the float32 sum and the division; on rows of <= 16 scores in [-2, 2] that
// is <= 5e-7 (tests/core/softmax_test.cpp).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace posenc::kernels {

constexpr float kExpCutoff = -87.0f;
constexpr float kLog2e = 1.44269504088896341f;
constexpr float kLn2Hi = 0.693359375f;
constexpr float kLn2Lo = -2.12194440e-4f;
constexpr float kExp0 = 1.9875691500e-4f;
constexpr float kExp1 = 1.3981999507e-3f;
constexpr float kExp2 = 8.3334519073e-3f;
constexpr float kExp3 = 4.1665795894e-2f;
constexpr float kExp4 = 1.6666665459e-1f;
constexpr float kExp5 = 5.0000001201e-1f;

// exp(x) for kExpCutoff <= x <= 0.
inline float expNonPositive(float x) noexcept {
  const float n = std::floor(x * kLog2e + 0.5f);
  float r = x - n * kLn2Hi;
  r = r - n * kLn2Lo;
  const float z = r * r;
  float y = ((((kExp0 * r + kExp1) * r + kExp2) * r + kExp3) * r + kExp4) * r + kExp5;
  y = y * z + r + 1.0f;
  const int32_t bits = (static_cast<int32_t>(n) + 127) << 23;
  float p;
  std::memcpy(&p, &bits, sizeof p);
  return y * p;
}

inline void softmaxRowScalar(float* row, size_t n) noexcept {
  float m = -INFINITY;
  for (size_t j = 0; j < n; ++j) m = row[j] > m ? row[j] : m;
  if (m == -INFINITY) {
    for (size_t j = 0; j < n; ++j) row[j] = 0.0f;
    return;
  }
  float sum = 0.0f;
  for (size_t j = 0; j < n; ++j) {
    const float x = row[j] - m;
    const float e = x < kExpCutoff ? 0.0f : expNonPositive(x);
    row[j] = e;
    sum += e;
  }
  const float inv = 1.0f / sum;
  for (size_t j = 0; j < n; ++j) row[j] *= inv;
}

}  // namespace posenc::kernels
