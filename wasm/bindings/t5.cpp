// Bindings: T5's relative position buckets (core/t5.hpp).
#include <emscripten/bind.h>

#include "core/limits.hpp"
#include "core/t5.hpp"
#include "wasm/bindings/args.hpp"

namespace posenc::js {
namespace {

val t5BucketJs(val rel, val opts) {
  return guarded([&] {
    namespace f = api::t5Bucket;
    const val o = options(opts, "options");
    T5Params p;
    p.bidirectional = boolOption(o, f::opt::bidirectional);
    const double nb = numberOption(o, f::opt::numBuckets);
    const double md = numberOption(o, f::opt::maxDistance);
    requireIntOption(f::opt::numBuckets, nb);  // (checkT5: at least 4 and even when bidirectional)
    requireIntOption(f::opt::maxDistance, md);
    p.numBuckets = int(nb);
    p.maxDistance = int(md);
    const std::vector<double> r = numbers(rel, f::relativePositions.name, size_t(kMaxElements));
    checkT5(p, r.data(), r.size());
    const size_t count = r.size();
    auto out = uninitialized<int32_t>(count);
    t5Bucket(r.data(), r.size(), p, out.get());
    return toInt32Array(out.get(), count);
  });
}

}  // namespace
}  // namespace posenc::js

EMSCRIPTEN_BINDINGS(posenc_t5) {
  emscripten::function("t5Bucket", &posenc::js::t5BucketJs);
}
