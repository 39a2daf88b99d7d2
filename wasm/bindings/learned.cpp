// Bindings: the seeded stand-in for a learned position table (core/learned.hpp).
#include <emscripten/bind.h>

#include <vector>

#include "core/learned.hpp"
#include "wasm/bindings/args.hpp"

namespace posenc::js {
namespace {

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

EMSCRIPTEN_BINDINGS(posenc_learned) {
  emscripten::function("learned", &posenc::js::learnedJs);
}
