// core/alibi.hpp against ofirpress/attention_with_linear_biases fairseq/models/transformer.py
// (get_slopes, with its start * ratio**i products), transcribed below in double.
//
// Tolerances: slopes 1e-12 relative (REFERENCES.md §4; the core uses exp2(-8k/n), the reference
// repeated products, so they differ in the last bits); bias entries 1e-7 relative (one float32
// rounding of -m·|i - j|).

#include "core/alibi.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "core/errors.hpp"
#include "core/limits.hpp"
#include "test_util.hpp"

namespace alibi_test {

using posenc::RangeError;
using posenc_test::relApprox;

namespace {

// get_slopes_power_of_2(n): start = 2**(-2**-(log2(n) - 3)); ratio = start;
// [start * ratio**i for i in range(n)]
std::vector<double> fairseqSlopesPowerOf2(int n) {
  const double start = std::pow(2.0, -std::pow(2.0, -(std::log2(double(n)) - 3)));
  const double ratio = start;
  std::vector<double> out;
  for (int i = 0; i < n; ++i) out.push_back(start * std::pow(ratio, i));
  return out;
}

// get_slopes(n): power of two -> the above; otherwise
// get_slopes_power_of_2(closest) + get_slopes(2 * closest)[0::2][:n - closest]
std::vector<double> fairseqSlopes(int n) {
  const double l = std::log2(double(n));
  if (l == std::floor(l)) return fairseqSlopesPowerOf2(n);
  const int closest = int(std::pow(2.0, std::floor(l)));
  std::vector<double> out = fairseqSlopesPowerOf2(closest);
  const std::vector<double> twice = fairseqSlopes(2 * closest);
  for (size_t i = 0; i < twice.size() && out.size() < size_t(n); i += 2) out.push_back(twice[i]);
  return out;
}

void checkSlopes(int n) {
  const std::vector<double> got = posenc::alibiSlopes(n);
  const std::vector<double> want = fairseqSlopes(n);
  REQUIRE(got.size() == size_t(n));
  REQUIRE(want.size() == size_t(n));
  for (int i = 0; i < n; ++i) {
    CAPTURE(n);
    CAPTURE(i);
    CHECK(got[i] == relApprox(want[i], 1e-12));  // REFERENCES.md §4: rel 1e-12
  }
}

std::vector<float> bias(int length, double slope, bool causal) {
  std::vector<float> out(size_t(length) * length);
  posenc::alibiBias(length, slope, causal, out.data());
  return out;
}

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

}  // namespace

TEST_CASE("alibiSlopes for a power of two n is 2^(−8k/n), k = 1..n, as fairseq's start·ratio^i") {
  for (int n : {1, 2, 4, 8, 16, 32, 64, 128, 256}) checkSlopes(n);
  const std::vector<double> eight = posenc::alibiSlopes(8);
  for (int k = 1; k <= 8; ++k) CHECK(eight[k - 1] == relApprox(std::ldexp(1.0, -k), 1e-12));  // 1/2 .. 1/256
}

TEST_CASE("alibiSlopes n = 1 gives 1/256") {
  const std::vector<double> s = posenc::alibiSlopes(1);
  REQUIRE(s.size() == 1);
  CHECK(s[0] == relApprox(1.0 / 256, 1e-12));  // 2^-8, rel 1e-12
}

TEST_CASE("alibiSlopes n = 6 gives 1/4, 1/16, 1/64, 1/256, 1/2, 1/8 (fairseq's unsorted order)") {
  const std::vector<double> s = posenc::alibiSlopes(6);
  const std::vector<double> want = {1.0 / 4, 1.0 / 16, 1.0 / 64, 1.0 / 256, 1.0 / 2, 1.0 / 8};
  REQUIRE(s.size() == 6);
  for (int i = 0; i < 6; ++i) CHECK(s[i] == relApprox(want[i], 1e-12));  // rel 1e-12
  checkSlopes(6);
}

TEST_CASE("alibiSlopes n = 12 is slopes(8) then every other slope of slopes(16): 2^−0.5, 2^−1.5, 2^−2.5, 2^−3.5") {
  const std::vector<double> s = posenc::alibiSlopes(12);
  REQUIRE(s.size() == 12);
  for (int k = 1; k <= 8; ++k) CHECK(s[k - 1] == relApprox(std::pow(2.0, -k), 1e-12));  // rel 1e-12
  for (int i = 0; i < 4; ++i) CHECK(s[8 + i] == relApprox(std::pow(2.0, -0.5 - i), 1e-12));  // rel 1e-12
  checkSlopes(12);
}

TEST_CASE("alibiSlopes matches fairseq get_slopes for every n in 1..300") {
  for (int n = 1; n <= 300; ++n) checkSlopes(n);
}

TEST_CASE("alibiBias is −m·|i − j| without a mask") {
  const double m = 1.0 / 16;
  const std::vector<float> b = bias(9, m, false);
  for (int i = 0; i < 9; ++i) {
    for (int j = 0; j < 9; ++j) {
      CAPTURE(i);
      CAPTURE(j);
      CHECK(b[i * 9 + j] == doctest::Approx(-m * std::abs(i - j)).epsilon(1e-7));  // one float32 rounding
    }
  }
  CHECK(b[0] == 0.0f);
}

TEST_CASE("alibiBias causal masks j > i with −Infinity and keeps −m·(i − j) on and below the diagonal") {
  const double m = std::pow(2.0, -0.5);  // a non-dyadic slope (head 9 of 12)
  const std::vector<float> b = bias(12, m, true);
  for (int i = 0; i < 12; ++i) {
    for (int j = 0; j < 12; ++j) {
      CAPTURE(i);
      CAPTURE(j);
      if (j > i) {
        CHECK(b[i * 12 + j] == -std::numeric_limits<float>::infinity());
      } else {
        CHECK(b[i * 12 + j] == doctest::Approx(-m * (i - j)).epsilon(1e-7));  // one float32 rounding
      }
    }
  }
}

TEST_CASE("alibiBias causal rows give the same softmax as fairseq's +m·j form (shift invariance per row)") {
  const double m = 1.0 / 8;
  const int n = 10;
  const std::vector<float> b = bias(n, m, true);
  for (int i = 0; i < n; ++i) {
    double sumCore = 0, sumFairseq = 0;
    for (int j = 0; j <= i; ++j) {
      sumCore += std::exp(double(b[i * n + j]));
      sumFairseq += std::exp(m * j);
    }
    for (int j = 0; j <= i; ++j) {
      CAPTURE(i);
      CAPTURE(j);
      // Float32 bias entries (1e-7 relative on values up to 1.2): 1e-6 on the weights.
      CHECK(std::exp(double(b[i * n + j])) / sumCore == doctest::Approx(std::exp(m * j) / sumFairseq).epsilon(1e-6));
    }
  }
}

TEST_CASE("alibiBias of length 0 writes nothing and length 1 is a single 0") {
  CHECK_NOTHROW(posenc::alibiBias(0, 0.5, true, nullptr));
  const std::vector<float> one = bias(1, 0.5, true);
  CHECK(one[0] == 0.0f);
}

TEST_CASE("alibiSlopes rejects nHeads 0, negative or over kMaxHeads and names it") {
  for (int bad : {0, -3, posenc::kMaxHeads + 1}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH_AS(posenc::alibiSlopes(bad), doctest::Contains("nHeads must be an integer in [1, 4096]"),
                         RangeError);
  }
  CHECK(posenc::alibiSlopes(posenc::kMaxHeads).size() == size_t(posenc::kMaxHeads));
}

TEST_CASE("alibiBias rejects a negative or too long length and a NaN, infinite or negative slope") {
  std::vector<float> out(4, 42.0f);
  for (int bad : {-1, 4097}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH_AS(posenc::alibiBias(bad, 0.5, false, out.data()), doctest::Contains("length must be an integer"),
                         RangeError);
  }
  for (double bad : {kNaN, kInf, -kInf, -0.25}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH_AS(posenc::alibiBias(2, bad, false, out.data()), doctest::Contains("slope must be a finite number"),
                         RangeError);
  }
  for (float v : out) CHECK(v == 42.0f);
}

}  // namespace alibi_test
