#include "shaw.hpp"

#include <algorithm>
#include <cstddef>
#include <string>

#include "errors.hpp"
#include "limits.hpp"

namespace posenc {

void checkShaw(int qLen, int kLen, int maxDistance) {
  requireInt("queryLength", qLen, 0, kMaxRows);
  requireInt("keyLength", kLen, 0, kMaxRows);
  requireInt("maxDistance", maxDistance, 0, kMaxDistance);
  if (qLen > kLen) {
    throw RangeError("queryLength must be at most keyLength (the queries are the last positions), got " +
                     std::to_string(qLen) + " > " + std::to_string(kLen));
  }
  if (int64_t(qLen) * kLen > kMaxElements) {
    throw RangeError("queryLength * keyLength must be at most " + std::to_string(kMaxElements));
  }
}

void shawIndex(int qLen, int kLen, int k, int32_t* out) {
  checkShaw(qLen, kLen, k);
  const int shift = kLen - qLen;
  for (int i = 0; i < qLen; ++i) {
    for (int j = 0; j < kLen; ++j) {
      out[size_t(i) * kLen + j] = std::clamp(j - (i + shift), -k, k) + k;
    }
  }
}

}  // namespace posenc
