// core/kernels/softmax.hpp and softmax_simd.hpp: the row softmax and its exponential.
// Random lengths run 0..67 so every SIMD body sees whole vectors, tails of 1..3 and nothing;
// guard values after each output catch writes past the end. Measured maxima are printed with
// MESSAGE so that a run documents them.
//
//   [SECTION] scalar references vs double libm     every build
//   [SECTION] SIMD bodies vs scalar references     only under __wasm_simd128__ (the node run)
//
// Tolerances:
//   softmax weight           5e-7 rel vs double on small rows (budget beyond) softmax.hpp
//   softmax, SIMD vs scalar  n·2^-24 rel                                  softmax_simd.hpp
//   expNonPositive           2^-23 rel vs double exp on [-87, 0]          derived: Cephes expf
//                                                                         is ~1 ulp
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/kernels/dispatch.hpp"
#include "kernel_test_util.hpp"
#include "test_util.hpp"

namespace softmax_test {

using namespace posenc::kernels;
using namespace posenc_test;

namespace {

// Double reference of one softmax row over the same float inputs.
std::vector<double> softmaxReference(const std::vector<float>& row) {
  double m = -INFINITY;
  for (float v : row) m = std::max(m, double(v));
  std::vector<double> out(row.size(), 0.0);
  if (m == -INFINITY) return out;
  double sum = 0;
  for (float v : row) sum += std::exp(double(v) - m);
  for (size_t j = 0; j < row.size(); ++j) out[j] = std::exp(double(row[j]) - m) / sum;
  return out;
}

std::vector<float> randomRow(Rng& rng, size_t n, double spread) {
  std::vector<float> row(n);
  for (float& v : row) v = float(rng.uniform(-spread, spread));
  return row;
}

}  // namespace

// [SECTION] scalar references vs double libm ---------------------------------------------------

TEST_CASE("expNonPositive is within 2^-23 relative of exp on [-87, 0]") {
  Rng rng(104);
  MaxError err;
  for (int t = 0; t < 200000; ++t) {
    const float x = float(rng.uniform(-87, 0));
    err.addRel(expNonPositive(x), std::exp(double(x)));
  }
  for (float x : {0.0f, -1e-30f, -87.0f, -0.5f, -0.34657359f}) err.addRel(expNonPositive(x), std::exp(double(x)));
  MESSAGE("expNonPositive max rel error: " << err.value);
  CHECK(err.value <= 0x1.0p-23);  // see tolerance table
}

TEST_CASE("softmaxRowScalar keeps the documented 5e-7 relative error per weight on small rows") {
  // softmax.hpp: "on rows of <= 16 scores in [-2, 2] that is <= 5e-7". Rows here are small and tame
  // (scores in [-2, 2], 1..16 entries), so no weight is near the -87 cutoff.
  Rng rng(105);
  MaxError err;
  for (int trial = 0; trial < 20000; ++trial) {
    const size_t n = 1 + size_t(rng.below(16));
    std::vector<float> row = randomRow(rng, n, 2.0);
    const std::vector<double> want = softmaxReference(row);
    softmaxRowScalar(row.data(), n);
    for (size_t j = 0; j < n; ++j) err.addRel(row[j], want[j], double(n));
  }
  MESSAGE("softmaxRowScalar max rel error per weight (scores in [-2, 2], n <= 16): " << err.value
                                                                                      << " (at row length "
                                                                                      << err.where << ")");
  CHECK(err.value <= 5e-7);  // softmax.hpp contract
}

TEST_CASE("softmaxRowScalar per-weight error stays within the float32 error budget (|x_j| + max|x| + n + 5)·2^-24") {
  // The budget: x_j − max rounds once (|x_j|·u relative on the weight), exp adds <= 2u, the
  // n-term float sum <= (n − 1)u plus the error of its largest term, 1/sum and the product 2u.
  Rng rng(106);
  MaxError slack;  // error / budget, must stay <= 1
  for (int trial = 0; trial < 20000; ++trial) {
    const size_t n = 1 + size_t(rng.below(67));
    std::vector<float> row = randomRow(rng, n, trial % 2 ? 5.0 : 50.0);  // 50: some weights cut off
    const std::vector<double> want = softmaxReference(row);
    float m = -INFINITY;
    for (float v : row) m = std::max(m, v);
    double spread = 0;
    for (float v : row) spread = std::max(spread, std::fabs(double(v) - m));
    const std::vector<float> in = row;
    softmaxRowScalar(row.data(), n);
    for (size_t j = 0; j < n; ++j) {
      const double x = double(in[j]) - m;
      if (in[j] - m < kExpCutoff) {  // the kernel's own float comparison
        CHECK(row[j] == 0.0f);  // below the cutoff the weight is exactly 0 (by design)
        continue;
      }
      const double budget = (std::fabs(x) + spread + double(n) + 5) * kU * want[j];
      slack.add(std::fabs(row[j] - want[j]) / budget, 0);
    }
  }
  MESSAGE("softmaxRowScalar worst error / budget: " << slack.value);
  CHECK(slack.value <= 1.0);
}

TEST_CASE("softmaxRowScalar: −Infinity entries and x − max < −87 give exact zeros, an all −Infinity row all zeros") {
  const float ninf = -std::numeric_limits<float>::infinity();
  std::vector<float> row = {ninf, 0.0f, ninf, -100.0f, 1.0f};
  softmaxRowScalar(row.data(), row.size());
  CHECK(row[0] == 0.0f);
  CHECK(row[2] == 0.0f);
  CHECK(row[3] == 0.0f);  // -101 relative to the max
  CHECK(double(row[1]) == doctest::Approx(1 / (1 + std::exp(1.0))).epsilon(1e-6));  // float32 weight
  CHECK(double(row[4]) == doctest::Approx(std::exp(1.0) / (1 + std::exp(1.0))).epsilon(1e-6));  // float32 weight
  std::vector<float> dead = {ninf, ninf, ninf};
  softmaxRowScalar(dead.data(), dead.size());
  for (float v : dead) CHECK(v == 0.0f);
  softmaxRowScalar(nullptr, 0);  // empty row: nothing to do
}

// [SECTION] SIMD bodies vs scalar references ------------------------------------------------------

#ifdef __wasm_simd128__

TEST_CASE("softmaxRowSimd agrees with softmaxRowScalar within n·2^-24 relative on random lengths 0..67, with masks") {
  Rng rng(203);
  MaxError relVsScalar, relVsDouble;
  bool withinBound = true, zerosAgree = true;
  const float ninf = -std::numeric_limits<float>::infinity();
  for (int trial = 0; trial < 8000; ++trial) {
    const size_t n = size_t(rng.below(68));
    std::vector<float> row = randomRow(rng, n, trial % 4 == 0 ? 60.0 : 4.0);
    for (float& v : row)
      if (rng.below(6) == 0) v = ninf;              // masked scores
    if (trial % 50 == 0) row.assign(n, ninf);       // nothing to attend to
    std::vector<float> simd = guarded(n), scalar(row);
    for (size_t j = 0; j < n; ++j) simd[j] = row[j];
    setGuard(simd, n);
    const std::vector<double> want = softmaxReference(row);
    softmaxRowSimd(simd.data(), n);
    softmaxRowScalar(scalar.data(), n);
    REQUIRE(guardIntact(simd, n));
    for (size_t j = 0; j < n; ++j) {
      if (scalar[j] == 0.0f || simd[j] == 0.0f) {
        zerosAgree = zerosAgree && scalar[j] == simd[j];
        continue;
      }
      const double rel = std::fabs(double(simd[j]) - scalar[j]) / scalar[j];
      withinBound = withinBound && rel <= double(n) * kU;  // softmax_simd.hpp contract
      relVsScalar.add(rel, 0);
      if (want[j] > 1e-30) relVsDouble.addRel(simd[j], want[j]);
    }
  }
  MESSAGE("softmaxRowSimd: max rel |simd - scalar| " << relVsScalar.value << "; max rel error vs double "
                                                     << relVsDouble.value << " (scores up to ±60)");
  CHECK(withinBound);
  CHECK(zerosAgree);  // masked and cut-off weights are exact zeros in both
}

TEST_CASE("softmaxRowSimd keeps the documented 5e-7 relative error per weight on small rows") {
  // Same rows as the scalar test of this contract (scores in [-2, 2], n <= 16).
  Rng rng(105);
  MaxError err;
  for (int trial = 0; trial < 20000; ++trial) {
    const size_t n = 1 + size_t(rng.below(16));
    std::vector<float> row = randomRow(rng, n, 2.0);
    const std::vector<double> want = softmaxReference(row);
    softmaxRowSimd(row.data(), n);
    for (size_t j = 0; j < n; ++j) err.addRel(row[j], want[j]);
  }
  MESSAGE("softmaxRowSimd max rel error per weight (scores in [-2, 2], n <= 16): " << err.value);
  CHECK(err.value <= 5e-7);  // softmax.hpp contract, which softmax_simd.hpp inherits
}

#endif  // __wasm_simd128__

}  // namespace softmax_test
