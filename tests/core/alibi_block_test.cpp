// core/alibi_block.hpp: one block of the ALiBi bias matrix for chosen query and key positions.
// Checked against the paper's form transcribed here, -m·(q - k) for k <= q and -Infinity after
// the query when causal (REFERENCES.md §4), and against core/alibi.hpp's full matrix, of which
// the block is a piece.
//
// Tolerance: 1e-7 relative, one float32 rounding of the double value (as alibi_test.cpp).

#include "core/alibi_block.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "core/alibi.hpp"
#include "core/errors.hpp"

namespace alibi_block_test {

using posenc::RangeError;

namespace {

const float kMinusInf = -std::numeric_limits<float>::infinity();

std::vector<float> block(const std::vector<double>& q, const std::vector<double>& k, double m, bool causal) {
  std::vector<float> out(q.size() * k.size());
  posenc::alibiBiasBlock(q.data(), q.size(), k.data(), k.size(), m, causal, out.data());
  return out;
}

std::vector<double> range(int from, int to) {  // from..to-1
  std::vector<double> out;
  for (int p = from; p < to; ++p) out.push_back(p);
  return out;
}

// The paper's bias for query q and key k: a penalty that grows linearly with the distance back
// to the key; keys after the query are masked in a decoder.
double paperBias(double m, double q, double k, bool causal) {
  if (k > q) return causal ? -INFINITY : -m * (k - q);
  return -m * (q - k);
}

}  // namespace

TEST_CASE("alibiBiasBlock of the last query of a 2048-token sequence is −m·(2047 − k) for every key") {
  const double m = 1.0 / 256;
  const std::vector<float> row = block({2047}, range(0, 2048), m, true);
  REQUIRE(row.size() == 2048);
  for (int k = 0; k < 2048; ++k) {
    CAPTURE(k);
    CHECK(row[k] == doctest::Approx(paperBias(m, 2047, k, true)).epsilon(1e-7));  // one float32 rounding
  }
  CHECK(row[2047] == 0.0f);
}

TEST_CASE("alibiBiasBlock with queries = keys = 0..n−1 equals alibiBias(n) exactly, causal or not") {
  for (bool causal : {true, false}) {
    for (double m : {0.5, std::pow(2.0, -0.5), 1.0 / 256}) {
      const int n = 13;
      std::vector<float> full(n * n);
      posenc::alibiBias(n, m, causal, full.data());
      const std::vector<float> b = block(range(0, n), range(0, n), m, causal);
      for (int e = 0; e < n * n; ++e) {
        CAPTURE(e);
        CHECK(b[e] == full[e]);
      }
    }
  }
}

TEST_CASE("alibiBiasBlock: a corner far down the sequence holds the same numbers as the top-left corner") {
  const double m = 1.0 / 16;
  const std::vector<float> top = block(range(0, 8), range(0, 8), m, true);
  const std::vector<float> far = block(range(3000, 3008), range(3000, 3008), m, true);
  for (size_t e = 0; e < top.size(); ++e) CHECK(far[e] == top[e]);
}

TEST_CASE("alibiBiasBlock takes positions in any order and masks keys after their query") {
  const double m = 0.125;
  const std::vector<double> q = {5, 0, 9};
  const std::vector<double> k = {9, 2, 5, 0, 7};
  for (bool causal : {true, false}) {
    const std::vector<float> b = block(q, k, m, causal);
    for (size_t r = 0; r < q.size(); ++r) {
      for (size_t c = 0; c < k.size(); ++c) {
        CAPTURE(r);
        CAPTURE(c);
        CAPTURE(causal);
        const double want = paperBias(m, q[r], k[c], causal);
        if (std::isinf(want)) {
          CHECK(b[r * k.size() + c] == kMinusInf);
        } else {
          CHECK(b[r * k.size() + c] == doctest::Approx(want).epsilon(1e-7));  // one float32 rounding
        }
      }
    }
  }
}

TEST_CASE("alibiBiasBlock with no queries or no keys is empty; slope 0 is all zeros below the mask") {
  CHECK(block({}, range(0, 4), 0.5, true).empty());
  CHECK(block(range(0, 4), {}, 0.5, true).empty());
  const std::vector<float> z = block(range(0, 4), range(0, 4), 0.0, true);
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) CHECK(z[i * 4 + j] == (j > i ? kMinusInf : 0.0f));
  }
}

TEST_CASE("alibiBiasBlock rejects bad positions and slopes with a RangeError naming them") {
  float out[4];
  const double nan = std::nan("");
  const double inf = std::numeric_limits<double>::infinity();
  const double ok[2] = {0, 1};
  for (double bad : {-1.0, 0.5, nan, inf, 2147483648.0}) {
    CAPTURE(bad);
    const double p[2] = {0, bad};
    CHECK_THROWS_WITH_AS(posenc::alibiBiasBlock(p, 2, ok, 2, 0.5, true, out),
                         doctest::Contains("queries[1] must be an integer in [0, 2147483647]"), RangeError);
    CHECK_THROWS_WITH_AS(posenc::alibiBiasBlock(ok, 2, p, 2, 0.5, true, out),
                         doctest::Contains("keys[1] must be an integer in [0, 2147483647]"), RangeError);
  }
  for (double bad : {-0.5, nan, inf, -inf, 2e6}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH_AS(posenc::alibiBiasBlock(ok, 2, ok, 2, bad, true, out),
                         doctest::Contains("slope must be a finite number in [0, 1000000]"), RangeError);
  }
  // 2^12 × 2^13 entries is over the 2^24 cap: refused before anything is written.
  std::vector<double> many(1 << 13, 0.0);
  CHECK_THROWS_WITH_AS(posenc::alibiBiasBlock(many.data(), 1 << 12, many.data(), 1 << 13, 0.5, true, nullptr),
                       doctest::Contains("queries.length * keys.length must be at most 16777216"), RangeError);
}

}  // namespace alibi_block_test
