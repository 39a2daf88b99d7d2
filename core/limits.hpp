// Size caps. They keep every call inside the wasm memory maximum (1 GiB) with room to spare,
// so an absurd request fails with a RangeError instead of an out-of-memory abort.
#pragma once

#include <cstdint>

namespace posenc {

constexpr int kMaxDim = 8192;                         // d_model or head dim
constexpr int kMaxRows = 1 << 20;                     // positions, query or key rows
constexpr int64_t kMaxElements = int64_t(1) << 24;    // floats in one result (64 MiB)
constexpr double kMaxPosition = 2147483647.0;         // positions are int32 >= 0
constexpr double kMaxBase = 1e12;                     // rope / sinusoid base
constexpr int kMaxHeads = 4096;                       // ALiBi heads
constexpr int kMaxBuckets = 4096;                     // T5 buckets
constexpr double kMaxDistance = 1 << 24;              // T5 / Shaw distances
constexpr double kMaxFactor = 1e6;                    // rope scaling factors

}  // namespace posenc
