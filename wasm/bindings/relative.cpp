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
    const double ql = number(q, "queryLength"), kl = number(k, "keyLength");
    const double md = number(d, "maxDistance");
    requireInt("queryLength", ql, 0, kMaxRows);
    requireInt("keyLength", kl, 0, kMaxRows);
    requireInt("maxDistance", md, 0, kMaxDistance);
    checkShaw(int(ql), int(kl), int(md));
    const size_t count = size_t(ql) * size_t(kl);
    auto out = uninitialized<int32_t>(count);
    shawIndex(int(ql), int(kl), int(md), out.get());
    return toInt32Array(out.get(), count);
  });
}

val t5BucketJs(val rel, val opts) {
  return guarded([&] {
    const val o = options(opts, "options");
    T5Params p;
    p.bidirectional = boolOption(o, "bidirectional", true, "options.bidirectional");
    const double nb = numberOption(o, "numBuckets", 32, "options.numBuckets");
    const double md = numberOption(o, "maxDistance", 128, "options.maxDistance");
    requireInt("numBuckets", nb, p.bidirectional ? 4 : 2, kMaxBuckets);
    requireInt("maxDistance", md, 1, kMaxDistance);
    p.numBuckets = int(nb);
    p.maxDistance = int(md);
    const std::vector<double> r = numbers(rel, "relativePositions", size_t(kMaxElements));
    checkT5(p, r.data(), r.size());
    const size_t count = r.size();
    auto out = uninitialized<int32_t>(count);
    t5Bucket(r.data(), r.size(), p, out.get());
    return toInt32Array(out.get(), count);
  });
}

val alibiSlopesJs(val n) {
  return guarded([&] {
    const double heads = number(n, "nHeads");
    requireInt("nHeads", heads, 1, kMaxHeads);
    const std::vector<double> s = alibiSlopes(int(heads));
    return toFloat64Array(s.data(), s.size());
  });
}

val alibiBiasJs(val lengthArg, val slopeArg, val opts) {
  return guarded([&] {
    const double length = number(lengthArg, "length");
    const double slope = number(slopeArg, "slope");
    const val o = options(opts, "options");
    const bool causal = boolOption(o, "causal", true, "options.causal");
    requireInt("length", length, 0, 4096);
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
