// WebAssembly SIMD body of softmaxRowScalar (softmax.hpp): the same Cephes expf in f32x4,
// max and sum in four lanes, then a scalar tail. Contract and error bound as in softmax.hpp;
// lane-wise summation changes the result by at most n * 2^-24 relative.
#pragma once

#ifdef __wasm_simd128__
#include <wasm_simd128.h>

#include "softmax.hpp"

namespace posenc::kernels {

inline v128_t exp4NonPositive(v128_t x) noexcept {
  const v128_t n = wasm_f32x4_floor(
      wasm_f32x4_add(wasm_f32x4_mul(x, wasm_f32x4_splat(kLog2e)), wasm_f32x4_splat(0.5f)));
  v128_t r = wasm_f32x4_sub(x, wasm_f32x4_mul(n, wasm_f32x4_splat(kLn2Hi)));
  r = wasm_f32x4_sub(r, wasm_f32x4_mul(n, wasm_f32x4_splat(kLn2Lo)));
  const v128_t z = wasm_f32x4_mul(r, r);
  v128_t y = wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_splat(kExp0), r), wasm_f32x4_splat(kExp1));
  y = wasm_f32x4_add(wasm_f32x4_mul(y, r), wasm_f32x4_splat(kExp2));
  y = wasm_f32x4_add(wasm_f32x4_mul(y, r), wasm_f32x4_splat(kExp3));
  y = wasm_f32x4_add(wasm_f32x4_mul(y, r), wasm_f32x4_splat(kExp4));
  y = wasm_f32x4_add(wasm_f32x4_mul(y, r), wasm_f32x4_splat(kExp5));
  y = wasm_f32x4_add(wasm_f32x4_add(wasm_f32x4_mul(y, z), r), wasm_f32x4_splat(1.0f));
  const v128_t p = wasm_i32x4_shl(
      wasm_i32x4_add(wasm_i32x4_trunc_sat_f32x4(n), wasm_i32x4_splat(127)), 23);
  const v128_t e = wasm_f32x4_mul(y, p);
  // Below the cutoff (and for -Infinity) the weight is exactly zero.
  return wasm_v128_and(e, wasm_f32x4_ge(x, wasm_f32x4_splat(kExpCutoff)));
}

inline void softmaxRowSimd(float* row, size_t n) noexcept {
  size_t j = 0;
  v128_t mv = wasm_f32x4_splat(-INFINITY);
  for (; j + 4 <= n; j += 4) mv = wasm_f32x4_pmax(mv, wasm_v128_load(row + j));
  float m = wasm_f32x4_extract_lane(mv, 0);
  for (int l = 1; l < 4; ++l) {
    const float v = l == 1 ? wasm_f32x4_extract_lane(mv, 1)
                  : l == 2 ? wasm_f32x4_extract_lane(mv, 2)
                           : wasm_f32x4_extract_lane(mv, 3);
    m = v > m ? v : m;
  }
  for (; j < n; ++j) m = row[j] > m ? row[j] : m;
  if (m == -INFINITY) {
    for (size_t t = 0; t < n; ++t) row[t] = 0.0f;
    return;
  }
  const v128_t mm = wasm_f32x4_splat(m);
  v128_t sv = wasm_f32x4_splat(0.0f);
  j = 0;
  for (; j + 4 <= n; j += 4) {
    const v128_t e = exp4NonPositive(wasm_f32x4_sub(wasm_v128_load(row + j), mm));
    wasm_v128_store(row + j, e);
    sv = wasm_f32x4_add(sv, e);
  }
  float sum = wasm_f32x4_extract_lane(sv, 0) + wasm_f32x4_extract_lane(sv, 1) +
              wasm_f32x4_extract_lane(sv, 2) + wasm_f32x4_extract_lane(sv, 3);
  for (; j < n; ++j) {
    const float x = row[j] - m;
    const float e = x < kExpCutoff ? 0.0f : expNonPositive(x);
    row[j] = e;
    sum += e;
  }
  const float inv = 1.0f / sum;
  const v128_t iv = wasm_f32x4_splat(inv);
  j = 0;
  for (; j + 4 <= n; j += 4) wasm_v128_store(row + j, wasm_f32x4_mul(wasm_v128_load(row + j), iv));
  for (; j < n; ++j) row[j] *= inv;
}

}  // namespace posenc::kernels

#endif  // __wasm_simd128__
