// WebAssembly SIMD body of qkScalar (matmul.hpp).
//
// K is first packed transposed (d x rk) into caller-provided scratch, so that a 4 x 8 tile of
// the output lives in eight f32x4 accumulators while t runs over d: per t, two loads of K^T,
// four splats of Q, eight multiply-adds. Rows left over go through 1-row tiles, columns left
// over through a 4-wide block and then scalar dot products.
// Result differs from the scalar reference only by float32 summation order:
// |diff| <= d * 2^-23 * sum_t |q_t k_t| (tests/core/attention_test.cpp).
#pragma once

#ifdef __wasm_simd128__
#include <wasm_simd128.h>

#include "matmul.hpp"

namespace posenc::kernels {

// Scratch needed by qkSimd, in floats.
inline size_t qkSimdScratch(size_t rk, size_t d) noexcept { return rk * d; }

template <int R>
inline void qkTile(const float* q, size_t d, const float* kt, size_t rk, size_t j, float scale,
                   float* out) noexcept {
  v128_t acc0[R], acc1[R];
  for (int r = 0; r < R; ++r) acc0[r] = acc1[r] = wasm_f32x4_splat(0.0f);
  for (size_t t = 0; t < d; ++t) {
    const v128_t b0 = wasm_v128_load(kt + t * rk + j);
    const v128_t b1 = wasm_v128_load(kt + t * rk + j + 4);
    for (int r = 0; r < R; ++r) {
      const v128_t a = wasm_v128_load32_splat(q + r * d + t);
      acc0[r] = wasm_f32x4_add(acc0[r], wasm_f32x4_mul(a, b0));
      acc1[r] = wasm_f32x4_add(acc1[r], wasm_f32x4_mul(a, b1));
    }
  }
  const v128_t sc = wasm_f32x4_splat(scale);
  for (int r = 0; r < R; ++r) {
    wasm_v128_store(out + r * rk + j, wasm_f32x4_mul(acc0[r], sc));
    wasm_v128_store(out + r * rk + j + 4, wasm_f32x4_mul(acc1[r], sc));
  }
}

template <int R>
inline void qkRows(const float* q, size_t d, const float* kt, size_t rk, float scale,
                   float* out) noexcept {
  size_t j = 0;
  for (; j + 8 <= rk; j += 8) qkTile<R>(q, d, kt, rk, j, scale, out);
  if (j + 4 <= rk) {
    v128_t acc[R];
    for (int r = 0; r < R; ++r) acc[r] = wasm_f32x4_splat(0.0f);
    for (size_t t = 0; t < d; ++t) {
      const v128_t b = wasm_v128_load(kt + t * rk + j);
      for (int r = 0; r < R; ++r)
        acc[r] = wasm_f32x4_add(acc[r], wasm_f32x4_mul(wasm_v128_load32_splat(q + r * d + t), b));
    }
    for (int r = 0; r < R; ++r)
      wasm_v128_store(out + r * rk + j, wasm_f32x4_mul(acc[r], wasm_f32x4_splat(scale)));
    j += 4;
  }
  for (; j < rk; ++j) {
    for (int r = 0; r < R; ++r) {
      float acc = 0.0f;
      for (size_t t = 0; t < d; ++t) acc += q[r * d + t] * kt[t * rk + j];
      out[r * rk + j] = acc * scale;
    }
  }
}

inline void qkSimd(const float* q, size_t rq, const float* k, size_t rk, size_t d, float scale,
                   float* out, float* scratch) noexcept {
  for (size_t j = 0; j < rk; ++j)
    for (size_t t = 0; t < d; ++t) scratch[t * rk + j] = k[j * d + t];
  size_t i = 0;
  for (; i + 4 <= rq; i += 4) qkRows<4>(q + i * d, d, scratch, rk, scale, out + i * rk);
  for (; i < rq; ++i) qkRows<1>(q + i * d, d, scratch, rk, scale, out + i * rk);
}

}  // namespace posenc::kernels

#endif  // __wasm_simd128__
