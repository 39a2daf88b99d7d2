// SplitMix64: the one seeded generator of the core's stand-ins (learned tables, the learned
// vision grid, Transformer-XL's example vectors). Small and well mixed; each caller derives one
// stream per (seed, row/purpose) so a value never depends on what else was asked for. The tests
// transcribe it bit for bit, so it must not change.
#pragma once

#include <cstdint>

namespace posenc {

struct SplitMix64 {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return (next() >> 11) * 0x1.0p-53; }  // [0, 1)
};

}  // namespace posenc
