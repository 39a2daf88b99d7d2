// WebAssembly SIMD body of qkScalar (matmul.hpp).
//
// K is first packed into panels of 8 keys (panel p holds k[8p .. 8p+7][t] for t = 0..d-1,
// t-major, zero-padded past the last key), so a 4 x 8 tile of the output lives in eight f32x4
// accumulators while t runs over d: per t, two contiguous loads of the panel, four splats of Q,
// eight multiply-adds. Contiguous panels matter: reading K^T with a row stride of rk floats
// would hit the same cache sets at every t. Rows left over go through 1-row tiles; a partial
// last panel is computed whole into a small buffer and only its valid columns are stored.
// Result differs from the scalar reference only by float32 summation order:
// |diff| <= d * 2^-23 * sum_t |q_t k_t| (tests/core/matmul_test.cpp).
#pragma once

#ifdef __wasm_simd128__
#include <wasm_simd128.h>

#include "matmul.hpp"

namespace posenc::kernels {

constexpr size_t kPanel = 8;

// Scratch needed by qkSimd, in floats.
inline size_t qkSimdScratch(size_t rk, size_t d) noexcept {
  return (rk + kPanel - 1) / kPanel * kPanel * d;
}

// R rows of Q (row stride d) against one packed panel; writes 8 scaled results per row into
// out (row stride ldo).
template <int R>
inline void qkTile(const float* q, size_t d, const float* panel, float scale, float* out,
                   size_t ldo) noexcept {
  v128_t acc0[R], acc1[R];
  for (int r = 0; r < R; ++r) acc0[r] = acc1[r] = wasm_f32x4_splat(0.0f);
  for (size_t t = 0; t < d; ++t) {
    const v128_t b0 = wasm_v128_load(panel + t * kPanel);
    const v128_t b1 = wasm_v128_load(panel + t * kPanel + 4);
    for (int r = 0; r < R; ++r) {
      const v128_t a = wasm_v128_load32_splat(q + r * d + t);
      acc0[r] = wasm_f32x4_add(acc0[r], wasm_f32x4_mul(a, b0));
      acc1[r] = wasm_f32x4_add(acc1[r], wasm_f32x4_mul(a, b1));
    }
  }
  const v128_t sc = wasm_f32x4_splat(scale);
  for (int r = 0; r < R; ++r) {
    wasm_v128_store(out + r * ldo, wasm_f32x4_mul(acc0[r], sc));
    wasm_v128_store(out + r * ldo + 4, wasm_f32x4_mul(acc1[r], sc));
  }
}

template <int R>
inline void qkRows(const float* q, size_t d, const float* packed, size_t rk, float scale,
                   float* out) noexcept {
  const size_t full = rk / kPanel;
  for (size_t p = 0; p < full; ++p) {
    qkTile<R>(q, d, packed + p * kPanel * d, scale, out + p * kPanel, rk);
  }
  const size_t rest = rk - full * kPanel;
  if (rest) {
    float tmp[R * kPanel];
    qkTile<R>(q, d, packed + full * kPanel * d, scale, tmp, kPanel);
    for (int r = 0; r < R; ++r)
      for (size_t c = 0; c < rest; ++c) out[r * rk + full * kPanel + c] = tmp[r * kPanel + c];
  }
}

inline void qkSimd(const float* q, size_t rq, const float* k, size_t rk, size_t d, float scale,
                   float* out, float* scratch) noexcept {
  const size_t panels = (rk + kPanel - 1) / kPanel;
  for (size_t p = 0; p < panels; ++p) {
    float* panel = scratch + p * kPanel * d;
    for (size_t c = 0; c < kPanel; ++c) {
      const size_t j = p * kPanel + c;
      if (j < rk) {
        for (size_t t = 0; t < d; ++t) panel[t * kPanel + c] = k[j * d + t];
      } else {
        for (size_t t = 0; t < d; ++t) panel[t * kPanel + c] = 0.0f;
      }
    }
  }
  size_t i = 0;
  for (; i + 4 <= rq; i += 4) qkRows<4>(q + i * d, d, scratch, rk, scale, out + i * rk);
  for (; i < rq; ++i) qkRows<1>(q + i * d, d, scratch, rk, scale, out + i * rk);
}

}  // namespace posenc::kernels

#endif  // __wasm_simd128__
