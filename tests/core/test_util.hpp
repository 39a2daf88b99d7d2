// Helpers shared by the core tests (header only; CMake compiles tests/core/*.cpp).
//
//   Rng        a tiny deterministic generator. std::uniform_real_distribution is implementation
//              defined, so libstdc++ (native) and libc++ (wasm) would draw different samples;
//              this one draws the same numbers in every build.
//   relApprox  doctest::Approx that is purely relative for non-zero references (doctest's
//              default adds 1 to the scale, which makes an epsilon absolute for small values).
//   MaxError   running maximum of |got - want| (or relative) with a number saying where it
//              happened (an angle, a length...), for sweeps that end in one CHECK instead of
//              thousands.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

namespace posenc_test {

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed * 2 + 1) {}

  uint64_t next() {
    // 64-bit LCG (Knuth's MMIX constants) with an xor-shift-multiply output mix.
    state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t z = state_;
    z ^= z >> 31;
    z *= 0x9E3779B97F4A7C15ull;
    z ^= z >> 29;
    return z;
  }
  double uniform() { return double(next() >> 11) * 0x1.0p-53; }  // [0, 1)
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  int below(int n) { return int(next() % uint64_t(n)); }        // [0, n)
  // Log-uniform in [lo, hi): frequencies span decades, a uniform draw would miss the small ones.
  double logUniform(double lo, double hi) { return lo * std::exp(std::log(hi / lo) * uniform()); }

 private:
  uint64_t state_;
};

inline doctest::Approx relApprox(double want, double eps) {
  doctest::Approx a(want);
  a.epsilon(eps);
  if (want != 0) a.scale(0);
  return a;
}

struct MaxError {
  double value = 0;
  double where = NAN;
  void add(double got, double want, double at = NAN) {
    if (std::isnan(value)) return;  // a NaN already recorded stays: the final CHECK must fail
    const double e = std::fabs(got - want);
    if (!(e <= value)) {  // also records a NaN, which must fail the final CHECK
      value = e;
      where = at;
    }
  }
  void addRel(double got, double want, double at = NAN) {
    if (std::isnan(value)) return;
    const double e = std::fabs(got - want) / std::fabs(want);
    if (!(e <= value)) {
      value = e;
      where = at;
    }
  }
};

}  // namespace posenc_test
