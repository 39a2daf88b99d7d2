// Bindings: RoPE frequencies (every HF scaling, and static NTK-aware) and application in both layouts.
#include <emscripten/bind.h>

#include "core/limits.hpp"
#include "core/rope.hpp"
#include "wasm/bindings/args.hpp"

namespace posenc::js {
namespace {

namespace s = api::scaling;

double required(const val& sc, const api::BoundedOption& f, const std::string& type) {
  if (!has(sc, f)) throw TypeError(std::string(f.name) + " is required for scaling type '" + type + "'");
  return number(field(sc, f), f.name);
}

// The core reads NaN as "not given", so a NaN the caller did give is rejected here.
double optionalSeqLen(const val& sc, const api::BoundedOption& f) {
  if (!has(sc, f)) return NAN;
  const double v = number(field(sc, f), f.name);
  requireIntOption(f, v);
  return v;
}

double optionalAttentionFactor(const val& sc, const api::BoundedOption& f) {
  if (!has(sc, f)) return NAN;
  const double v = number(field(sc, f), f.name);
  requireRealAbove(f.name, v, f.min, f.max);
  return v;
}

// options.scaling of ropeFrequencies and ropeApply (the same field in both: wasm/schema.js).
RopeScaling readScaling(const val& o) {
  RopeScaling r;
  const api::Option& scalingField = api::ropeFrequencies::opt::scaling;
  if (!has(o, scalingField) || field(o, scalingField).isNull()) return r;
  const val sc = options(field(o, scalingField), scalingField.name);
  if (!has(sc, s::type)) throw TypeError("scaling.type is required (e.g. 'linear', 'yarn')");
  const std::string type = stringOption(sc, s::type);
  r.type = ropeScalingTypeFromName(type);
  switch (r.type) {
    case RopeScalingType::Default:
      break;
    case RopeScalingType::Linear:
      r.factor = required(sc, s::linear::factor, type);
      break;
    case RopeScalingType::Ntk:
      r.factor = required(sc, s::ntk::factor, type);
      break;
    case RopeScalingType::Dynamic:
      r.factor = required(sc, s::dynamic::factor, type);
      r.maxPositions = required(sc, s::dynamic::maxPositions, type);
      r.seqLen = optionalSeqLen(sc, s::dynamic::seqLen);
      break;
    case RopeScalingType::Yarn:
      r.factor = required(sc, s::yarn::factor, type);
      r.originalMaxPositions = required(sc, s::yarn::originalMaxPositions, type);
      r.betaFast = numberOption(sc, s::yarn::betaFast);
      r.betaSlow = numberOption(sc, s::yarn::betaSlow);
      r.mscale = numberOption(sc, s::yarn::mscale);
      r.mscaleAllDim = numberOption(sc, s::yarn::mscaleAllDim);
      r.truncate = boolOption(sc, s::yarn::truncate);
      r.attentionFactor = optionalAttentionFactor(sc, s::yarn::attentionFactor);
      break;
    case RopeScalingType::Llama3:
      r.factor = required(sc, s::llama3::factor, type);
      r.originalMaxPositions = required(sc, s::llama3::originalMaxPositions, type);
      r.lowFreqFactor = numberOption(sc, s::llama3::lowFreqFactor);
      r.highFreqFactor = numberOption(sc, s::llama3::highFreqFactor);
      break;
    case RopeScalingType::Longrope:
      r.originalMaxPositions = required(sc, s::longrope::originalMaxPositions, type);
      r.maxPositions = required(sc, s::longrope::maxPositions, type);
      r.seqLen = optionalSeqLen(sc, s::longrope::seqLen);
      if (!has(sc, s::longrope::shortFactor) || !has(sc, s::longrope::longFactor)) {
        throw TypeError("scaling.shortFactor and scaling.longFactor are required for 'longrope'");
      }
      r.shortFactor = numbers(field(sc, s::longrope::shortFactor), s::longrope::shortFactor.name, kMaxDim);
      r.longFactor = numbers(field(sc, s::longrope::longFactor), s::longrope::longFactor.name, kMaxDim);
      r.attentionFactor = optionalAttentionFactor(sc, s::longrope::attentionFactor);
      break;
  }
  return r;
}

val ropeFrequenciesJs(val dimArg, val opts) {
  return guarded([&] {
    namespace fn = api::ropeFrequencies;
    const double dim = number(dimArg, fn::dim.name);
    const val o = options(opts, "options");
    const double base = numberOption(o, fn::opt::base);
    requireInt(fn::dim, dim);
    const RopeFrequencies f = ropeFrequencies(int(dim), base, readScaling(o));
    val result = val::object();
    result.set("invFreq", toFloat64Array(f.invFreq.data(), f.invFreq.size()));
    result.set("attentionFactor", f.attentionFactor);
    return result;
  });
}

val ropeApplyJs(val xArg, val positionsArg, val dimArg, val opts) {
  return guarded([&] {
    namespace fn = api::ropeApply;
    const double dim = number(dimArg, fn::dim.name);
    const val o = options(opts, "options");
    const double base = numberOption(o, fn::opt::base);
    const RopeLayout layout = ropeLayoutFromName(stringOption(o, fn::opt::layout));
    requireInt(fn::dim, dim);
    requireEven(fn::dim.name, int64_t(dim));
    const RopeFrequencies f = ropeFrequencies(int(dim), base, readScaling(o));
    const std::vector<double> pos = positions(positionsArg, fn::positions.name);
    std::vector<float> x = floats(xArg, fn::x.name, size_t(kMaxElements));
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
