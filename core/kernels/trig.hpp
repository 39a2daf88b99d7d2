// Scalar reference kernels for everything built on sin/cos of `position * frequency`.
//
// Contract shared with trig_simd.hpp (same algorithm, one lane at a time):
//   * the angle a = pos * freq is formed and reduced modulo pi/2 in double, so the result does
//     not drift with position (float32 angles are off by ~5e-3 at position 100000). pi/2 is
//     split Cody-Waite style: a 21-bit head, so k * head is exact for |k| < 2^32, and the rest,
//     whose product with k is off by at most 2^-43; the reduction stays exact to far below
//     float32 resolution however large the position;
//   * the reduced angle |r| <= pi/4 is evaluated with Cephes' single-precision minimax
//     polynomials for sinf/cosf.
//   Valid range: |a| <= kMaxAngle (6e9, so |k| < 2^32). Max abs error vs float64 sin/cos of the
//   same double angle: 2e-7 (tests/core/trig_test.cpp).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace posenc::kernels {

constexpr double kTwoOverPi = 0.63661977236758134308;
// pi/2 = kPio2Hi (21 significant bits) + kPio2Lo.
constexpr double kPio2Hi = 1.570796012878418;
constexpr double kPio2Lo = 3.139164786504813e-07;
constexpr double kMaxAngle = 6e9;

// Cephes sinf / cosf coefficients on [-pi/4, pi/4].
constexpr float kSin1 = -1.6666654611e-1f;
constexpr float kSin2 = 8.3321608736e-3f;
constexpr float kSin3 = -1.9515295891e-4f;
constexpr float kCos1 = 4.166664568298827e-2f;
constexpr float kCos2 = -1.388731625493765e-3f;
constexpr float kCos3 = 2.443315711809948e-5f;

inline void sincosReduced(double angle, float* s, float* c) noexcept {
  const double k = std::nearbyint(angle * kTwoOverPi);
  const float r = static_cast<float>((angle - k * kPio2Hi) - k * kPio2Lo);
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

// Rows p0 .. p0 + rows - 1 of the sinusoidal table (row stride d) from the exactly reduced
// base row (s0, c0) = sin/cos(p0 f_i) and the rotations (rotS, rotC)[k] = sin/cos(k f_i):
//   sin((p0 + k) f) = sin(p0 f) cos(k f) + cos(p0 f) sin(k f)
//   cos((p0 + k) f) = cos(p0 f) cos(k f) - sin(p0 f) sin(k f)
// Each row comes straight from the base (nothing accumulates from row to row), so the error is
// that of three float32 sin/cos values plus two roundings: max abs error 5e-7 vs float64.
// out[2i] = sin, out[2i + 1] = cos for i < d/2; an odd d ends with one more sine, out[d - 1]
// (the paper formula at every index). s0, c0, rotS[k], rotC[k] hold ceil(d/2) values.
inline void sinusoidalBlockScalar(const float* s0, const float* c0, const float* rotS,
                                  const float* rotC, size_t rows, size_t d, float* out) noexcept {
  const size_t nf = (d + 1) / 2;
  for (size_t k = 0; k < rows; ++k) {
    const float* rs = rotS + k * nf;
    const float* rc = rotC + k * nf;
    float* row = out + k * d;
    for (size_t i = 0; i < d / 2; ++i) {
      row[2 * i] = s0[i] * rc[i] + c0[i] * rs[i];
      row[2 * i + 1] = c0[i] * rc[i] - s0[i] * rs[i];
    }
    if (d & 1) row[d - 1] = s0[nf - 1] * rc[nf - 1] + c0[nf - 1] * rs[nf - 1];
  }
}

// sin/cos of (a + b) from sin/cos of a (s0, c0) and of b (rs, rc), n values: the angle
// addition formulas. Used for runs of consecutive positions, whose angles differ from a base
// row's by k * f (k small). Max abs error vs float64: 5e-7, as sinusoidalBlockScalar.
inline void angleAddRowScalar(const float* s0, const float* c0, const float* rs, const float* rc,
                              size_t n, float* s, float* c) noexcept {
  for (size_t i = 0; i < n; ++i) {
    s[i] = s0[i] * rc[i] + c0[i] * rs[i];
    c[i] = c0[i] * rc[i] - s0[i] * rs[i];
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
