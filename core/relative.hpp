// Relative position schemes that index a learned table by the distance key - query.
//
// Shaw et al. 2018 (tensor2tensor _generate_relative_positions_matrix):
//   index[i][j] = clip(j - i, -k, k) + k, a table of 2k + 1 vectors. When there are fewer
//   queries than keys, the queries are the last qLen positions (query i sits at kLen - qLen + i).
//
// T5 (HF modeling_t5.py _relative_position_bucket, = mesh_tensorflow):
//   rp = key - query. Bidirectional: half the buckets per sign, +nb/2 when rp > 0, n = |rp|.
//   Causal: n = max(-rp, 0). n < nb/2 is its own bucket; beyond, buckets are log-spaced up to
//   maxDistance and capped at nb - 1.
#pragma once

#include <cstddef>
#include <cstdint>

namespace posenc {

void checkShaw(int qLen, int kLen, int maxDistance);
void shawIndex(int qLen, int kLen, int maxDistance, int32_t* out);  // qLen * kLen

struct T5Params {
  bool bidirectional = true;
  int numBuckets = 32;
  int maxDistance = 128;
};

void checkT5(const T5Params& p, const double* rel, size_t n);
int32_t t5BucketOne(int64_t relativePosition, const T5Params& p);
void t5Bucket(const double* rel, size_t n, const T5Params& p, int32_t* out);

}  // namespace posenc
