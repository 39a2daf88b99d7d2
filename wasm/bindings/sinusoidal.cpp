// Bindings: sinusoidal table and its dot product; the learned table beside it (both absolute).
#include <emscripten/bind.h>

#include "core/learned.hpp"
#include "core/limits.hpp"
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

val learnedJs(val positionsArg, val dModelArg, val opts) {
  return guarded([&] {
    namespace f = api::learned;
    const double dModel = number(dModelArg, f::dModel.name);
    const val o = options(opts, "options");
    LearnedParams p;
    const double maxPositions = numberOption(o, f::opt::maxPositions);
    p.seed = numberOption(o, f::opt::seed);
    p.stdDev = numberOption(o, f::opt::std);
    requireInt(f::dModel, dModel);
    requireIntOption(f::opt::maxPositions, maxPositions);
    p.dModel = int(dModel);
    p.maxPositions = int(maxPositions);
    const std::vector<double> pos = positions(positionsArg, f::positions.name);
    checkLearned(p, pos.data(), pos.size());
    const size_t count = pos.size() * p.dModel;
    auto out = uninitialized<float>(count);
    learned(p, pos.data(), pos.size(), out.get());
    return toFloat32Array(out.get(), count);
  });
}

}  // namespace
}  // namespace posenc::js

EMSCRIPTEN_BINDINGS(posenc_absolute) {
  emscripten::function("sinusoidal", &posenc::js::sinusoidalJs);
  emscripten::function("sinusoidalFrequencies", &posenc::js::sinusoidalFrequenciesJs);
  emscripten::function("sinusoidalDot", &posenc::js::sinusoidalDotJs);
  emscripten::function("learned", &posenc::js::learnedJs);
}
