// core/t5.hpp: T5 buckets (HF models/t5/modeling_t5.py _relative_position_bucket =
// mesh_tensorflow), transcribed below in float64 and in float32 as torch evaluates it.
// Every output is an integer: all comparisons are exact.

#include "core/t5.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/errors.hpp"
#include "core/limits.hpp"

namespace t5_test {

using posenc::RangeError;
using posenc::T5Params;

namespace {

// [SECTION] HF _relative_position_bucket, in float64 and in float32 like torch ----------------

// float64: the branch that is taken is the only one evaluated (no log(0), no -inf cast).
int64_t hfBucket(int64_t relativePosition, bool bidirectional, int numBuckets, int maxDistance) {
  int64_t relativeBuckets = 0;
  if (bidirectional) {
    numBuckets /= 2;
    relativeBuckets += relativePosition > 0 ? numBuckets : 0;
    relativePosition = relativePosition < 0 ? -relativePosition : relativePosition;
  } else {
    relativePosition = -std::min<int64_t>(relativePosition, 0);
  }
  const int64_t maxExact = numBuckets / 2;
  if (relativePosition < maxExact) return relativeBuckets + relativePosition;
  int64_t large = maxExact + int64_t(std::log(double(relativePosition) / maxExact) /
                                     std::log(double(maxDistance) / maxExact) * (numBuckets - maxExact));
  large = std::min<int64_t>(large, numBuckets - 1);
  return relativeBuckets + large;
}

// float32 mimic of the torch graph: relative_position.float() / max_exact (float32),
// torch.log (float32), / math.log(max_distance / max_exact) (a Python double scalar applied to a
// float32 tensor: float32 arithmetic), * (num_buckets - max_exact), .to(torch.long) (truncation).
int64_t torchFloat32Bucket(int64_t relativePosition, bool bidirectional, int numBuckets, int maxDistance) {
  int64_t relativeBuckets = 0;
  if (bidirectional) {
    numBuckets /= 2;
    relativeBuckets += relativePosition > 0 ? numBuckets : 0;
    relativePosition = relativePosition < 0 ? -relativePosition : relativePosition;
  } else {
    relativePosition = -std::min<int64_t>(relativePosition, 0);
  }
  const int64_t maxExact = numBuckets / 2;
  if (relativePosition < maxExact) return relativeBuckets + relativePosition;
  const float ratio = float(relativePosition) / float(maxExact);
  const float logRatio = std::log(ratio);  // float overload
  const float scaled = logRatio / float(std::log(double(maxDistance) / maxExact)) * float(numBuckets - maxExact);
  int64_t large = maxExact + int64_t(scaled);
  large = std::min<int64_t>(large, numBuckets - 1);
  return relativeBuckets + large;
}

int32_t bucket(int64_t rp, bool bidirectional, int numBuckets = 32, int maxDistance = 128) {
  T5Params p;
  p.bidirectional = bidirectional;
  p.numBuckets = numBuckets;
  p.maxDistance = maxDistance;
  return posenc::t5BucketOne(rp, p);
}

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

}  // namespace

// [SECTION] T5 ---------------------------------------------------------------------------------

TEST_CASE("t5Bucket default bidirectional (32 buckets, max distance 128) matches HF on rp −300..300") {
  for (int64_t rp = -300; rp <= 300; ++rp) {
    CAPTURE(rp);
    CHECK(bucket(rp, true) == hfBucket(rp, true, 32, 128));
  }
}

TEST_CASE("t5Bucket default causal (32 buckets, max distance 128) matches HF on rp −300..300") {
  for (int64_t rp = -300; rp <= 300; ++rp) {
    CAPTURE(rp);
    CHECK(bucket(rp, false) == hfBucket(rp, false, 32, 128));
  }
}

TEST_CASE("t5 default bidirectional buckets of rp = −16, −32, −64 are 10, 12, 14 (exact log boundaries)") {
  // log(n/8) / log(16) * 8 is exactly 2, 4, 6 at n = 16, 32, 64: a floor that slipped to 1.999…
  // would give 9, 11, 13.
  CHECK(bucket(-16, true) == 10);
  CHECK(bucket(-32, true) == 12);
  CHECK(bucket(-64, true) == 14);
  CHECK(bucket(16, true) == 26);  // + 16 for rp > 0
  CHECK(bucket(32, true) == 28);
  CHECK(bucket(64, true) == 30);
  // One step inside each boundary.
  CHECK(bucket(-15, true) == 9);
  CHECK(bucket(-31, true) == 11);
  CHECK(bucket(-63, true) == 13);
  CHECK(bucket(15, true) == 25);
  // Exact region and the cap.
  CHECK(bucket(0, true) == 0);
  CHECK(bucket(-1, true) == 1);
  CHECK(bucket(1, true) == 17);
  CHECK(bucket(-7, true) == 7);
  CHECK(bucket(-8, true) == 8);
  CHECK(bucket(-127, true) == 15);
  CHECK(bucket(-128, true) == 15);  // 8 + 8 = 16, capped at 15
  CHECK(bucket(128, true) == 31);
}

TEST_CASE("t5 default causal buckets at rp = −16, −32, −64, −128 are 16, 21, 26, 31; future keys are bucket 0") {
  // Causal: 32 buckets, 16 exact; n = 32: 16 + floor(log 2 / log 8 * 16) = 16 + 5.
  CHECK(bucket(-15, false) == 15);
  CHECK(bucket(-16, false) == 16);
  CHECK(bucket(-32, false) == 21);
  CHECK(bucket(-64, false) == 26);
  CHECK(bucket(-128, false) == 31);
  CHECK(bucket(-1000, false) == 31);
  for (int64_t rp : {0, 1, 16, 32, 64, 1000}) {
    CAPTURE(rp);
    CHECK(bucket(rp, false) == 0);  // n = max(−rp, 0) = 0
  }
}

TEST_CASE("t5 float32 (torch) and float64 buckets agree on rp −300..300 with the defaults") {
  for (bool bidirectional : {true, false}) {
    for (int64_t rp = -300; rp <= 300; ++rp) {
      CAPTURE(bidirectional);
      CAPTURE(rp);
      CHECK(torchFloat32Bucket(rp, bidirectional, 32, 128) == hfBucket(rp, bidirectional, 32, 128));
    }
  }
}

TEST_CASE("t5Bucket matches HF for other bucket counts and distances (8..128 buckets, distance up to 1000)") {
  for (bool bidirectional : {true, false}) {
    for (int nb : {4, 8, 16, 32, 64, 128}) {
      for (int maxDistance : {128, 256, 1000}) {
        const int exact = (bidirectional ? nb / 2 : nb) / 2;
        if (maxDistance <= exact) continue;
        for (int64_t rp = -1500; rp <= 1500; rp += 1) {
          if (bucket(rp, bidirectional, nb, maxDistance) != hfBucket(rp, bidirectional, nb, maxDistance)) {
            CAPTURE(bidirectional);
            CAPTURE(nb);
            CAPTURE(maxDistance);
            CAPTURE(rp);
            CHECK(bucket(rp, bidirectional, nb, maxDistance) == hfBucket(rp, bidirectional, nb, maxDistance));
          }
        }
        CHECK(true);  // one assertion per configuration: the sweep above only reports mismatches
      }
    }
  }
}

TEST_CASE("t5Bucket caps the largest distances at numBuckets − 1 (rp = ±(2^31 − 1))") {
  const std::vector<double> rel = {-2147483647.0, 2147483647.0};
  std::vector<int32_t> out(2);
  T5Params p;
  posenc::t5Bucket(rel.data(), rel.size(), p, out.data());
  CHECK(out[0] == 15);
  CHECK(out[1] == 31);
  p.bidirectional = false;
  posenc::t5Bucket(rel.data(), rel.size(), p, out.data());
  CHECK(out[0] == 31);
  CHECK(out[1] == 0);
}

TEST_CASE("t5Bucket over an array equals t5BucketOne element by element") {
  std::vector<double> rel;
  for (int rp = -200; rp <= 200; rp += 3) rel.push_back(rp);
  std::vector<int32_t> out(rel.size());
  T5Params p;
  p.numBuckets = 64;
  p.maxDistance = 256;
  posenc::t5Bucket(rel.data(), rel.size(), p, out.data());
  for (size_t i = 0; i < rel.size(); ++i) CHECK(out[i] == posenc::t5BucketOne(int64_t(rel[i]), p));
}

TEST_CASE("t5Bucket rejects NaN, infinite, fractional or out-of-int32 relative positions and names the index") {
  T5Params p;
  for (double bad : {kNaN, kInf, -kInf, 0.5, -2147483648.5, 4294967296.0}) {
    CAPTURE(bad);
    const std::vector<double> rel = {0, bad};
    std::vector<int32_t> out(2, -1);
    CHECK_THROWS_WITH_AS(posenc::t5Bucket(rel.data(), rel.size(), p, out.data()),
                         doctest::Contains("relativePositions[1] must be an integer"), RangeError);
    CHECK(out[0] == -1);  // checked before anything is written
  }
}

TEST_CASE("t5Bucket rejects odd or too few buckets, too many buckets and a maxDistance inside the exact range") {
  const std::vector<double> rel = {0};
  T5Params p;
  p.numBuckets = 31;  // bidirectional splits the buckets in two
  CHECK_THROWS_WITH_AS(posenc::checkT5(p, rel.data(), 1), doctest::Contains("numBuckets must be even"), RangeError);
  p.numBuckets = 2;
  CHECK_THROWS_WITH_AS(posenc::checkT5(p, rel.data(), 1), doctest::Contains("numBuckets must be an integer in [4, 4096]"),
                       RangeError);
  p.numBuckets = posenc::kMaxBuckets + 2;
  CHECK_THROWS_WITH_AS(posenc::checkT5(p, rel.data(), 1), doctest::Contains("numBuckets"), RangeError);
  p.bidirectional = false;
  p.numBuckets = 1;
  CHECK_THROWS_WITH_AS(posenc::checkT5(p, rel.data(), 1), doctest::Contains("numBuckets must be an integer in [2, 4096]"),
                       RangeError);
  p.numBuckets = 31;  // odd is fine when causal
  p.maxDistance = 128;
  CHECK_NOTHROW(posenc::checkT5(p, rel.data(), 1));
  // maxDistance must exceed max_exact, or log(maxDistance / max_exact) <= 0 divides by zero.
  p.bidirectional = true;
  p.numBuckets = 32;
  p.maxDistance = 8;
  CHECK_THROWS_WITH_AS(posenc::checkT5(p, rel.data(), 1), doctest::Contains("maxDistance must be an integer in [9,"),
                       RangeError);
  p.maxDistance = int(posenc::kMaxDistance) + 1;
  CHECK_THROWS_WITH_AS(posenc::checkT5(p, rel.data(), 1), doctest::Contains("maxDistance"), RangeError);
}

}  // namespace t5_test
