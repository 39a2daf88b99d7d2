#include "rope.hpp"

#include <algorithm>
#include <cmath>

#include "errors.hpp"
#include "kernels/dispatch.hpp"
#include "limits.hpp"

namespace posenc {
namespace {

std::vector<double> defaultInvFreq(int dim, double base) {
  std::vector<double> f(dim / 2);
  for (int i = 0; i < dim / 2; ++i) f[i] = 1.0 / std::pow(base, double(2 * i) / dim);
  return f;
}

// YaRN: the (fractional) dimension whose wavelength turns `rotations` times within maxPos.
double yarnCorrectionDim(double rotations, int dim, double base, double maxPos) {
  return dim * std::log(maxPos / (rotations * 2 * M_PI)) / (2 * std::log(base));
}

double yarnMscale(double scale, double m) { return scale <= 1 ? 1.0 : 0.1 * m * std::log(scale) + 1.0; }

void yarn(int dim, double base, const RopeScaling& s, RopeFrequencies& out) {
  const double factor = s.factor;
  if (std::isnan(s.attentionFactor)) {
    out.attentionFactor = (s.mscale != 0 && s.mscaleAllDim != 0)
                              ? yarnMscale(factor, s.mscale) / yarnMscale(factor, s.mscaleAllDim)
                              : yarnMscale(factor, 1.0);
  } else {
    out.attentionFactor = s.attentionFactor;
  }
  double low = yarnCorrectionDim(s.betaFast, dim, base, s.originalMaxPositions);
  double high = yarnCorrectionDim(s.betaSlow, dim, base, s.originalMaxPositions);
  if (s.truncate) {
    low = std::floor(low);
    high = std::ceil(high);
  }
  low = std::max(low, 0.0);
  high = std::min(high, double(dim - 1));
  if (low == high) high += 0.001;  // as HF: avoid dividing by zero
  const std::vector<double> f = defaultInvFreq(dim, base);
  out.invFreq.resize(f.size());
  for (size_t j = 0; j < f.size(); ++j) {
    const double ramp = std::clamp((double(j) - low) / (high - low), 0.0, 1.0);
    // ramp 0: keep the frequency (extrapolate); ramp 1: divide it by factor (interpolate).
    out.invFreq[j] = f[j] * (1 - ramp) + (f[j] / factor) * ramp;
  }
}

void llama3(int dim, double base, const RopeScaling& s, RopeFrequencies& out) {
  const double lowWavelen = s.originalMaxPositions / s.lowFreqFactor;
  const double highWavelen = s.originalMaxPositions / s.highFreqFactor;
  out.invFreq = defaultInvFreq(dim, base);
  for (double& f : out.invFreq) {
    const double wavelen = 2 * M_PI / f;
    if (wavelen < highWavelen) continue;
    if (wavelen > lowWavelen) {
      f /= s.factor;
      continue;
    }
    const double smooth = (s.originalMaxPositions / wavelen - s.lowFreqFactor) /
                          (s.highFreqFactor - s.lowFreqFactor);
    f = (1 - smooth) * f / s.factor + smooth * f;
  }
}

void longrope(int dim, double base, const RopeScaling& s, RopeFrequencies& out) {
  const double factor = s.maxPositions / s.originalMaxPositions;
  if (std::isnan(s.attentionFactor)) {
    out.attentionFactor =
        factor <= 1 ? 1.0 : std::sqrt(1 + std::log(factor) / std::log(s.originalMaxPositions));
  } else {
    out.attentionFactor = s.attentionFactor;
  }
  const bool useLong = !std::isnan(s.seqLen) && s.seqLen > s.originalMaxPositions;
  const std::vector<double>& ext = useLong ? s.longFactor : s.shortFactor;
  out.invFreq.resize(dim / 2);
  for (int i = 0; i < dim / 2; ++i) out.invFreq[i] = 1.0 / (ext[i] * std::pow(base, double(2 * i) / dim));
}

void requireFactorList(const char* name, const std::vector<double>& v, int dim) {
  requireLength(name, v.size(), size_t(dim / 2));
  for (size_t i = 0; i < v.size(); ++i) {
    requireRealAbove((std::string(name) + "[" + std::to_string(i) + "]").c_str(), v[i], 0.0,
                     kMaxFactor);
  }
}

}  // namespace

RopeScalingType ropeScalingTypeFromName(const std::string& n) {
  if (n == "default") return RopeScalingType::Default;
  if (n == "linear") return RopeScalingType::Linear;
  if (n == "dynamic") return RopeScalingType::Dynamic;
  if (n == "yarn") return RopeScalingType::Yarn;
  if (n == "llama3") return RopeScalingType::Llama3;
  if (n == "longrope") return RopeScalingType::Longrope;
  if (n == "ntk") return RopeScalingType::Ntk;
  throw TypeError("scaling.type must be one of 'default', 'linear', 'dynamic', 'yarn', "
                  "'llama3', 'longrope', 'ntk', got '" + n + "'");
}

RopeLayout ropeLayoutFromName(const std::string& n) {
  if (n == "half") return RopeLayout::Half;
  if (n == "interleaved") return RopeLayout::Interleaved;
  throw TypeError("layout must be 'half' or 'interleaved', got '" + n + "'");
}

void checkRope(int dim, double base, const RopeScaling& s) {
  requireInt("dim", dim, 2, kMaxDim);
  requireEven("dim", dim);
  requireRealAbove("base", base, 1.0, kMaxBase);
  switch (s.type) {
    case RopeScalingType::Default:
      break;
    case RopeScalingType::Linear:
      requireReal("scaling.factor", s.factor, 1.0, kMaxFactor);
      break;
    case RopeScalingType::Ntk:
      if (dim == 2) throw RangeError("dim must be at least 4 for ntk scaling (d/(d-2) is undefined at d = 2), got 2");
      requireReal("scaling.factor", s.factor, 1.0, kMaxFactor);
      break;
    case RopeScalingType::Dynamic:
      if (dim == 2) throw RangeError("dim must be at least 4 for dynamic scaling (d/(d-2) is undefined at d = 2), got 2");
      requireReal("scaling.factor", s.factor, 1.0, kMaxFactor);
      requireInt("scaling.maxPositions", s.maxPositions, 1, kMaxPosition);
      if (!std::isnan(s.seqLen)) requireInt("scaling.seqLen", s.seqLen, 0, kMaxPosition);
      break;
    case RopeScalingType::Yarn:
      requireReal("scaling.factor", s.factor, 1.0, kMaxFactor);
      requireInt("scaling.originalMaxPositions", s.originalMaxPositions, 1, kMaxPosition);
      requireRealAbove("scaling.betaFast", s.betaFast, 0.0, kMaxFactor);
      requireRealAbove("scaling.betaSlow", s.betaSlow, 0.0, kMaxFactor);
      requireReal("scaling.mscale", s.mscale, 0.0, kMaxFactor);
      requireReal("scaling.mscaleAllDim", s.mscaleAllDim, 0.0, kMaxFactor);
      if (!std::isnan(s.attentionFactor))
        requireRealAbove("scaling.attentionFactor", s.attentionFactor, 0.0, kMaxFactor);
      break;
    case RopeScalingType::Llama3:
      requireReal("scaling.factor", s.factor, 1.0, kMaxFactor);
      requireInt("scaling.originalMaxPositions", s.originalMaxPositions, 1, kMaxPosition);
      requireRealAbove("scaling.lowFreqFactor", s.lowFreqFactor, 0.0, kMaxFactor);
      requireRealAbove("scaling.highFreqFactor", s.highFreqFactor, s.lowFreqFactor, kMaxFactor);
      break;
    case RopeScalingType::Longrope:
      requireInt("scaling.originalMaxPositions", s.originalMaxPositions, 1, kMaxPosition);
      requireInt("scaling.maxPositions", s.maxPositions, 1, kMaxPosition);
      if (!std::isnan(s.seqLen)) requireInt("scaling.seqLen", s.seqLen, 0, kMaxPosition);
      requireFactorList("scaling.shortFactor", s.shortFactor, dim);
      requireFactorList("scaling.longFactor", s.longFactor, dim);
      if (!std::isnan(s.attentionFactor))
        requireRealAbove("scaling.attentionFactor", s.attentionFactor, 0.0, kMaxFactor);
      break;
  }
}

RopeFrequencies ropeFrequencies(int dim, double base, const RopeScaling& s) {
  checkRope(dim, base, s);
  RopeFrequencies out;
  switch (s.type) {
    case RopeScalingType::Default:
      out.invFreq = defaultInvFreq(dim, base);
      break;
    case RopeScalingType::Linear:
      out.invFreq = defaultInvFreq(dim, base);
      for (double& f : out.invFreq) f /= s.factor;
      break;
    case RopeScalingType::Dynamic: {
      const double L = (!std::isnan(s.seqLen) && s.seqLen > s.maxPositions) ? s.seqLen : s.maxPositions;
      const double b = base * std::pow(s.factor * L / s.maxPositions - (s.factor - 1),
                                       double(dim) / (dim - 2));
      out.invFreq = defaultInvFreq(dim, b);
      break;
    }
    case RopeScalingType::Yarn:
      yarn(dim, base, s, out);
      break;
    case RopeScalingType::Llama3:
      llama3(dim, base, s, out);
      break;
    case RopeScalingType::Longrope:
      longrope(dim, base, s, out);
      break;
    case RopeScalingType::Ntk:
      // Dynamic NTK's formula with its bracket fixed at factor: the base grows so that the
      // slowest pair is slowed by exactly factor while pair 0 keeps its frequency.
      out.invFreq = defaultInvFreq(dim, base * std::pow(s.factor, double(dim) / (dim - 2)));
      break;
  }
  return out;
}

void checkRopeApply(const float* x, size_t xLength, const double* positions, size_t rows, int dim) {
  requireInt("dim", dim, 2, kMaxDim);
  requireEven("dim", dim);
  requireInt("positions.length", double(rows), 0, kMaxRows);
  if (int64_t(rows) * dim > kMaxElements) {
    throw RangeError("positions.length * dim must be at most " + std::to_string(kMaxElements));
  }
  requireLength("x", xLength, rows * size_t(dim));
  requireFinite("x", x, xLength);
  for (size_t r = 0; r < rows; ++r) {
    const double p = positions[r];
    if (!(std::isfinite(p) && p == std::floor(p) && p >= 0 && p <= kMaxPosition)) {
      throw RangeError("positions[" + std::to_string(r) + "] must be an integer in [0, " +
                       detail::fmt(kMaxPosition) + "], got " + detail::fmt(p));
    }
  }
}

void ropeApply(float* x, const double* positions, size_t rows, int dim, RopeLayout layout,
               const RopeFrequencies& f) {
  checkRopeApply(x, rows * size_t(dim), positions, rows, dim);
  requireLength("invFreq", f.invFreq.size(), size_t(dim / 2));
  // The sin/cos kernels reduce angles exactly up to kMaxAngle; only longrope factors below 1
  // can push position * frequency past it.
  double maxPos = 0, maxFreq = 0;
  for (size_t r = 0; r < rows; ++r) maxPos = std::max(maxPos, positions[r]);
  for (double v : f.invFreq) maxFreq = std::max(maxFreq, std::fabs(v));
  if (maxPos * maxFreq > kernels::kMaxAngle) {
    throw RangeError("positions * inverse frequency must be at most " +
                     detail::fmt(kernels::kMaxAngle) + ", got " + detail::fmt(maxPos * maxFreq) +
                     " (a longrope factor below 1 at a large position)");
  }
  const size_t n = dim / 2;
  const float attn = static_cast<float>(f.attentionFactor);
  const bool interleaved = layout == RopeLayout::Interleaved;
  const double* freq = f.invFreq.data();
  // A position within kRopeRun of the last exactly reduced one takes its sin/cos from that base
  // row and the rotation by k * f (angle addition), as the sinusoidal table does; the usual
  // positions 0..n-1 then need one full reduction per kRopeRun rows.
  constexpr size_t kRopeRun = 16;
  const size_t run = std::min(kRopeRun, std::max<size_t>(rows, 1));
  std::vector<float> rotS(run * n), rotC(run * n), s0(n), c0(n), s(n), c(n);
  for (size_t k = 0; k < run; ++k) kernels::sincosRow(double(k), freq, n, &rotS[k * n], &rotC[k * n]);
  double base = NAN;
  for (size_t r = 0; r < rows; ++r) {
    double k = positions[r] - base;  // NaN before the first base: recompute
    if (!(k >= 0 && k < double(run))) {
      base = positions[r];
      kernels::sincosRow(base, freq, n, s0.data(), c0.data());
      k = 0;
    }
    if (k == 0) {
      kernels::ropeRotateRow(s0.data(), c0.data(), attn, n, interleaved, x + r * dim);
    } else {
      const size_t row = size_t(k) * n;
      kernels::angleAddRow(s0.data(), c0.data(), &rotS[row], &rotC[row], n, s.data(), c.data());
      kernels::ropeRotateRow(s.data(), c.data(), attn, n, interleaved, x + r * dim);
    }
  }
}

}  // namespace posenc
