// core/shaw.hpp: Shaw et al. 2018 relative indices (tensorflow/tensor2tensor
// layers/common_attention.py _generate_relative_positions_matrix), transcribed below.
// Every output is an integer: all comparisons are exact.

#include "core/shaw.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/errors.hpp"
#include "core/limits.hpp"

namespace shaw_test {

using posenc::RangeError;

namespace {

// [SECTION] tensor2tensor _generate_relative_positions_matrix (cache=False) -------------------

std::vector<int32_t> t2tRelativePositions(int lengthQ, int lengthK, int maxRelativePosition) {
  std::vector<int> rangeVecK(lengthK);
  for (int j = 0; j < lengthK; ++j) rangeVecK[j] = j;
  // range_vec_q = range_vec_k[-length_q:]  (the last lengthQ key positions)
  const std::vector<int> rangeVecQ(rangeVecK.end() - lengthQ, rangeVecK.end());
  std::vector<int32_t> out;
  for (int i = 0; i < lengthQ; ++i) {
    for (int j = 0; j < lengthK; ++j) {
      const int distance = rangeVecK[j] - rangeVecQ[i];
      const int clipped = std::min(std::max(distance, -maxRelativePosition), maxRelativePosition);
      out.push_back(clipped + maxRelativePosition);
    }
  }
  return out;
}

std::vector<int32_t> shaw(int q, int k, int maxDistance) {
  std::vector<int32_t> out(size_t(q) * k, -1);
  posenc::shawIndex(q, k, maxDistance, out.data());
  return out;
}

}  // namespace

// [SECTION] Shaw ------------------------------------------------------------------------------

TEST_CASE("shawIndex is tensor2tensor's clip(j − i, −k, k) + k for square shapes") {
  for (int len : {0, 1, 2, 5, 17, 64}) {
    for (int k : {0, 1, 3, 20, 100}) {
      CAPTURE(len);
      CAPTURE(k);
      CHECK(shaw(len, len, k) == t2tRelativePositions(len, len, k));
    }
  }
}

TEST_CASE("shawIndex with fewer queries than keys places the queries at the last key positions") {
  // 3 queries, 7 keys, k = 2: query 0 sits at position 4.
  const std::vector<int32_t> got = shaw(3, 7, 2);
  const std::vector<int32_t> row0 = {0, 0, 0, 1, 2, 3, 4};  // j − 4 = −4..2, clipped to −2..2, + 2
  const std::vector<int32_t> row2 = {0, 0, 0, 0, 0, 1, 2};  // j − 6
  CHECK(std::vector<int32_t>(got.begin(), got.begin() + 7) == row0);
  CHECK(std::vector<int32_t>(got.begin() + 14, got.end()) == row2);
  for (int q = 0; q <= 9; ++q) {
    for (int kl : {q, q + 1, q + 7, 40}) {
      for (int k : {0, 2, 20}) {
        CAPTURE(q);
        CAPTURE(kl);
        CAPTURE(k);
        CHECK(shaw(q, kl, k) == t2tRelativePositions(q, kl, k));
      }
    }
  }
}

TEST_CASE("shawIndex with transformer_relative's k = 20 spans the 41-entry table") {
  const std::vector<int32_t> got = shaw(64, 64, 20);
  CHECK(got == t2tRelativePositions(64, 64, 20));
  CHECK(*std::min_element(got.begin(), got.end()) == 0);
  CHECK(*std::max_element(got.begin(), got.end()) == 40);
  CHECK(got[10 * 64 + 10] == 20);  // the diagonal is distance 0 -> index k
}

TEST_CASE("shawIndex rejects more queries than keys, negative sizes and distances over kMaxDistance") {
  std::vector<int32_t> out(64, -1);
  CHECK_THROWS_WITH_AS(posenc::shawIndex(5, 4, 2, out.data()),
                       doctest::Contains("queryLength must be at most keyLength"), RangeError);
  CHECK_THROWS_WITH_AS(posenc::checkShaw(-1, 4, 2), doctest::Contains("queryLength must be an integer"), RangeError);
  CHECK_THROWS_WITH_AS(posenc::checkShaw(1, -4, 2), doctest::Contains("keyLength must be an integer"), RangeError);
  CHECK_THROWS_WITH_AS(posenc::checkShaw(1, 4, -2), doctest::Contains("maxDistance must be an integer"), RangeError);
  CHECK_THROWS_WITH_AS(posenc::checkShaw(1, 4, int(posenc::kMaxDistance) + 1), doctest::Contains("maxDistance"),
                       RangeError);
  CHECK_THROWS_WITH_AS(posenc::checkShaw(posenc::kMaxRows + 1, posenc::kMaxRows + 1, 2),
                       doctest::Contains("queryLength must be an integer"), RangeError);
  CHECK_THROWS_WITH_AS(posenc::checkShaw(5000, 5000, 2), doctest::Contains("queryLength * keyLength must be at most"),
                       RangeError);  // 25e6 > 2^24
  for (int32_t v : out) CHECK(v == -1);  // nothing written by the rejected call
}

}  // namespace shaw_test
