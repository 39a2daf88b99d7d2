// core/kernels/matmul.hpp and matmul_simd.hpp: the scaled Q·Kᵀ block of one head.
// Random lengths run 0..67 so every SIMD body sees whole vectors, tails of 1..3 and nothing;
// guard values after each output catch writes past the end. Measured maxima are printed with
// MESSAGE so that a run documents them.
//
//   [SECTION] scalar references vs double libm     every build
//   [SECTION] SIMD bodies vs scalar references     only under __wasm_simd128__ (the node run)
//
// Tolerances:
//   qk, SIMD vs scalar       d·2^-23·Σ_t|q_t k_t|·|scale|                 matmul_simd.hpp
//   qk scalar vs double      d·2^-24·Σ_t|q_t k_t|·|scale| + 2^-24·|out|  derived: in-order
//                                                                         float32 sum
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/kernels/dispatch.hpp"
#include "kernel_test_util.hpp"
#include "test_util.hpp"

namespace matmul_test {

using namespace posenc::kernels;
using namespace posenc_test;

// [SECTION] scalar references vs double libm ---------------------------------------------------

TEST_CASE("qkScalar is the in-order float32 sum, within d·2^-24·Σ|q_t k_t|·|scale| of the double product") {
  Rng rng(107);
  MaxError err;
  for (int trial = 0; trial < 300; ++trial) {
    const size_t rq = size_t(rng.below(10)), rk = size_t(rng.below(68)), d = 1 + size_t(rng.below(67));
    const float scale = float(rng.uniform(-2, 2));
    std::vector<float> q(rq * d), k(rk * d);
    for (float& v : q) v = float(rng.uniform(-1, 1));
    for (float& v : k) v = float(rng.uniform(-1, 1));
    std::vector<float> out = guarded(rq * rk);
    setGuard(out, rq * rk);
    qkScalar(q.data(), rq, k.data(), rk, d, scale, out.data());
    REQUIRE(guardIntact(out, rq * rk));
    for (size_t i = 0; i < rq; ++i) {
      for (size_t j = 0; j < rk; ++j) {
        double dot = 0, mag = 0;
        for (size_t t = 0; t < d; ++t) {
          dot += double(q[i * d + t]) * k[j * d + t];
          mag += std::fabs(double(q[i * d + t]) * k[j * d + t]);
        }
        const double want = dot * scale;
        const double got = out[i * rk + j];
        err.add(got, want);
        CHECK(std::fabs(got - want) <= d * kU * mag * std::fabs(scale) + kU * std::fabs(want) + 1e-30);
      }
    }
  }
  MESSAGE("qkScalar max abs error vs double: " << err.value);
}

// [SECTION] SIMD bodies vs scalar references ------------------------------------------------------

#ifdef __wasm_simd128__

TEST_CASE("qkSimd agrees with qkScalar within d·2^-23·Σ|q_t k_t|·|scale| on random shapes (rows 0..9, keys 0..67, d 1..67)") {
  Rng rng(204);
  MaxError vsScalar, vsDouble;
  bool withinBound = true;
  for (int trial = 0; trial < 600; ++trial) {
    const size_t rq = size_t(rng.below(10)), rk = size_t(rng.below(68)), d = 1 + size_t(rng.below(67));
    const float scale = float(rng.uniform(-2, 2));
    std::vector<float> q(rq * d), k(rk * d);
    for (float& v : q) v = float(rng.uniform(-1, 1));
    for (float& v : k) v = float(rng.uniform(-1, 1));
    std::vector<float> out = guarded(rq * rk), ref(rq * rk);
    setGuard(out, rq * rk);
    std::vector<float> scratch(qkSimdScratch(rk, d));
    qkSimd(q.data(), rq, k.data(), rk, d, scale, out.data(), scratch.data());
    qkScalar(q.data(), rq, k.data(), rk, d, scale, ref.data());
    REQUIRE(guardIntact(out, rq * rk));
    for (size_t i = 0; i < rq; ++i) {
      for (size_t j = 0; j < rk; ++j) {
        double dot = 0, mag = 0;
        for (size_t t = 0; t < d; ++t) {
          dot += double(q[i * d + t]) * k[j * d + t];
          mag += std::fabs(double(q[i * d + t]) * k[j * d + t]);
        }
        const double diff = std::fabs(double(out[i * rk + j]) - ref[i * rk + j]);
        withinBound = withinBound && diff <= d * 2 * kU * mag * std::fabs(scale);  // matmul_simd.hpp
        vsScalar.add(out[i * rk + j], ref[i * rk + j]);
        vsDouble.add(out[i * rk + j], dot * scale);
      }
    }
  }
  MESSAGE("qkSimd: max |simd - scalar| " << vsScalar.value << "; max abs error vs double " << vsDouble.value);
  CHECK(withinBound);
}

TEST_CASE("qkSimd reads K through its transposed scratch: exact for small integers") {
  // Products and sums of small integers are exact in float32, so the SIMD tiles (4 × 8, 1 × 8,
  // 4-wide and scalar columns) must reproduce them bit for bit.
  for (size_t rq : {1u, 3u, 4u, 5u, 9u}) {
    for (size_t rk : {1u, 4u, 7u, 8u, 12u, 13u, 17u}) {
      const size_t d = 5;
      std::vector<float> q(rq * d), k(rk * d);
      for (size_t i = 0; i < q.size(); ++i) q[i] = float(int(i % 7) - 3);
      for (size_t i = 0; i < k.size(); ++i) k[i] = float(int(i % 5) - 2);
      std::vector<float> out(rq * rk), scratch(qkSimdScratch(rk, d));
      qkSimd(q.data(), rq, k.data(), rk, d, 1.0f, out.data(), scratch.data());
      for (size_t i = 0; i < rq; ++i) {
        for (size_t j = 0; j < rk; ++j) {
          float want = 0;
          for (size_t t = 0; t < d; ++t) want += q[i * d + t] * k[j * d + t];
          CAPTURE(rq);
          CAPTURE(rk);
          CHECK(out[i * rk + j] == want);
        }
      }
    }
  }
}

#endif  // __wasm_simd128__

}  // namespace matmul_test
