// Bindings: a block of the ALiBi bias matrix (chosen query rows against chosen keys).
#include <emscripten/bind.h>

#include "core/alibi_block.hpp"
#include "wasm/bindings/args.hpp"

namespace posenc::js {
namespace {

val alibiBiasBlockJs(val queriesArg, val keysArg, val slopeArg, val opts) {
  return guarded([&] {
    const double slope = number(slopeArg, "slope");
    const val o = options(opts, "options");
    const bool causal = boolOption(o, "causal", true, "options.causal");
    const std::vector<double> q = positions(queriesArg, "queries");
    const std::vector<double> k = positions(keysArg, "keys");
    checkAlibiBiasBlock(q.data(), q.size(), k.data(), k.size(), slope);
    const size_t count = q.size() * k.size();
    auto out = uninitialized<float>(count);
    alibiBiasBlock(q.data(), q.size(), k.data(), k.size(), slope, causal, out.get());
    return toFloat32Array(out.get(), count);
  });
}

}  // namespace
}  // namespace posenc::js

EMSCRIPTEN_BINDINGS(posenc_alibi_block) {
  emscripten::function("alibiBiasBlock", &posenc::js::alibiBiasBlockJs);
}
