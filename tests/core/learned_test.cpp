// core/learned.hpp: a seeded stand-in for a trained absolute position table (GPT-2 style,
// N(0, std^2) rows). There is no reference table to match; what is specified is the shape of
// the idea: rows are deterministic per (seed, position), have the requested distribution, and
// there is no row at or past maxPositions.

#include "core/learned.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "core/errors.hpp"
#include "core/limits.hpp"

namespace learned_test {

using posenc::RangeError;

namespace {

std::vector<float> rows(const posenc::LearnedParams& p, const std::vector<double>& positions) {
  std::vector<float> out(positions.size() * p.dModel);
  posenc::learned(p, positions.data(), positions.size(), out.data());
  return out;
}

posenc::LearnedParams params(int d, double seed = 7, int maxPositions = 1024, double stdDev = 0.02) {
  posenc::LearnedParams p;
  p.dModel = d;
  p.seed = seed;
  p.maxPositions = maxPositions;
  p.stdDev = stdDev;
  return p;
}

}  // namespace

TEST_CASE("learned row r depends only on (seed, r): same row whatever else is requested, in any order") {
  const posenc::LearnedParams p = params(33);
  const std::vector<float> a = rows(p, {5, 900, 0});
  const std::vector<float> b = rows(p, {0, 5});
  const std::vector<float> c = rows(p, {900});
  for (int k = 0; k < 33; ++k) {
    CHECK(a[0 * 33 + k] == b[1 * 33 + k]);  // row 5: bitwise the same
    CHECK(a[2 * 33 + k] == b[0 * 33 + k]);  // row 0
    CHECK(a[1 * 33 + k] == c[k]);           // row 900
  }
  // A repeated position gives the same row twice.
  const std::vector<float> twice = rows(p, {17, 17});
  for (int k = 0; k < 33; ++k) CHECK(twice[k] == twice[33 + k]);
}

TEST_CASE("learned rows differ between positions and between seeds") {
  const std::vector<float> a = rows(params(64, 1), {3, 4});
  const std::vector<float> b = rows(params(64, 2), {3});
  int sameRow = 0, sameSeed = 0;
  for (int k = 0; k < 64; ++k) {
    sameRow += a[k] == a[64 + k];
    sameSeed += a[k] == b[k];
  }
  CHECK(sameRow == 0);
  CHECK(sameSeed == 0);
}

TEST_CASE("learned entries look like N(0, std^2) with GPT-2's std 0.02") {
  // 8 rows x 8192 = 65536 draws. Mean: standard error 0.02 / 256 = 7.8e-5, allow 5 of them.
  // Std: relative standard error 1/sqrt(2 * 65536) = 0.28 %, allow 2 %.
  const posenc::LearnedParams p = params(8192, 123, 2048);
  const std::vector<float> t = rows(p, {0, 1, 2, 100, 1000, 1500, 2000, 2047});
  double sum = 0, sumSq = 0, maxAbs = 0;
  for (float v : t) {
    sum += v;
    sumSq += double(v) * v;
    maxAbs = std::max(maxAbs, std::fabs(double(v)));
  }
  const double n = double(t.size());
  const double mean = sum / n;
  const double sd = std::sqrt(sumSq / n - mean * mean);
  CHECK(std::fabs(mean) <= 5 * 0.02 / 256);
  CHECK(sd == doctest::Approx(0.02).epsilon(0.02));
  // Tails: |x| > 6 std has probability 2e-9 per draw; 65536 draws should not show one.
  CHECK(maxAbs < 6 * 0.02);
  CHECK(maxAbs > 3 * 0.02);  // but a normal sample this large does reach 3 std (p(miss) ~ 0)
}

TEST_CASE("learned scales with stdDev: std 0 gives zeros, std 1 gives unit spread") {
  const std::vector<float> zeros = rows(params(16, 3, 1024, 0.0), {0, 1});
  for (float v : zeros) CHECK(v == 0.0f);
  const std::vector<float> unit = rows(params(16, 3, 1024, 1.0), {0, 1});
  const std::vector<float> small = rows(params(16, 3, 1024, 0.02), {0, 1});
  for (size_t i = 0; i < unit.size(); ++i) {
    // Same draws, scaled: float rounding of two products, 1e-6 relative.
    CHECK(double(small[i]) == doctest::Approx(0.02 * unit[i]).epsilon(1e-6));
  }
}

TEST_CASE("learned with odd dModel fills every column") {
  const std::vector<float> t = rows(params(7, 9), {0, 1, 2, 3});
  int zeros = 0;
  for (float v : t) zeros += v == 0.0f;
  CHECK(zeros == 0);  // a continuous draw is never exactly 0
}

TEST_CASE("learned accepts the last row maxPositions - 1 and rejects maxPositions: past the learned table") {
  const posenc::LearnedParams p = params(4, 0, 512);  // BERT's 512 rows
  CHECK_NOTHROW(rows(p, {511}));
  const std::vector<double> past = {3, 512};
  std::vector<float> out(8, 42.0f);
  CHECK_THROWS_WITH_AS(posenc::learned(p, past.data(), 2, out.data()),
                       doctest::Contains("positions[1] = 512 is past the learned table"), RangeError);
  CHECK_THROWS_WITH_AS(posenc::checkLearned(p, past.data(), 2), doctest::Contains("maxPositions = 512"),
                       RangeError);
  for (float v : out) CHECK(v == 42.0f);  // checked before anything was written
}

TEST_CASE("learned rejects NaN, infinite, negative and fractional positions and names the index") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const posenc::LearnedParams p = params(4);
  for (double bad : {nan, inf, -inf, -1.0, 0.5}) {
    CAPTURE(bad);
    const std::vector<double> pos = {0, 1, bad};
    CHECK_THROWS_WITH_AS(posenc::checkLearned(p, pos.data(), 3),
                         doctest::Contains("positions[2] must be an integer >= 0"), RangeError);
  }
}

