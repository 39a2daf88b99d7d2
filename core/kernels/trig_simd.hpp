// WebAssembly SIMD bodies of the kernels in trig.hpp: four angles per step, then a scalar tail.
//
// Same algorithm and contract as trig.hpp: angle and reduction in f64x2 (two lanes, twice),
// polynomial in f32x4.
// Valid range: |pos * freq| <= kMaxAngle. Max abs error vs float64 sin/cos: 2e-7 (tests/core/trig_test.cpp runs it against the scalar
// reference on random lengths with tails).
#pragma once

#ifdef __wasm_simd128__
#include <wasm_simd128.h>

#include "trig.hpp"

namespace posenc::kernels {

// sin/cos of pos * freq[0..3].
inline void sincos4(v128_t pos, const double* freq, v128_t* s, v128_t* c) noexcept {
  const v128_t twoOverPi = wasm_f64x2_splat(kTwoOverPi);
  const v128_t hi = wasm_f64x2_splat(kPio2Hi);
  const v128_t lo = wasm_f64x2_splat(kPio2Lo);
  const v128_t quarter = wasm_f64x2_splat(0.25);
  const v128_t four = wasm_f64x2_splat(4.0);

  const v128_t a0 = wasm_f64x2_mul(pos, wasm_v128_load(freq));
  const v128_t a1 = wasm_f64x2_mul(pos, wasm_v128_load(freq + 2));
  const v128_t k0 = wasm_f64x2_nearest(wasm_f64x2_mul(a0, twoOverPi));
  const v128_t k1 = wasm_f64x2_nearest(wasm_f64x2_mul(a1, twoOverPi));
  v128_t r0 = wasm_f64x2_sub(a0, wasm_f64x2_mul(k0, hi));
  v128_t r1 = wasm_f64x2_sub(a1, wasm_f64x2_mul(k1, hi));
  r0 = wasm_f64x2_sub(r0, wasm_f64x2_mul(k0, lo));
  r1 = wasm_f64x2_sub(r1, wasm_f64x2_mul(k1, lo));
  // k mod 4 in double so that |k| >= 2^31 still lands in the right quadrant.
  const v128_t q0 = wasm_f64x2_sub(k0, wasm_f64x2_mul(four, wasm_f64x2_floor(wasm_f64x2_mul(k0, quarter))));
  const v128_t q1 = wasm_f64x2_sub(k1, wasm_f64x2_mul(four, wasm_f64x2_floor(wasm_f64x2_mul(k1, quarter))));

  const v128_t r = wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(r0),
                                      wasm_f32x4_demote_f64x2_zero(r1), 0, 1, 4, 5);
  const v128_t q = wasm_i32x4_shuffle(wasm_i32x4_trunc_sat_f64x2_zero(q0),
                                      wasm_i32x4_trunc_sat_f64x2_zero(q1), 0, 1, 4, 5);

  const v128_t z = wasm_f32x4_mul(r, r);
  v128_t sp = wasm_f32x4_add(wasm_f32x4_splat(kSin2), wasm_f32x4_mul(z, wasm_f32x4_splat(kSin3)));
  sp = wasm_f32x4_add(wasm_f32x4_splat(kSin1), wasm_f32x4_mul(z, sp));
  const v128_t sr = wasm_f32x4_add(r, wasm_f32x4_mul(wasm_f32x4_mul(r, z), sp));
  v128_t cp = wasm_f32x4_add(wasm_f32x4_splat(kCos2), wasm_f32x4_mul(z, wasm_f32x4_splat(kCos3)));
  cp = wasm_f32x4_add(wasm_f32x4_splat(kCos1), wasm_f32x4_mul(z, cp));
  const v128_t cr = wasm_f32x4_add(
      wasm_f32x4_sub(wasm_f32x4_splat(1.0f), wasm_f32x4_mul(wasm_f32x4_splat(0.5f), z)),
      wasm_f32x4_mul(wasm_f32x4_mul(z, z), cp));

  const v128_t one = wasm_i32x4_splat(1);
  const v128_t two = wasm_i32x4_splat(2);
  const v128_t swap = wasm_i32x4_eq(wasm_v128_and(q, one), one);
  const v128_t sv = wasm_v128_bitselect(cr, sr, swap);
  const v128_t cv = wasm_v128_bitselect(sr, cr, swap);
  // Sign bits: sin negative when q & 2, cos negative when (q + 1) & 2.
  const v128_t sSign = wasm_i32x4_shl(wasm_v128_and(q, two), 30);
  const v128_t cSign = wasm_i32x4_shl(wasm_v128_and(wasm_i32x4_add(q, one), two), 30);
  *s = wasm_v128_xor(sv, sSign);
  *c = wasm_v128_xor(cv, cSign);
}

inline void sincosRowSimd(double pos, const double* freq, size_t n, float* s, float* c) noexcept {
  const v128_t p = wasm_f64x2_splat(pos);
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    v128_t sv, cv;
    sincos4(p, freq + i, &sv, &cv);
    wasm_v128_store(s + i, sv);
    wasm_v128_store(c + i, cv);
  }
  for (; i < n; ++i) sincosReduced(pos * freq[i], s + i, c + i);
}

