// WebAssembly SIMD body of gemmEigen<float> (gemm.hpp).
//
// B' is packed into panels of 8 columns (panel q holds B'[p][8q .. 8q+7] for p = 0..k-1,
// p-major, zero past the last column), so a 4 x 8 tile of C lives in eight f32x4 accumulators
// while p runs over k: per p, two contiguous loads of the panel, four splats of A', eight
// multiplies and adds. A' is read in place (a splat load from A[i][p], or A[p][i] when
// transposed), so only B' is copied. Each entry of C is summed over p = 0..k-1 in order, the
// same for every call, so results are deterministic; they differ from Eigen's only by
// summation order. Leftover rows go through 1-row tiles; a partial last panel is computed
// whole into a small buffer and only its valid columns are stored.
#pragma once

#ifdef __wasm_simd128__
#include <wasm_simd128.h>

#include <cstddef>
#include <memory>

namespace posenc::kernels {

constexpr size_t kGemmPanel = 8;

template <int R, bool TransA>
inline void gemmTile(const float* A, size_t lda, size_t i, size_t k, const float* panel, float beta, float* C,
                     size_t ldc, size_t cols) noexcept {
  v128_t acc0[R], acc1[R];
  for (int r = 0; r < R; ++r) acc0[r] = acc1[r] = wasm_f32x4_splat(0.0f);
  for (size_t p = 0; p < k; ++p) {
    const v128_t b0 = wasm_v128_load(panel + p * kGemmPanel);
    const v128_t b1 = wasm_v128_load(panel + p * kGemmPanel + 4);
    for (int r = 0; r < R; ++r) {
      const float* a = TransA ? A + p * lda + i + size_t(r) : A + (i + size_t(r)) * lda + p;
      const v128_t av = wasm_v128_load32_splat(a);
      acc0[r] = wasm_f32x4_add(acc0[r], wasm_f32x4_mul(av, b0));
      acc1[r] = wasm_f32x4_add(acc1[r], wasm_f32x4_mul(av, b1));
    }
  }
  for (int r = 0; r < R; ++r) {
    float* c = C + (i + size_t(r)) * ldc;
    if (cols == kGemmPanel) {
      if (beta != 0.0f) {
        acc0[r] = wasm_f32x4_add(wasm_v128_load(c), acc0[r]);
        acc1[r] = wasm_f32x4_add(wasm_v128_load(c + 4), acc1[r]);
      }
      wasm_v128_store(c, acc0[r]);
      wasm_v128_store(c + 4, acc1[r]);
    } else {
      float tmp[kGemmPanel];
      wasm_v128_store(tmp, acc0[r]);
      wasm_v128_store(tmp + 4, acc1[r]);
      for (size_t x = 0; x < cols; ++x) c[x] = (beta != 0.0f ? c[x] : 0.0f) + tmp[x];
    }
  }
}

template <bool TransA>
inline void gemmRows(size_t m, size_t n, size_t k, const float* A, size_t lda, const float* packed, float beta,
                     float* C, size_t ldc) noexcept {
  const size_t panels = (n + kGemmPanel - 1) / kGemmPanel;
  for (size_t q = 0; q < panels; ++q) {
    const float* panel = packed + q * kGemmPanel * k;
    const size_t cols = n - q * kGemmPanel < kGemmPanel ? n - q * kGemmPanel : kGemmPanel;
    float* c = C + q * kGemmPanel;
    size_t i = 0;
    for (; i + 4 <= m; i += 4) gemmTile<4, TransA>(A, lda, i, k, panel, beta, c, ldc, cols);
    for (; i < m; ++i) gemmTile<1, TransA>(A, lda, i, k, panel, beta, c, ldc, cols);
  }
}

inline void gemmSimd(bool transA, bool transB, size_t m, size_t n, size_t k, const float* A, size_t lda,
                     const float* B, size_t ldb, float beta, float* C, size_t ldc) {
  if (m == 0 || n == 0) return;
  if (k == 0) {
    if (beta == 0.0f)
      for (size_t i = 0; i < m; ++i)
        for (size_t j = 0; j < n; ++j) C[i * ldc + j] = 0.0f;
    return;
  }
  const size_t panels = (n + kGemmPanel - 1) / kGemmPanel;
  // Small products (attention's, per sequence and head) pack on the stack: an allocation and its
  // zero fill per call cost more than such a product itself.
  constexpr size_t kStackFloats = 4096;
  const size_t size = panels * kGemmPanel * k;
  alignas(16) float local[kStackFloats];
  std::unique_ptr<float[]> heap(size > kStackFloats ? new float[size] : nullptr);
  float* const packed = heap ? heap.get() : local;
  for (size_t q = 0; q < panels; ++q) {
    float* panel = packed + q * kGemmPanel * k;
    for (size_t c = 0; c < kGemmPanel; ++c) {
      const size_t j = q * kGemmPanel + c;
      for (size_t p = 0; p < k; ++p) {
        panel[p * kGemmPanel + c] = j < n ? (transB ? B[j * ldb + p] : B[p * ldb + j]) : 0.0f;
      }
    }
  }
  if (transA) gemmRows<true>(m, n, k, A, lda, packed, beta, C, ldc);
  else gemmRows<false>(m, n, k, A, lda, packed, beta, C, ldc);
}

}  // namespace posenc::kernels

#endif  // __wasm_simd128__
