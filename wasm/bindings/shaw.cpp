// Bindings: Shaw et al.'s clipped relative indices (core/shaw.hpp).
#include <emscripten/bind.h>

#include "core/shaw.hpp"
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

}  // namespace
}  // namespace posenc::js

EMSCRIPTEN_BINDINGS(posenc_shaw) {
  emscripten::function("shawIndex", &posenc::js::shawIndexJs);
}
