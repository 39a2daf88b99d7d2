// Bindings: a block of the ALiBi bias matrix (chosen query rows against chosen keys).
#include <emscripten/bind.h>

#include "core/alibi_block.hpp"
#include "wasm/bindings/args.hpp"

namespace posenc::js {
namespace {

val alibiBiasBlockJs(val queriesArg, val keysArg, val slopeArg, val opts) {
  return guarded([&] {
    namespace f = api::alibiBiasBlock;
    const double slope = number(slopeArg, f::slope.name);
    const val o = options(opts, "options");
    const bool causal = boolOption(o, f::opt::causal);
    const std::vector<double> q = positions(queriesArg, f::queries.name);
    const std::vector<double> k = positions(keysArg, f::keys.name);
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
