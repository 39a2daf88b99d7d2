#include "learned.hpp"

#include <cmath>
#include <string>

#include "errors.hpp"
#include "limits.hpp"
#include "splitmix64.hpp"

namespace posenc {

void checkLearned(const LearnedParams& p, const double* positions, size_t rows) {
  requireInt("maxPositions", p.maxPositions, 1, kMaxRows);
  requireInt("dModel", p.dModel, 1, kMaxDim);
  requireInt("seed", p.seed, 0, 4294967295.0);
  requireReal("std", p.stdDev, 0.0, 1e3);
  requireInt("positions.length", double(rows), 0, kMaxRows);
  if (int64_t(rows) * p.dModel > kMaxElements) {
    throw RangeError("positions.length * dModel must be at most " + std::to_string(kMaxElements));
  }
  for (size_t r = 0; r < rows; ++r) {
    const double pos = positions[r];
    if (!(std::isfinite(pos) && pos == std::floor(pos) && pos >= 0)) {
      throw RangeError("positions[" + std::to_string(r) + "] must be an integer >= 0, got " +
                       detail::fmt(pos));
    }
    if (pos >= p.maxPositions) {
      throw RangeError("positions[" + std::to_string(r) + "] = " + detail::fmt(pos) +
                       " is past the learned table, which has rows 0.." +
                       std::to_string(p.maxPositions - 1) + " (maxPositions = " +
                       std::to_string(p.maxPositions) + ")");
    }
  }
}

void learned(const LearnedParams& p, const double* positions, size_t rows, float* out) {
  checkLearned(p, positions, rows);
  for (size_t r = 0; r < rows; ++r) {
    SplitMix64 g{(uint64_t(p.seed) << 32) ^ uint64_t(positions[r]) * 0xD1B54A32D192ED03ull};
    float* row = out + r * p.dModel;
    for (int c = 0; c < p.dModel; c += 2) {
      // Box-Muller: two normals from two uniforms.
      const double u1 = 1.0 - g.uniform(), u2 = g.uniform();
      const double rad = std::sqrt(-2.0 * std::log(u1)) * p.stdDev;
      row[c] = static_cast<float>(rad * std::cos(2 * M_PI * u2));
      if (c + 1 < p.dModel) row[c + 1] = static_cast<float>(rad * std::sin(2 * M_PI * u2));
    }
  }
}

}  // namespace posenc
