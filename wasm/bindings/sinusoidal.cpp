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
    const double positions = number(positionsArg, "positions");
    const double dModel = number(dModelArg, "dModel");
    const val o = options(opts, "options");
    p.base = numberOption(o, "base", 10000.0, "options.base");
    p.offset = numberOption(o, "offset", 0.0, "options.offset");
    requireInt("positions", positions, 0, kMaxRows);
    requireInt("dModel", dModel, 1, kMaxDim);
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
    const double dModel = number(dModelArg, "dModel");
    const val o = options(opts, "options");
    const double base = numberOption(o, "base", 10000.0, "options.base");
    requireInt("dModel", dModel, 1, kMaxDim);
    const std::vector<double> f = sinusoidalFrequencies(int(dModel), base);
    return toFloat64Array(f.data(), f.size());
  });
}

val sinusoidalDotJs(val m, val n, val dModelArg, val opts) {
  return guarded([&] {
    const double mv = number(m, "m"), nv = number(n, "n");
    const double dModel = number(dModelArg, "dModel");
    const val o = options(opts, "options");
    const double base = numberOption(o, "base", 10000.0, "options.base");
    requireInt("dModel", dModel, 1, kMaxDim);
    return val(sinusoidalDot(mv, nv, int(dModel), base));
  });
}

val learnedJs(val positionsArg, val dModelArg, val opts) {
  return guarded([&] {
    const double dModel = number(dModelArg, "dModel");
    const val o = options(opts, "options");
    LearnedParams p;
    const double maxPositions = numberOption(o, "maxPositions", 1024, "options.maxPositions");
    p.seed = numberOption(o, "seed", 0, "options.seed");
    p.stdDev = numberOption(o, "std", 0.02, "options.std");
    requireInt("dModel", dModel, 1, kMaxDim);
    requireInt("options.maxPositions", maxPositions, 1, kMaxRows);
    p.dModel = int(dModel);
    p.maxPositions = int(maxPositions);
    const std::vector<double> pos = positions(positionsArg, "positions");
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