TEST_CASE("learned rejects bad maxPositions, dModel, seed and std and names them") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> pos = {0};
  {
    posenc::LearnedParams p = params(4);
    for (int bad : {0, -5, posenc::kMaxRows + 1}) {
      p.maxPositions = bad;
      CHECK_THROWS_WITH_AS(posenc::checkLearned(p, pos.data(), 1), doctest::Contains("maxPositions must be"),
                           RangeError);
    }
  }
  for (int bad : {0, -1, posenc::kMaxDim + 1}) {
    const posenc::LearnedParams p = params(bad);
    CHECK_THROWS_WITH_AS(posenc::checkLearned(p, pos.data(), 1), doctest::Contains("dModel must be"),
                         RangeError);
  }
  for (double bad : {nan, inf, -1.0, 0.5, 4294967296.0}) {
    CAPTURE(bad);
    const posenc::LearnedParams p = params(4, bad);
    CHECK_THROWS_WITH_AS(posenc::checkLearned(p, pos.data(), 1), doctest::Contains("seed must be an integer"),
                         RangeError);
  }
  CHECK_NOTHROW(posenc::checkLearned(params(4, 4294967295.0), pos.data(), 1));  // 2^32 - 1 is allowed
  for (double bad : {nan, inf, -inf, -0.01}) {
    CAPTURE(bad);
    const posenc::LearnedParams p = params(4, 1, 1024, bad);
    CHECK_THROWS_WITH_AS(posenc::checkLearned(p, pos.data(), 1), doctest::Contains("std must be a finite number"),
                         RangeError);
  }
}

TEST_CASE("learned rejects positions.length * dModel over kMaxElements before reading positions") {
  const posenc::LearnedParams p = params(8192, 1, posenc::kMaxRows);
  const std::vector<double> pos(4096, 0.0);  // 4096 * 8192 = 2^25 > 2^24
  CHECK_THROWS_WITH_AS(posenc::checkLearned(p, pos.data(), pos.size()),
                       doctest::Contains("positions.length * dModel must be at most"), RangeError);
}

}  // namespace learned_test
