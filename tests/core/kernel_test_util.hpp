// Helpers shared by the kernel tests (trig_test.cpp, softmax_test.cpp, matmul_test.cpp):
// guard values after each output catch writes past the end, and the inputs the families
// produce (frequencies from 1 down to 1e-7 and a few above, integer, fractional and small
// positions).
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

#include "test_util.hpp"

namespace posenc_test {

constexpr float kGuard = 12345.0f;
constexpr double kU = 0x1.0p-24;  // float32 unit roundoff

// Frequencies as the families produce them: 1 and the decades below (sinusoidal, RoPE up to
// base 1e7), plus a few above 1 (longrope with factors below 1).
inline std::vector<double> randomFrequencies(Rng& rng, size_t n) {
  std::vector<double> f(n);
  for (double& v : f) v = rng.below(8) == 0 ? 1.0 : rng.logUniform(1e-7, 4.0);
  return f;
}

inline double randomPosition(Rng& rng) {
  switch (rng.below(3)) {
    case 0: return std::floor(rng.uniform(0, 100001));  // integer positions, the usual case
    case 1: return rng.uniform(0, 1e5);                 // fractional (interpolated) positions
    default: return double(rng.below(64));              // small ones, exact quadrant edges
  }
}

inline std::vector<float> guarded(size_t n, float fill = 0.0f) { return std::vector<float>(n + 4, fill); }

inline bool guardIntact(const std::vector<float>& v, size_t n) {
  for (size_t i = n; i < v.size(); ++i)
    if (v[i] != kGuard) return false;
  return true;
}

inline void setGuard(std::vector<float>& v, size_t n) {
  for (size_t i = n; i < v.size(); ++i) v[i] = kGuard;
}

}  // namespace posenc_test