// Pairs outer, rows inner: the base row's four sines and cosines stay in registers while the
// block's rows are written.
inline void sinusoidalBlockSimd(const float* s0, const float* c0, const float* rotS,
                                const float* rotC, size_t rows, size_t d, float* out) noexcept {
  const size_t nf = (d + 1) / 2;
  const size_t pairs = d / 2;
  size_t i = 0;
  for (; i + 4 <= pairs; i += 4) {
    const v128_t sv = wasm_v128_load(s0 + i);
    const v128_t cv = wasm_v128_load(c0 + i);
    for (size_t k = 0; k < rows; ++k) {
      const v128_t rs = wasm_v128_load(rotS + k * nf + i);
      const v128_t rc = wasm_v128_load(rotC + k * nf + i);
      const v128_t s = wasm_f32x4_add(wasm_f32x4_mul(sv, rc), wasm_f32x4_mul(cv, rs));
      const v128_t c = wasm_f32x4_sub(wasm_f32x4_mul(cv, rc), wasm_f32x4_mul(sv, rs));
      float* row = out + k * d + 2 * i;
      wasm_v128_store(row, wasm_i32x4_shuffle(s, c, 0, 4, 1, 5));
      wasm_v128_store(row + 4, wasm_i32x4_shuffle(s, c, 2, 6, 3, 7));
    }
  }
  for (size_t k = 0; k < rows; ++k) {
    const float* rs = rotS + k * nf;
    const float* rc = rotC + k * nf;
    float* row = out + k * d;
    for (size_t j = i; j < pairs; ++j) {
      row[2 * j] = s0[j] * rc[j] + c0[j] * rs[j];
      row[2 * j + 1] = c0[j] * rc[j] - s0[j] * rs[j];
    }
    if (d & 1) row[d - 1] = s0[nf - 1] * rc[nf - 1] + c0[nf - 1] * rs[nf - 1];
  }
}

inline void angleAddRowSimd(const float* s0, const float* c0, const float* rs, const float* rc,
                            size_t n, float* s, float* c) noexcept {
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const v128_t sv = wasm_v128_load(s0 + i), cv = wasm_v128_load(c0 + i);
    const v128_t rsv = wasm_v128_load(rs + i), rcv = wasm_v128_load(rc + i);
    wasm_v128_store(s + i, wasm_f32x4_add(wasm_f32x4_mul(sv, rcv), wasm_f32x4_mul(cv, rsv)));
    wasm_v128_store(c + i, wasm_f32x4_sub(wasm_f32x4_mul(cv, rcv), wasm_f32x4_mul(sv, rsv)));
  }
  angleAddRowScalar(s0 + i, c0 + i, rs + i, rc + i, n - i, s + i, c + i);
}

inline void ropeRotateRowSimd(const float* s, const float* c, float attn, size_t n,
                              bool interleaved, float* x) noexcept {
  const v128_t at = wasm_f32x4_splat(attn);
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const v128_t ci = wasm_f32x4_mul(wasm_v128_load(c + i), at);
    const v128_t si = wasm_f32x4_mul(wasm_v128_load(s + i), at);
    v128_t a, b;
    if (interleaved) {
      const v128_t lo = wasm_v128_load(x + 2 * i), hi = wasm_v128_load(x + 2 * i + 4);
      a = wasm_i32x4_shuffle(lo, hi, 0, 2, 4, 6);
      b = wasm_i32x4_shuffle(lo, hi, 1, 3, 5, 7);
    } else {
      a = wasm_v128_load(x + i);
      b = wasm_v128_load(x + i + n);
    }
    const v128_t na = wasm_f32x4_sub(wasm_f32x4_mul(a, ci), wasm_f32x4_mul(b, si));
    const v128_t nb = wasm_f32x4_add(wasm_f32x4_mul(b, ci), wasm_f32x4_mul(a, si));
    if (interleaved) {
      wasm_v128_store(x + 2 * i, wasm_i32x4_shuffle(na, nb, 0, 4, 1, 5));
      wasm_v128_store(x + 2 * i + 4, wasm_i32x4_shuffle(na, nb, 2, 6, 3, 7));
    } else {
      wasm_v128_store(x + i, na);
      wasm_v128_store(x + i + n, nb);
    }
  }
  if (i < n) {
    // The tail works on the same pair layout, shifted to start at pair i.
    if (interleaved) {
      ropeRotateRowScalar(s + i, c + i, attn, n - i, true, x + 2 * i);
    } else {
      for (; i < n; ++i) {
        const float ci = c[i] * attn, si = s[i] * attn, av = x[i], bv = x[i + n];
        x[i] = av * ci - bv * si;
        x[i + n] = bv * ci + av * si;
      }
    }
  }
}

}  // namespace posenc::kernels

#endif  // __wasm_simd128__
