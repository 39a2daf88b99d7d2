// Bindings: Shaw clipped indices, T5 buckets, ALiBi slopes and bias.
#include <emscripten/bind.h>

#include "core/alibi.hpp"
#include "core/limits.hpp"
#include "core/relative.hpp"
#include "wasm/bindings/args.hpp"

namespace posenc::js {
namespace {

val shawIndexJs(val q, val k, val d) {
  return guarded([&] {
    namespace f = api::shawIndex;
    const double ql = number(q, f::queryLength.name), kl = number(k, f::keyLength.name);
    const double md = number(d, f::maxDistance.name);
    requireInt(f::queryLength, ql);
    requireInt(f::keyLength, kl);
    requireInt(f::maxDistance, md);
    checkShaw(int(ql), int(kl), int(md));
    const size_t count = size_t(ql) * size_t(kl);
    auto out = uninitialized<int32_t>(count);
    shawIndex(int(ql), int(kl), int(md), out.get());
    return toInt32Array(out.get(), count);
  });
}

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

val alibiSlopesJs(val n) {
  return guarded([&] {
    const double heads = number(n, api::alibiSlopes::nHeads.name);
    requireInt(api::alibiSlopes::nHeads, heads);
    const std::vector<double> s = alibiSlopes(int(heads));
    return toFloat64Array(s.data(), s.size());
  });
}

val alibiBiasJs(val lengthArg, val slopeArg, val opts) {
  return guarded([&] {
    namespace f = api::alibiBias;
    const double length = number(lengthArg, f::length.name);
    const double slope = number(slopeArg, f::slope.name);
    const val o = options(opts, "options");
    const bool causal = boolOption(o, f::opt::causal);
    requireInt(f::length, length);
    checkAlibiBias(int(length), slope);
    const size_t count = size_t(length) * size_t(length);
    auto out = uninitialized<float>(count);
    alibiBias(int(length), slope, causal, out.get());
    return toFloat32Array(out.get(), count);
  });
}

}  // namespace
}  // namespace posenc::js

EMSCRIPTEN_BINDINGS(posenc_relative) {
  emscripten::function("shawIndex", &posenc::js::shawIndexJs);
  emscripten::function("t5Bucket", &posenc::js::t5BucketJs);
  emscripten::function("alibiSlopes", &posenc::js::alibiSlopesJs);
  emscripten::function("alibiBias", &posenc::js::alibiBiasJs);
}
