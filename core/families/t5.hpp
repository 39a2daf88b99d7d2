// T5's relative bias (Raffel et al. 2020): one trainable scalar per head and bucket, the bucket
// of the offset key - query from core/t5.hpp (HF's _relative_position_bucket): exact
// distances for the first half of the buckets, log-spaced up to maxDistance for the rest, every
// farther distance sharing the last bucket. One direction when causal (a decoder), both
// otherwise (an encoder).
#pragma once

#include <cmath>
#include <vector>

#include "core/families/family.hpp"
#include "core/t5.hpp"

namespace posenc::families {

struct T5 : FamilyBase {
  static constexpr const char* kName = "t5";
  static constexpr bool kBiases = true;

  // heads x numBuckets, drawn as HF's T5 draws relative_attention_bias: N(0, 1/dModel).
  static std::vector<TensorSpec> tensors(const FamilyShape& s) {
    return {{"position.bias", s.heads, s.numBuckets, 1.0 / std::sqrt(double(s.dModel))}};
  }

  static T5Params buckets(const FamilyShape& s) {
    T5Params t;
    t.bidirectional = !s.causal;
    t.numBuckets = s.numBuckets;
    t.maxDistance = s.maxDistance;
    return t;
  }

  // fixed: the bucket of every offset -(maxPositions-1)..maxPositions-1 (small integers, exact in T).
  template <class T>
  static void prepare(const FamilyShape& s, std::vector<T>& fixed) {
    const T5Params t = buckets(s);
    const int n = s.maxPositions;
    fixed.resize(size_t(2 * n - 1));
    for (int o = -(n - 1); o <= n - 1; ++o) fixed[size_t(o + n - 1)] = T(t5BucketOne(o, t));
  }

  template <class T>
  static void bias(const FamilyShape& s, const T* params, const std::vector<T>& fixed, int head, int length,
                   T* out) {
    const T* row = params + size_t(head) * size_t(s.numBuckets);
    const int n = s.maxPositions;
    for (int o = -(length - 1); o <= length - 1; ++o) out[o + length - 1] = row[int(fixed[size_t(o + n - 1)])];
  }

  template <class T>
  static void biasBackward(const FamilyShape& s, const std::vector<T>& fixed, const T* dOut, int head,
                           int length, T* dParams) {
    T* row = dParams + size_t(head) * size_t(s.numBuckets);
    const int n = s.maxPositions;
    for (int o = -(length - 1); o <= length - 1; ++o) row[int(fixed[size_t(o + n - 1)])] += dOut[o + length - 1];
  }
};

}  // namespace posenc::families
