// T5's relative position buckets (HF modeling_t5.py _relative_position_bucket, = mesh_tensorflow):
//   rp = key - query. Bidirectional: half the buckets per sign, +nb/2 when rp > 0, n = |rp|.
//   Causal: n = max(-rp, 0). n < nb/2 is its own bucket; beyond, buckets are log-spaced up to
//   maxDistance and capped at nb - 1.
// The family that adds one learned scalar per bucket is core/families/t5.hpp.
#pragma once

#include <cstddef>
#include <cstdint>

namespace posenc {

struct T5Params {
  bool bidirectional = true;
  int numBuckets = 32;
  int maxDistance = 128;
};

void checkT5(const T5Params& p, const double* rel, size_t n);
int32_t t5BucketOne(int64_t relativePosition, const T5Params& p);
void t5Bucket(const double* rel, size_t n, const T5Params& p, int32_t* out);

}  // namespace posenc
