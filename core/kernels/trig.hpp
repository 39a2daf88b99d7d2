// Scalar reference kernels for everything built on sin/cos of `position * frequency`.
//
// Contract shared with trig_simd.hpp (same algorithm, one lane at a time):
//   * the angle a = pos * freq is formed and reduced modulo pi/2 in double, so the result does
//     not drift with position (float32 angles are off by ~5e-3 at position 100000);
//   * the reduced angle |r| <= pi/4 is evaluated with Cephes' single-precision minimax
//     polynomials for sinf/cosf.
//   Valid range: |a| < 2^52. Max abs error vs float64 sin/cos: 2e-7 (tests/core/trig_test.cpp).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace posenc::kernels {

constexpr double kTwoOverPi = 0.63661977236758134308;
constexpr double kPiOverTwo = 1.57079632679489661923;

// Cephes sinf / cosf coefficients on [-pi/4, pi/4].
constexpr float kSin1 = -1.6666654611e-1f;
constexpr float kSin2 = 8.3321608736e-3f;
constexpr float kSin3 = -1.9515295891e-4f;
constexpr float kCos1 = 4.166664568298827e-2f;
constexpr float kCos2 = -1.388731625493765e-3f;
constexpr float kCos3 = 2.443315711809948e-5f;

inline void sincosReduced(double angle, float* s, float* c) noexcept {
  const double k = std::nearbyint(angle * kTwoOverPi);
  const float r = static_cast<float>(angle - k * kPiOverTwo);
  const float z = r * r;
  const float sr = r + r * z * (kSin1 + z * (kSin2 + z * kSin3));
  const float cr = 1.0f - 0.5f * z + z * z * (kCos1 + z * (kCos2 + z * kCos3));
  // Quadrant q = k mod 4 decides swap and signs: (s, c) -> (c, -s) -> (-s, -c) -> (-c, s).
  const int q = static_cast<int>(k - 4.0 * std::floor(k * 0.25));
  const float sv = (q & 1) ? cr : sr;
  const float cv = (q & 1) ? sr : cr;
  *s = (q & 2) ? -sv : sv;
  *c = ((q + 1) & 2) ? -cv : cv;
}

// sin and cos of pos * freq[i] for i < n, into separate arrays.
inline void sincosRowScalar(double pos, const double* freq, size_t n, float* s, float* c) noexcept {
  for (size_t i = 0; i < n; ++i) sincosReduced(pos * freq[i], s + i, c + i);
}

// One row of the sinusoidal table: out[2i] = sin(pos f_i), out[2i+1] = cos(pos f_i), i < d/2;
// an odd d ends with one more sine, out[d-1] = sin(pos f_{(d-1)/2}) (the paper formula applied
// at every index).
inline void sinusoidalRowScalar(double pos, const double* freq, size_t d, float* out) noexcept {
  const size_t pairs = d / 2;
  for (size_t i = 0; i < pairs; ++i) sincosReduced(pos * freq[i], out + 2 * i, out + 2 * i + 1);
  if (d & 1) {
    float c;
    sincosReduced(pos * freq[pairs], out + d - 1, &c);
  }
}

// Rotate the pairs of one row by the angles whose sin/cos are given, scaled by `attn`
// (HF multiplies cos and sin by the attention factor). half: pairs (i, i + n);
// interleaved: pairs (2i, 2i + 1). n = dim / 2.
inline void ropeRotateRowScalar(const float* s, const float* c, float attn, size_t n,
                                bool interleaved, float* x) noexcept {
  for (size_t i = 0; i < n; ++i) {
    float* a = interleaved ? x + 2 * i : x + i;
    float* b = interleaved ? x + 2 * i + 1 : x + i + n;
    const float ci = c[i] * attn, si = s[i] * attn;
    const float av = *a, bv = *b;
    *a = av * ci - bv * si;
    *b = bv * ci + av * si;
  }
}

}  // namespace posenc::kernels
