// Bindings: ALiBi slopes and bias matrix (core/alibi.hpp).
#include <emscripten/bind.h>

#include <vector>

#include "core/alibi.hpp"
#include "wasm/bindings/args.hpp"

namespace posenc::js {
namespace {

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

EMSCRIPTEN_BINDINGS(posenc_alibi) {
  emscripten::function("alibiSlopes", &posenc::js::alibiSlopesJs);
  emscripten::function("alibiBias", &posenc::js::alibiBiasJs);
}
