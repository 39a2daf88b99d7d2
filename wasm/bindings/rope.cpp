// Bindings: RoPE frequencies (every HF scaling, and static NTK-aware) and application in both layouts.
#include <emscripten/bind.h>

#include "core/limits.hpp"
#include "core/rope.hpp"
#include "wasm/bindings/args.hpp"

namespace posenc::js {
namespace {

double required(const val& s, const char* key, const std::string& type) {
  if (!has(s, key)) {
    throw TypeError(std::string("scaling.") + key + " is required for scaling type '" + type + "'");
  }
  return number(s[key], std::string("scaling.") + key);
}

// The core reads NaN as "not given", so a NaN the caller did give is rejected here.
double optionalSeqLen(const val& sc) {
  if (!has(sc, "seqLen")) return NAN;
  const double v = number(sc["seqLen"], "scaling.seqLen");
  requireInt("scaling.seqLen", v, 0, kMaxPosition);
  return v;
}

double optionalAttentionFactor(const val& sc) {
  if (!has(sc, "attentionFactor")) return NAN;
  const double v = number(sc["attentionFactor"], "scaling.attentionFactor");
  requireRealAbove("scaling.attentionFactor", v, 0.0, kMaxFactor);
  return v;
}

RopeScaling readScaling(const val& o) {
  RopeScaling s;
  if (!has(o, "scaling") || o["scaling"].isNull()) return s;
  const val sc = options(o["scaling"], "options.scaling");
  if (!has(sc, "type")) throw TypeError("scaling.type is required (e.g. 'linear', 'yarn')");
  const std::string type = stringOption(sc, "type", "", "scaling.type");
  s.type = ropeScalingTypeFromName(type);
  switch (s.type) {
    case RopeScalingType::Default:
      break;
    case RopeScalingType::Linear:
    case RopeScalingType::Ntk:
      s.factor = required(sc, "factor", type);
      break;
    case RopeScalingType::Dynamic:
      s.factor = required(sc, "factor", type);
      s.maxPositions = required(sc, "maxPositions", type);
      s.seqLen = optionalSeqLen(sc);
      break;
    case RopeScalingType::Yarn:
      s.factor = required(sc, "factor", type);
      s.originalMaxPositions = required(sc, "originalMaxPositions", type);
      s.betaFast = numberOption(sc, "betaFast", 32, "scaling.betaFast");
      s.betaSlow = numberOption(sc, "betaSlow", 1, "scaling.betaSlow");
      s.mscale = numberOption(sc, "mscale", 0, "scaling.mscale");
      s.mscaleAllDim = numberOption(sc, "mscaleAllDim", 0, "scaling.mscaleAllDim");
      s.truncate = boolOption(sc, "truncate", true, "scaling.truncate");
      s.attentionFactor = optionalAttentionFactor(sc);
      break;
    case RopeScalingType::Llama3:
      s.factor = required(sc, "factor", type);
      s.originalMaxPositions = required(sc, "originalMaxPositions", type);
      s.lowFreqFactor = numberOption(sc, "lowFreqFactor", 1, "scaling.lowFreqFactor");
      s.highFreqFactor = numberOption(sc, "highFreqFactor", 4, "scaling.highFreqFactor");
      break;
    case RopeScalingType::Longrope:
      s.originalMaxPositions = required(sc, "originalMaxPositions", type);
      s.maxPositions = required(sc, "maxPositions", type);
      s.seqLen = optionalSeqLen(sc);
      if (!has(sc, "shortFactor") || !has(sc, "longFactor")) {
        throw TypeError("scaling.shortFactor and scaling.longFactor are required for 'longrope'");
      }
      s.shortFactor = numbers(sc["shortFactor"], "scaling.shortFactor", kMaxDim);
      s.longFactor = numbers(sc["longFactor"], "scaling.longFactor", kMaxDim);
      s.attentionFactor = optionalAttentionFactor(sc);
      break;
  }
  return s;
}

val ropeFrequenciesJs(val dimArg, val opts) {
  return guarded([&] {
    const double dim = number(dimArg, "dim");
    const val o = options(opts, "options");
    const double base = numberOption(o, "base", 10000.0, "options.base");
    requireInt("dim", dim, 2, kMaxDim);
    const RopeScaling s = readScaling(o);
    const RopeFrequencies f = ropeFrequencies(int(dim), base, s);
    val result = val::object();
    result.set("invFreq", toFloat64Array(f.invFreq.data(), f.invFreq.size()));
    result.set("attentionFactor", f.attentionFactor);
    return result;
  });
}

val ropeApplyJs(val xArg, val positionsArg, val dimArg, val opts) {
  return guarded([&] {
    const double dim = number(dimArg, "dim");
    const val o = options(opts, "options");
    const double base = numberOption(o, "base", 10000.0, "options.base");
    const RopeLayout layout = ropeLayoutFromName(stringOption(o, "layout", "half", "options.layout"));
    requireInt("dim", dim, 2, kMaxDim);
    requireEven("dim", int64_t(dim));
    const RopeScaling s = readScaling(o);
    const RopeFrequencies f = ropeFrequencies(int(dim), base, s);
    const std::vector<double> pos = positions(positionsArg, "positions");
    std::vector<float> x = floats(xArg, "x", size_t(kMaxElements));
    checkRopeApply(x.data(), x.size(), pos.data(), pos.size(), int(dim));
    ropeApply(x.data(), pos.data(), pos.size(), int(dim), layout, f);
    return toFloat32Array(x.data(), x.size());
  });
}

}  // namespace
}  // namespace posenc::js

EMSCRIPTEN_BINDINGS(posenc_rope) {
  emscripten::function("ropeFrequencies", &posenc::js::ropeFrequenciesJs);
  emscripten::function("ropeApply", &posenc::js::ropeApplyJs);
}
