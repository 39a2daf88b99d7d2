#include "t5.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "errors.hpp"
#include "limits.hpp"

namespace posenc {

void checkT5(const T5Params& p, const double* rel, size_t n) {
  requireInt("numBuckets", p.numBuckets, p.bidirectional ? 4 : 2, kMaxBuckets);
  if (p.bidirectional) requireEven("numBuckets", p.numBuckets);
  const int exact = (p.bidirectional ? p.numBuckets / 2 : p.numBuckets) / 2;
  // log(maxDistance / exact) is the denominator: it must be positive.
  requireInt("maxDistance", p.maxDistance, exact + 1, kMaxDistance);
  requireInt("relativePositions.length", double(n), 0, kMaxElements);
  for (size_t i = 0; i < n; ++i) {
    const double v = rel[i];
    if (!(std::isfinite(v) && v == std::floor(v) && std::fabs(v) <= kMaxPosition)) {
      throw RangeError("relativePositions[" + std::to_string(i) +
                       "] must be an integer in [-2147483647, 2147483647], got " + detail::fmt(v));
    }
  }
}

int32_t t5BucketOne(int64_t rp, const T5Params& p) {
  int nb = p.numBuckets;
  int32_t bucket = 0;
  int64_t n;
  if (p.bidirectional) {
    nb /= 2;
    if (rp > 0) bucket += nb;
    n = rp < 0 ? -rp : rp;
  } else {
    n = std::max<int64_t>(-rp, 0);
  }
  const int exact = nb / 2;
  if (n < exact) return bucket + int32_t(n);
  // n >= exact >= 1 here, so the logarithm is finite (log(0) lies on the other branch).
  // On an exact boundary (n / exact a whole power of the step) the quotient can come out a hair
  // below the integer, e.g. ln 2 / ln 32 * 5 = 0.9999999999999999; HF's float32 lands on it.
  // Snap such near-integers before flooring.
  const double q = std::log(double(n) / exact) / std::log(double(p.maxDistance) / exact) * (nb - exact);
  const double nearest = std::round(q);
  const double steps = std::fabs(q - nearest) <= 1e-9 * std::max(1.0, q) ? nearest : std::floor(q);
  const double large = exact + steps;
  return bucket + int32_t(std::min(large, double(nb - 1)));
}

void t5Bucket(const double* rel, size_t n, const T5Params& p, int32_t* out) {
  checkT5(p, rel, n);
  for (size_t i = 0; i < n; ++i) out[i] = t5BucketOne(int64_t(rel[i]), p);
}

}  // namespace posenc
