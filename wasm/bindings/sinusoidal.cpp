// Bindings: the sinusoidal table, its frequencies and its dot product (core/sinusoidal.hpp).
#include <emscripten/bind.h>

#include "core/sinusoidal.hpp"
#include "wasm/bindings/args.hpp"

namespace posenc::js {
namespace {

val sinusoidalJs(val positionsArg, val dModelArg, val opts) {
  return guarded([&] {
    SinusoidalParams p;
    p.positions = 0;
    namespace f = api::sinusoidal;
    const double positions = number(positionsArg, f::positions.name);
    const double dModel = number(dModelArg, f::dModel.name);
    const val o = options(opts, "options");
    p.base = numberOption(o, f::opt::base);
    p.offset = numberOption(o, f::opt::offset);
    requireInt(f::positions, positions);
    requireInt(f::dModel, dModel);
    p.positions = int(positions);
    p.dModel = int(dModel);
    checkSinusoidal(p);
    const size_t count = size_t(p.positions) * p.dModel;
    auto out = uninitialized<float>(count);
    sinusoidal(p, out.get());
    return toFloat32Array(out.get(), count);
  });
}

val sinusoidalFrequenciesJs(val dModelArg, val opts) {
  return guarded([&] {
    namespace f = api::sinusoidalFrequencies;
    const double dModel = number(dModelArg, f::dModel.name);
    const val o = options(opts, "options");
    const double base = numberOption(o, f::opt::base);
    requireInt(f::dModel, dModel);
    const std::vector<double> freq = sinusoidalFrequencies(int(dModel), base);
    return toFloat64Array(freq.data(), freq.size());
  });
}

val sinusoidalDotJs(val m, val n, val dModelArg, val opts) {
  return guarded([&] {
    namespace f = api::sinusoidalDot;
    const double mv = number(m, f::m.name), nv = number(n, f::n.name);
    const double dModel = number(dModelArg, f::dModel.name);
    const val o = options(opts, "options");
    const double base = numberOption(o, f::opt::base);
    requireInt(f::dModel, dModel);
    return val(sinusoidalDot(mv, nv, int(dModel), base));
  });
}

}  // namespace
}  // namespace posenc::js

EMSCRIPTEN_BINDINGS(posenc_sinusoidal) {
  emscripten::function("sinusoidal", &posenc::js::sinusoidalJs);
  emscripten::function("sinusoidalFrequencies", &posenc::js::sinusoidalFrequenciesJs);
  emscripten::function("sinusoidalDot", &posenc::js::sinusoidalDotJs);
}
