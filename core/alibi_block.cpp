#include "alibi_block.hpp"

#include <cmath>
#include <cstdint>
#include <string>

#include "errors.hpp"
#include "limits.hpp"

namespace posenc {
namespace {

void checkPositions(const char* name, const double* p, size_t n) {
  requireInt((std::string(name) + ".length").c_str(), double(n), 0, kMaxRows);
  for (size_t i = 0; i < n; ++i) {
    if (!(std::isfinite(p[i]) && p[i] == std::floor(p[i]) && p[i] >= 0 && p[i] <= kMaxPosition)) {
      throw RangeError(std::string(name) + "[" + std::to_string(i) +
                       "] must be an integer in [0, " + detail::fmt(kMaxPosition) + "], got " +
                       detail::fmt(p[i]));
    }
  }
}

}  // namespace

void checkAlibiBiasBlock(const double* queries, size_t queryCount, const double* keys,
                         size_t keyCount, double slope) {
  checkPositions("queries", queries, queryCount);
  checkPositions("keys", keys, keyCount);
  if (int64_t(queryCount) * int64_t(keyCount) > kMaxElements) {
    throw RangeError("queries.length * keys.length must be at most " +
                     std::to_string(kMaxElements) + ", got " +
                     std::to_string(int64_t(queryCount) * int64_t(keyCount)));
  }
  requireReal("slope", slope, 0.0, 1e6);
}

void alibiBiasBlock(const double* queries, size_t queryCount, const double* keys, size_t keyCount,
                    double slope, bool causal, float* out) {
  checkAlibiBiasBlock(queries, queryCount, keys, keyCount, slope);
  for (size_t r = 0; r < queryCount; ++r) {
    const double q = queries[r];
    float* row = out + r * keyCount;
    for (size_t c = 0; c < keyCount; ++c) {
      const double k = keys[c];
      // Distances are exact in double (positions < 2^31); one rounding to float at the end,
      // as in alibiBias.
      row[c] = (causal && k > q) ? -INFINITY : static_cast<float>(-slope * std::fabs(q - k));
    }
  }
}

}  // namespace posenc
