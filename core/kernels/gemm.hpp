// General matrix product for the trainer: C = A'·B' (beta = 0) or C += A'·B' (beta = 1), where
// A' is A or Aᵀ and B' is B or Bᵀ; every matrix row-major with its own leading dimension.
//   A' : m x k   (A stored m x k with row stride lda, or k x m when transA)
//   B' : k x n   (B stored k x n with row stride ldb, or n x k when transB)
//   C  : m x n   (row stride ldc)
// The reference is Eigen's product over Maps of the caller's buffers (gemmEigen, any scalar
// type); in a -msimd128 build float products go to gemmSimd (gemm_simd.hpp), because Eigen 3.4
// has no WebAssembly SIMD packets and runs its scalar path there. The two differ only by float32
// summation order: |diff| <= k * 2^-23 * sum_p |a_ip b_pj| per entry (tests/core/gemm_test.cpp).
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <type_traits>

#include "gemm_simd.hpp"

namespace posenc::kernels {

template <class T>
void gemmEigen(bool transA, bool transB, size_t m, size_t n, size_t k, const T* A, size_t lda, const T* B,
               size_t ldb, T beta, T* C, size_t ldc) {
  using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using In = Eigen::Map<const Mat, Eigen::Unaligned, Eigen::OuterStride<>>;
  using Out = Eigen::Map<Mat, Eigen::Unaligned, Eigen::OuterStride<>>;
  const In a(A, Eigen::Index(transA ? k : m), Eigen::Index(transA ? m : k), Eigen::OuterStride<>(Eigen::Index(lda)));
  const In b(B, Eigen::Index(transB ? n : k), Eigen::Index(transB ? k : n), Eigen::OuterStride<>(Eigen::Index(ldb)));
  Out c(C, Eigen::Index(m), Eigen::Index(n), Eigen::OuterStride<>(Eigen::Index(ldc)));
  if (m == 0 || n == 0) return;
  if (beta == T(0)) c.setZero();
  if (k == 0) return;
  // Each case spelled out: an `auto` over a transposed Map would be an expression, not a matrix.
  if (!transA && !transB) c.noalias() += a * b;
  else if (!transA && transB) c.noalias() += a * b.transpose();
  else if (transA && !transB) c.noalias() += a.transpose() * b;
  else c.noalias() += a.transpose() * b.transpose();
}

template <class T>
void gemm(bool transA, bool transB, size_t m, size_t n, size_t k, const T* A, size_t lda, const T* B, size_t ldb,
          T beta, T* C, size_t ldc) {
#ifdef __wasm_simd128__
  if constexpr (std::is_same_v<T, float>) {
    gemmSimd(transA, transB, m, n, k, A, lda, B, ldb, beta, C, ldc);
    return;
  }
#endif
  gemmEigen<T>(transA, transB, m, n, k, A, lda, B, ldb, beta, C, ldc);
}

}  // namespace posenc::kernels
