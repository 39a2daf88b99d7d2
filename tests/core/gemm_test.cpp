// core/kernels/gemm.hpp: Eigen's product (the reference) against a plain triple loop in double,
// and, in the -msimd128 build, the SIMD body against the reference, for all four transpose
// cases, random shapes with tails (m, n, k in 0..37), leading dimensions larger than the rows
// and both beta = 0 and beta = 1.
//
// Tolerance per entry: k · 2^-23 · sum_p |a_ip b_pj| (float32 sums in two different orders),
// plus 1e-30 for empty sums.
#include "core/kernels/gemm.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "test_util.hpp"

namespace gemm_test {

using posenc_test::Rng;

namespace {

struct Case {
  bool ta, tb;
  size_t m, n, k, lda, ldb, ldc;
  std::vector<float> a, b, c0;
};

Case randomCase(Rng& rng) {
  Case c;
  c.ta = rng.below(2);
  c.tb = rng.below(2);
  c.m = size_t(rng.below(38));
  c.n = size_t(rng.below(38));
  c.k = size_t(rng.below(38));
  const size_t aRows = c.ta ? c.k : c.m, aCols = c.ta ? c.m : c.k;
  const size_t bRows = c.tb ? c.n : c.k, bCols = c.tb ? c.k : c.n;
  c.lda = aCols + size_t(rng.below(3));
  c.ldb = bCols + size_t(rng.below(3));
  c.ldc = c.n + size_t(rng.below(3));
  c.a.resize(aRows * c.lda + 1);
  c.b.resize(bRows * c.ldb + 1);
  c.c0.resize(c.m * c.ldc + 1);
  for (float& v : c.a) v = float(rng.uniform(-1, 1));
  for (float& v : c.b) v = float(rng.uniform(-1, 1));
  for (float& v : c.c0) v = float(rng.uniform(-1, 1));
  return c;
}

float at(const std::vector<float>& x, bool t, size_t i, size_t j, size_t ld) { return t ? x[j * ld + i] : x[i * ld + j]; }

}  // namespace

TEST_CASE("gemmEigen equals the double triple loop within k·2^-23·Σ|ab| for every transpose case, with strides") {
  Rng rng(41);
  for (int trial = 0; trial < 300; ++trial) {
    const Case c = randomCase(rng);
    for (float beta : {0.0f, 1.0f}) {
      std::vector<float> out(c.c0);
      posenc::kernels::gemmEigen<float>(c.ta, c.tb, c.m, c.n, c.k, c.a.data(), c.lda, c.b.data(), c.ldb, beta, out.data(), c.ldc);
      double worst = 0;
      for (size_t i = 0; i < c.m; ++i) {
        for (size_t j = 0; j < c.n; ++j) {
          double want = beta ? c.c0[i * c.ldc + j] : 0.0, mag = 1e-30 + std::fabs(want);
          for (size_t p = 0; p < c.k; ++p) {
            const double t = double(at(c.a, c.ta, i, p, c.lda)) * at(c.b, c.tb, p, j, c.ldb);
            want += t;
            mag += std::fabs(t);
          }
          worst = std::max(worst, std::fabs(out[i * c.ldc + j] - want) / (double(c.k + 1) * 0x1p-23 * mag));
        }
      }
      CHECK(worst <= 1.0);
      // Padding past each row of C is never written.
      for (size_t i = 0; i < c.m; ++i)
        for (size_t j = c.n; j < c.ldc; ++j) CHECK(out[i * c.ldc + j] == c.c0[i * c.ldc + j]);
    }
  }
}

#ifdef __wasm_simd128__
TEST_CASE("gemmSimd agrees with gemmEigen within k·2^-23·Σ|ab| on random shapes 0..37, strides, both betas") {
  Rng rng(43);
  for (int trial = 0; trial < 400; ++trial) {
    const Case c = randomCase(rng);
    for (float beta : {0.0f, 1.0f}) {
      std::vector<float> simd(c.c0), ref(c.c0);
      posenc::kernels::gemmSimd(c.ta, c.tb, c.m, c.n, c.k, c.a.data(), c.lda, c.b.data(), c.ldb, beta, simd.data(), c.ldc);
      posenc::kernels::gemmEigen<float>(c.ta, c.tb, c.m, c.n, c.k, c.a.data(), c.lda, c.b.data(), c.ldb, beta, ref.data(), c.ldc);
      double worst = 0;
      for (size_t i = 0; i < c.m; ++i) {
        for (size_t j = 0; j < c.ldc; ++j) {
          if (j >= c.n) {
            CHECK(simd[i * c.ldc + j] == c.c0[i * c.ldc + j]);
            continue;
          }
          double mag = 1e-30 + (beta ? std::fabs(c.c0[i * c.ldc + j]) : 0.0);
          for (size_t p = 0; p < c.k; ++p) mag += std::fabs(double(at(c.a, c.ta, i, p, c.lda)) * at(c.b, c.tb, p, j, c.ldb));
          worst = std::max(worst, std::fabs(double(simd[i * c.ldc + j]) - ref[i * c.ldc + j]) / (double(c.k + 1) * 0x1p-23 * mag));
        }
      }
      CHECK(worst <= 1.0);
    }
  }
}
#endif

}  // namespace gemm_test
