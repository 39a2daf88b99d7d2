// core/rope.hpp against Hugging Face transformers' modeling_rope_utils.py (default, linear,
// dynamic, yarn, llama3, longrope) and modeling_llama.py's rotate_half, transcribed below in
// double as straight-line code (HF computes in float32; the core and these references use
// double, REFERENCES.md §2).
//
// Tolerances:
//   1e-12 relative  ropeFrequencies (double path) vs the double references.
//   2e-6 absolute   ropeApply (float32 output) vs a double rotation, positions up to 100000,
//                   |x| <= 1: the brief's bound; the kernel contract (2e-7 per sin/cos) plus
//                   three float roundings per output stays well inside it.
//   Readout literals: as many digits as REFERENCES.md prints.

#include "core/rope.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/errors.hpp"
#include "core/limits.hpp"
#include "test_util.hpp"

namespace rope_test {

using posenc::RangeError;
using posenc::RopeLayout;
using posenc::RopeScaling;
using posenc::RopeScalingType;
using posenc::TypeError;
using posenc_test::MaxError;
using posenc_test::relApprox;

namespace {

constexpr double kPi = 3.14159265358979323846;
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

// [SECTION] reference transcriptions of modeling_rope_utils.py ---------------------------------

// _compute_default_rope_parameters: 1.0 / (base ** (arange(0, dim, 2) / dim))
std::vector<double> hfDefault(int dim, double base) {
  std::vector<double> inv;
  for (int j = 0; j < dim; j += 2) inv.push_back(1.0 / std::pow(base, double(j) / dim));
  return inv;
}

// _compute_dynamic_ntk_parameters
std::vector<double> hfDynamic(int dim, double base, double factor, double maxPos, double seqLen) {
  double L = std::isnan(seqLen) ? maxPos : std::max(seqLen, maxPos);  // seq_len None -> max_pos
  const double b = base * std::pow((factor * L / maxPos) - (factor - 1), double(dim) / (dim - 2));
  return hfDefault(dim, b);
}

struct HfYarn {
  std::vector<double> invFreq;
  double attentionFactor;
  double low, high;  // after truncation and clamping, before the +0.001
};

// _compute_yarn_parameters (current HF: factor from the config, correction range from
// original_max_position_embeddings).
HfYarn hfYarn(int dim, double base, double factor, double originalMax, double betaFast = 32,
              double betaSlow = 1, double mscale = 0, double mscaleAllDim = 0, bool truncate = true,
              double attentionFactor = kNaN) {
  auto getMscale = [](double scale, double m) {
    if (scale <= 1) return 1.0;
    return 0.1 * m * std::log(scale) + 1.0;
  };
  HfYarn out;
  if (std::isnan(attentionFactor)) {
    if (mscale != 0 && mscaleAllDim != 0) {  // `if mscale and mscale_all_dim`
      attentionFactor = getMscale(factor, mscale) / getMscale(factor, mscaleAllDim);
    } else {
      attentionFactor = getMscale(factor, 1);
    }
  }
  out.attentionFactor = attentionFactor;
  auto findCorrectionDim = [&](double numRotations) {
    return (dim * std::log(originalMax / (numRotations * 2 * kPi))) / (2 * std::log(base));
  };
  double low = findCorrectionDim(betaFast);
  double high = findCorrectionDim(betaSlow);
  if (truncate) {
    low = std::floor(low);
    high = std::ceil(high);
  }
  low = std::max(low, 0.0);
  high = std::min(high, double(dim - 1));
  out.low = low;
  out.high = high;
  // linear_ramp_factor(low, high, dim // 2)
  if (low == high) high += 0.001;
  std::vector<double> ramp(dim / 2);
  for (int j = 0; j < dim / 2; ++j) ramp[j] = std::min(1.0, std::max(0.0, (j - low) / (high - low)));
  for (int j = 0; j < dim / 2; ++j) {
    const double posFreq = std::pow(base, double(2 * j) / dim);
    const double extrapolation = 1.0 / posFreq;
    const double interpolation = 1.0 / (factor * posFreq);
    const double extrapolationFactor = 1 - ramp[j];
    out.invFreq.push_back(interpolation * (1 - extrapolationFactor) + extrapolation * extrapolationFactor);
  }
  return out;
}

// _compute_llama3_parameters (= meta-llama/llama-models apply_scaling).
std::vector<double> hfLlama3(int dim, double base, double factor, double lowFreqFactor,
                             double highFreqFactor, double oldContextLen) {
  const std::vector<double> invFreq = hfDefault(dim, base);
  const double lowFreqWavelen = oldContextLen / lowFreqFactor;
  const double highFreqWavelen = oldContextLen / highFreqFactor;
  std::vector<double> out;
  for (double f : invFreq) {
    const double wavelen = 2 * kPi / f;
    const double llama = wavelen > lowFreqWavelen ? f / factor : f;  // first torch.where
    const double smooth = (oldContextLen / wavelen - lowFreqFactor) / (highFreqFactor - lowFreqFactor);
    const double smoothed = (1 - smooth) * llama / factor + smooth * llama;
    const bool isMedium = !(wavelen < highFreqWavelen) && !(wavelen > lowFreqWavelen);
    out.push_back(isMedium ? smoothed : llama);
  }
  return out;
}

struct HfLongrope {
  std::vector<double> invFreq;
  double attentionFactor;
};

// _compute_longrope_parameters, with config.original_max_position_embeddings present (Phi-3).
HfLongrope hfLongrope(int dim, double base, const std::vector<double>& shortFactor,
                      const std::vector<double>& longFactor, double maxPos, double originalMax,
                      double seqLen) {
  const double factor = maxPos / originalMax;
  HfLongrope out;
  out.attentionFactor = factor <= 1.0 ? 1.0 : std::sqrt(1 + std::log(factor) / std::log(originalMax));
  // `if seq_len and seq_len > original_max_position_embeddings`
  const bool useLong = !std::isnan(seqLen) && seqLen != 0 && seqLen > originalMax;
  const std::vector<double>& ext = useLong ? longFactor : shortFactor;
  for (int j = 0; j < dim / 2; ++j) out.invFreq.push_back(1.0 / (ext[j] * std::pow(base, double(2 * j) / dim)));
  return out;
}

// [SECTION] reference rotation (modeling_llama.py apply_rotary_pos_emb / Meta's complex form) ---

// q_embed = q * cos + rotate_half(q) * sin, rotate_half(x) = cat(-x2, x1): the pair (i, i + n)
// goes to (a cos - b sin, b cos + a sin). Interleaved pairs (2i, 2i + 1) rotate the same way.
std::vector<double> referenceRotate(const std::vector<float>& x, double pos, const std::vector<double>& inv,
                                    RopeLayout layout, double attn = 1.0) {
  const size_t n = inv.size();
  std::vector<double> out(x.begin(), x.end());
  for (size_t i = 0; i < n; ++i) {
    const size_t ia = layout == RopeLayout::Half ? i : 2 * i;
    const size_t ib = layout == RopeLayout::Half ? i + n : 2 * i + 1;
    const double c = std::cos(pos * inv[i]) * attn, s = std::sin(pos * inv[i]) * attn;
    out[ia] = x[ia] * c - x[ib] * s;
    out[ib] = x[ib] * c + x[ia] * s;
  }
  return out;
}

void checkFrequencies(const std::vector<double>& got, const std::vector<double>& want) {
  REQUIRE(got.size() == want.size());
  for (size_t j = 0; j < got.size(); ++j) {
    CAPTURE(j);
    CHECK(got[j] == relApprox(want[j], 1e-12));  // double path vs double reference
  }
}

RopeScaling yarnScaling(double factor, double originalMax) {
  RopeScaling s;
  s.type = RopeScalingType::Yarn;
  s.factor = factor;
  s.originalMaxPositions = originalMax;
  return s;
}

std::vector<float> apply(std::vector<float> x, const std::vector<double>& positions, int dim, RopeLayout layout,
                         const posenc::RopeFrequencies& f) {
  posenc::ropeApply(x.data(), positions.data(), positions.size(), dim, layout, f);
  return x;
}

double dot(const float* a, const float* b, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += double(a[i]) * b[i];
  return s;
}

}  // namespace

// [SECTION] frequencies -------------------------------------------------------------------------

TEST_CASE("ropeFrequencies default is base^(-2i/d), i < d/2, for d = 2..256 and bases 10000 and 500000") {
  for (double base : {10000.0, 500000.0, 1e6}) {
    for (int dim : {2, 4, 8, 64, 128, 256}) {
      CAPTURE(base);
      CAPTURE(dim);
      const posenc::RopeFrequencies f = posenc::ropeFrequencies(dim, base);
      checkFrequencies(f.invFreq, hfDefault(dim, base));
      CHECK(f.attentionFactor == 1.0);
      CHECK(f.invFreq[0] == 1.0);  // base^0, exact
    }
  }
}

TEST_CASE("ropeFrequencies linear divides every frequency by the factor") {
  RopeScaling s;
  s.type = RopeScalingType::Linear;
  s.factor = 4;
  const posenc::RopeFrequencies f = posenc::ropeFrequencies(64, 10000.0, s);
  std::vector<double> want = hfDefault(64, 10000.0);
  for (double& v : want) v /= 4;
  checkFrequencies(f.invFreq, want);
  CHECK(f.attentionFactor == 1.0);
}

TEST_CASE("ropeFrequencies ntk raises the base to base·factor^(d/(d−2)): pair 0 kept, the last pair divided by factor") {
  for (int dim : {4, 16, 128}) {
    for (double factor : {1.0, 2.0, 8.0, 32.0}) {
      CAPTURE(dim);
      CAPTURE(factor);
      RopeScaling s;
      s.type = RopeScalingType::Ntk;
      s.factor = factor;
      const posenc::RopeFrequencies f = posenc::ropeFrequencies(dim, 10000.0, s);
      checkFrequencies(f.invFreq, hfDefault(dim, 10000.0 * std::pow(factor, double(dim) / (dim - 2))));
      CHECK(f.invFreq[0] == 1.0);
      CHECK(f.invFreq.back() == relApprox(hfDefault(dim, 10000.0).back() / factor, 1e-12));
      CHECK(f.attentionFactor == 1.0);
    }
  }
  RopeScaling s;
  s.type = RopeScalingType::Ntk;
  s.factor = 2;
  CHECK_THROWS_WITH_AS(posenc::ropeFrequencies(2, 10000.0, s), doctest::Contains("at least 4"), RangeError);
  s.factor = 0.5;
  CHECK_THROWS_WITH_AS(posenc::ropeFrequencies(8, 10000.0, s), doctest::Contains("scaling.factor"), RangeError);
}

TEST_CASE("ropeFrequencies dynamic keeps the base while seqLen <= maxPositions (or is not given)") {
  for (double seqLen : {kNaN, 0.0, 100.0, 2048.0}) {
    CAPTURE(seqLen);
    RopeScaling s;
    s.type = RopeScalingType::Dynamic;
    s.factor = 2;
    s.maxPositions = 2048;
    s.seqLen = seqLen;
    const posenc::RopeFrequencies f = posenc::ropeFrequencies(64, 10000.0, s);
    checkFrequencies(f.invFreq, hfDefault(64, 10000.0));
    checkFrequencies(f.invFreq, hfDynamic(64, 10000.0, 2, 2048, seqLen));
  }
}

TEST_CASE("ropeFrequencies dynamic raises the base to base·(factor·L/Lmax − factor + 1)^(d/(d−2)) past maxPositions") {
  for (int dim : {4, 64, 128}) {
    for (double seqLen : {2049.0, 4096.0, 8192.0, 100000.0}) {
      CAPTURE(dim);
      CAPTURE(seqLen);
      RopeScaling s;
      s.type = RopeScalingType::Dynamic;
      s.factor = 2;
      s.maxPositions = 2048;
      s.seqLen = seqLen;
      const posenc::RopeFrequencies f = posenc::ropeFrequencies(dim, 10000.0, s);
      checkFrequencies(f.invFreq, hfDynamic(dim, 10000.0, 2, 2048, seqLen));
      // Hand check at seqLen 8192: base' = 10000 * (2*4 - 1)^(d/(d-2)) = 10000 * 7^(d/(d-2)).
      if (seqLen == 8192.0) {
        const double b = 10000.0 * std::pow(7.0, double(dim) / (dim - 2));
        CHECK(f.invFreq.back() == relApprox(std::pow(b, -double(dim - 2) / dim), 1e-12));  // double path
      }
      CHECK(f.invFreq[0] == 1.0);                                   // dim 0 never scales
      CHECK(f.invFreq.back() < hfDefault(dim, 10000.0).back());     // the slowest pair slows down
    }
  }
}

TEST_CASE("ropeFrequencies yarn factor 16 blends between dims 20 and 46 (d = 128, Lorig 4096, base 10000)") {
  const HfYarn ref = hfYarn(128, 10000.0, 16, 4096);
  CHECK(ref.low == 20.0);   // REFERENCES.md: low = 20, high = 46 (hand-checked literal)
  CHECK(ref.high == 46.0);
  const posenc::RopeFrequencies f = posenc::ropeFrequencies(128, 10000.0, yarnScaling(16, 4096));
  checkFrequencies(f.invFreq, ref.invFreq);
  const std::vector<double> base = hfDefault(128, 10000.0);
  for (int j = 0; j < 64; ++j) {
    CAPTURE(j);
    if (j <= 20) {
      CHECK(f.invFreq[j] == relApprox(base[j], 1e-12));       // ramp 0: extrapolate (keep)
    } else if (j >= 46) {
      CHECK(f.invFreq[j] == relApprox(base[j] / 16, 1e-12));  // ramp 1: interpolate (/factor)
    } else {
      const double ramp = (j - 20) / 26.0;
      CHECK(f.invFreq[j] == relApprox(base[j] * (1 - ramp) + base[j] / 16 * ramp, 1e-12));  // double path
    }
  }
  CHECK(f.attentionFactor == relApprox(0.1 * std::log(16.0) + 1, 1e-12));  // 1.27726
}

TEST_CASE("ropeFrequencies yarn factor 4 with and without truncate (corr(32) = 20.94, corr(1) = 45.03)") {
  const HfYarn truncated = hfYarn(128, 10000.0, 4, 4096);
  const HfYarn smooth = hfYarn(128, 10000.0, 4, 4096, 32, 1, 0, 0, false);
  CHECK(smooth.low == doctest::Approx(20.9445).epsilon(1e-5));   // hand value, 6 digits
  CHECK(smooth.high == doctest::Approx(45.0269).epsilon(1e-5));  // hand value, 6 digits
  RopeScaling s = yarnScaling(4, 4096);
  checkFrequencies(posenc::ropeFrequencies(128, 10000.0, s).invFreq, truncated.invFreq);
  s.truncate = false;
  const posenc::RopeFrequencies f = posenc::ropeFrequencies(128, 10000.0, s);
  checkFrequencies(f.invFreq, smooth.invFreq);
  // Without truncation dim 20 is still pure extrapolation and dim 21 already blends.
  const std::vector<double> base = hfDefault(128, 10000.0);
  CHECK(f.invFreq[20] == relApprox(base[20], 1e-12));  // double path
  CHECK(f.invFreq[21] < base[21]);
  CHECK(f.attentionFactor == relApprox(0.1 * std::log(4.0) + 1, 1e-12));  // 1.13863
}

TEST_CASE("ropeFrequencies yarn attention factor: mscale/mscaleAllDim ratio when both are set, 0.1·ln(factor) + 1 otherwise") {
  for (double factor : {4.0, 16.0, 40.0}) {
    for (double mscale : {0.0, 0.707, 1.0, 2.0}) {
      for (double mscaleAllDim : {0.0, 0.707, 1.0}) {
        CAPTURE(factor);
        CAPTURE(mscale);
        CAPTURE(mscaleAllDim);
        RopeScaling s = yarnScaling(factor, 4096);
        s.mscale = mscale;
        s.mscaleAllDim = mscaleAllDim;
        const posenc::RopeFrequencies f = posenc::ropeFrequencies(64, 10000.0, s);
        const HfYarn ref = hfYarn(64, 10000.0, factor, 4096, 32, 1, mscale, mscaleAllDim);
        CHECK(f.attentionFactor == relApprox(ref.attentionFactor, 1e-12));  // double path
        checkFrequencies(f.invFreq, ref.invFreq);  // mscale never touches the frequencies
      }
    }
  }
  // DeepSeek-V3 style: mscale = mscaleAllDim = 1 cancels to exactly 1.
  RopeScaling s = yarnScaling(40, 4096);
  s.mscale = 1;
  s.mscaleAllDim = 1;
  CHECK(posenc::ropeFrequencies(64, 10000.0, s).attentionFactor == relApprox(1.0, 1e-12));  // double path
  // mscale 2 over mscaleAllDim 1 at factor 16: (0.2 ln 16 + 1) / (0.1 ln 16 + 1).
  s = yarnScaling(16, 4096);
  s.mscale = 2;
  s.mscaleAllDim = 1;
  CHECK(posenc::ropeFrequencies(64, 10000.0, s).attentionFactor ==
        relApprox((0.2 * std::log(16.0) + 1) / (0.1 * std::log(16.0) + 1), 1e-12));  // double path
  // An explicit attentionFactor wins over both.
  s.attentionFactor = 0.5;
  CHECK(posenc::ropeFrequencies(64, 10000.0, s).attentionFactor == 0.5);
  // factor 1: get_mscale(1) = 1 and the frequencies are the default ones.
  const posenc::RopeFrequencies one = posenc::ropeFrequencies(64, 10000.0, yarnScaling(1, 4096));
  CHECK(one.attentionFactor == 1.0);
  checkFrequencies(one.invFreq, hfDefault(64, 10000.0));
}

TEST_CASE("ropeFrequencies yarn with low == high adds 0.001 to high (d = 8, Lorig 1: both clamp to 0)") {
  const HfYarn ref = hfYarn(8, 10000.0, 4, 1);
  CHECK(ref.low == 0.0);
  CHECK(ref.high == 0.0);
  const posenc::RopeFrequencies f = posenc::ropeFrequencies(8, 10000.0, yarnScaling(4, 1));
  checkFrequencies(f.invFreq, ref.invFreq);
  const std::vector<double> base = hfDefault(8, 10000.0);
  CHECK(f.invFreq[0] == relApprox(base[0], 1e-12));  // ramp(0) = 0
  for (int j = 1; j < 4; ++j) CHECK(f.invFreq[j] == relApprox(base[j] / 4, 1e-12));  // ramp = j/0.001 -> 1
}

TEST_CASE("ropeFrequencies yarn matches HF over a sweep of d, base, factor, Lorig, betas and truncate") {
  posenc_test::Rng rng(21);
  for (int trial = 0; trial < 200; ++trial) {
    const int dim = 2 * (1 + rng.below(128));
    const double base = rng.logUniform(2, 1e7);
    const double factor = rng.uniform(1, 64);
    const double originalMax = std::floor(rng.logUniform(1, 1e6));
    const double betaFast = rng.uniform(1, 64), betaSlow = rng.uniform(0.1, 4);
    const bool truncate = rng.below(2) == 0;
    CAPTURE(dim);
    CAPTURE(base);
    CAPTURE(factor);
    CAPTURE(originalMax);
    RopeScaling s = yarnScaling(factor, originalMax);
    s.betaFast = betaFast;
    s.betaSlow = betaSlow;
    s.truncate = truncate;
    const HfYarn ref = hfYarn(dim, base, factor, originalMax, betaFast, betaSlow, 0, 0, truncate);
    const posenc::RopeFrequencies f = posenc::ropeFrequencies(dim, base, s);
    checkFrequencies(f.invFreq, ref.invFreq);
    CHECK(f.attentionFactor == relApprox(ref.attentionFactor, 1e-12));  // double path
  }
}

TEST_CASE("ropeFrequencies llama3 factor 8 (low 1, high 4, Lorig 8192, base 500000) keeps short wavelengths, divides long ones, blends between") {
  RopeScaling s;
  s.type = RopeScalingType::Llama3;
  s.factor = 8;
  s.lowFreqFactor = 1;
  s.highFreqFactor = 4;
  s.originalMaxPositions = 8192;
  const posenc::RopeFrequencies f = posenc::ropeFrequencies(128, 500000.0, s);
  checkFrequencies(f.invFreq, hfLlama3(128, 500000.0, 8, 1, 4, 8192));
  CHECK(f.attentionFactor == 1.0);
  const std::vector<double> base = hfDefault(128, 500000.0);
  int kept = 0, divided = 0, blended = 0;
  for (int j = 0; j < 64; ++j) {
    const double wavelen = 2 * kPi / base[j];
    CAPTURE(j);
    if (wavelen < 8192.0 / 4) {
      CHECK(f.invFreq[j] == base[j]);  // untouched: bitwise
      ++kept;
    } else if (wavelen > 8192.0 / 1) {
      CHECK(f.invFreq[j] == relApprox(base[j] / 8, 1e-12));  // double path
      ++divided;
    } else {
      CHECK(f.invFreq[j] < base[j]);
      CHECK(f.invFreq[j] > base[j] / 8);
      ++blended;
    }
  }
  // The three bands are all present for Llama 3's head dim 128.
  CHECK(kept > 0);
  CHECK(divided > 0);
  CHECK(blended > 0);
  CHECK(kept + divided + blended == 64);
}

TEST_CASE("ropeFrequencies longrope uses shortFactor up to Lorig and longFactor beyond it") {
  const int dim = 16;
  std::vector<double> shortF(dim / 2), longF(dim / 2);
  for (int j = 0; j < dim / 2; ++j) {
    shortF[j] = 1.0 + 0.05 * j;
    longF[j] = 1.0 + 3.0 * j;
  }
  RopeScaling s;
  s.type = RopeScalingType::Longrope;
  s.originalMaxPositions = 4096;
  s.maxPositions = 131072;  // Phi-3-mini-128k
  s.shortFactor = shortF;
  s.longFactor = longF;
  for (double seqLen : {kNaN, 0.0, 1.0, 4096.0, 4097.0, 131072.0}) {
    CAPTURE(seqLen);
    s.seqLen = seqLen;
    const posenc::RopeFrequencies f = posenc::ropeFrequencies(dim, 10000.0, s);
    const HfLongrope ref = hfLongrope(dim, 10000.0, shortF, longF, 131072, 4096, seqLen);
    checkFrequencies(f.invFreq, ref.invFreq);
    const bool useLong = seqLen > 4096;
    const std::vector<double>& ext = useLong ? longF : shortF;
    CHECK(f.invFreq[3] == relApprox(1.0 / (ext[3] * std::pow(10000.0, 6.0 / 16)), 1e-12));  // double path
    // sqrt(1 + ln 32 / ln 4096) = sqrt(1 + 5/12) = sqrt(17/12) = 1.19024
    CHECK(f.attentionFactor == relApprox(std::sqrt(17.0 / 12.0), 1e-12));  // double path
    CHECK(f.attentionFactor == relApprox(ref.attentionFactor, 1e-12));  // double path
  }
  // maxPositions <= Lorig: no extension, attention factor 1. An explicit one wins.
  s.maxPositions = 4096;
  s.seqLen = kNaN;
  CHECK(posenc::ropeFrequencies(dim, 10000.0, s).attentionFactor == 1.0);
  s.attentionFactor = 1.5;
  CHECK(posenc::ropeFrequencies(dim, 10000.0, s).attentionFactor == 1.5);
}

TEST_CASE("ropeScalingTypeFromName and ropeLayoutFromName know HF's names and name the bad argument") {
  CHECK(posenc::ropeScalingTypeFromName("default") == RopeScalingType::Default);
  CHECK(posenc::ropeScalingTypeFromName("linear") == RopeScalingType::Linear);
  CHECK(posenc::ropeScalingTypeFromName("dynamic") == RopeScalingType::Dynamic);
  CHECK(posenc::ropeScalingTypeFromName("yarn") == RopeScalingType::Yarn);
  CHECK(posenc::ropeScalingTypeFromName("llama3") == RopeScalingType::Llama3);
  CHECK(posenc::ropeScalingTypeFromName("longrope") == RopeScalingType::Longrope);
  CHECK(posenc::ropeScalingTypeFromName("ntk") == RopeScalingType::Ntk);
  CHECK(posenc::ropeLayoutFromName("half") == RopeLayout::Half);
  CHECK(posenc::ropeLayoutFromName("interleaved") == RopeLayout::Interleaved);
  for (const char* bad : {"", "NTK", "Yarn", "su"}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH_AS(posenc::ropeScalingTypeFromName(bad), doctest::Contains("scaling.type must be one of"),
                         TypeError);
  }
  CHECK_THROWS_WITH_AS(posenc::ropeLayoutFromName("gptj"), doctest::Contains("layout must be 'half' or 'interleaved', got 'gptj'"),
                       TypeError);
}

// [SECTION] application -------------------------------------------------------------------------

TEST_CASE("ropeApply rotates pairs (a, b) to (a cos − b sin, b cos + a sin) within 2e-6 at positions up to 100000, both layouts") {
  posenc_test::Rng rng(3);
  MaxError err;
  for (int trial = 0; trial < 60; ++trial) {
    const int dim = 2 * (1 + rng.below(70));
    const RopeLayout layout = trial % 2 ? RopeLayout::Interleaved : RopeLayout::Half;
    const int rows = 1 + rng.below(6);
    std::vector<double> positions(rows);
    for (double& p : positions) p = std::floor(rng.uniform(0, 100001));
    positions[0] = 100000;  // the far end every time
    std::vector<float> x(size_t(rows) * dim);
    for (float& v : x) v = float(rng.uniform(-1, 1));
    const double base = trial % 3 ? 10000.0 : 500000.0;
    const std::vector<float> y = apply(x, positions, dim, layout, posenc::ropeFrequencies(dim, base));
    for (int r = 0; r < rows; ++r) {
      const std::vector<float> xr(x.begin() + size_t(r) * dim, x.begin() + size_t(r + 1) * dim);
      const std::vector<double> want = referenceRotate(xr, positions[r], hfDefault(dim, base), layout);
      for (int c = 0; c < dim; ++c) err.add(y[size_t(r) * dim + c], want[c], dim);
    }
  }
  MESSAGE("ropeApply max abs error vs double, positions <= 1e5: " << err.value << " (at dim " << err.where << ")");
  CHECK(err.value <= 2e-6);  // the brief's bound for float outputs
}

TEST_CASE("ropeApply stays within 2e-6 of the double rotation at the last int32 position 2^31 − 1") {
  posenc_test::Rng rng(31);
  const int dim = 128;
  std::vector<float> x(dim);
  for (float& v : x) v = float(rng.uniform(-1, 1));
  const std::vector<double> positions = {posenc::kMaxPosition};
  MaxError err;
  for (RopeLayout layout : {RopeLayout::Half, RopeLayout::Interleaved}) {
    const std::vector<float> y = apply(x, positions, dim, layout, posenc::ropeFrequencies(dim, 10000.0));
    const std::vector<double> want = referenceRotate(x, posenc::kMaxPosition, hfDefault(dim, 10000.0), layout);
    for (int c = 0; c < dim; ++c) err.add(y[c], want[c]);
  }
  MESSAGE("ropeApply max abs error vs double at position 2^31 - 1: " << err.value);
  CHECK(err.value <= 2e-6);  // the brief's bound for float outputs
}

TEST_CASE("ropeApply half and interleaved layouts differ by the fixed permutation (i, i + d/2) <-> (2i, 2i + 1)") {
  posenc_test::Rng rng(8);
  for (int dim : {2, 4, 6, 8, 16, 34, 64}) {
    CAPTURE(dim);
    const int n = dim / 2;
    const std::vector<double> positions = {0, 1, 7, 4096, 99999};
    std::vector<float> half(positions.size() * dim), inter(half.size());
    for (size_t r = 0; r < positions.size(); ++r) {
      for (int i = 0; i < n; ++i) {
        const float a = float(rng.uniform(-1, 1)), b = float(rng.uniform(-1, 1));
        half[r * dim + i] = a;
        half[r * dim + i + n] = b;
        inter[r * dim + 2 * i] = a;
        inter[r * dim + 2 * i + 1] = b;
      }
    }
    const posenc::RopeFrequencies f = posenc::ropeFrequencies(dim, 10000.0);
    const std::vector<float> h = apply(half, positions, dim, RopeLayout::Half, f);
    const std::vector<float> it = apply(inter, positions, dim, RopeLayout::Interleaved, f);
    for (size_t r = 0; r < positions.size(); ++r) {
      for (int i = 0; i < n; ++i) {
        // Same angles, same float operations on the same pair: bitwise equal.
        CHECK(h[r * dim + i] == it[r * dim + 2 * i]);
        CHECK(h[r * dim + i + n] == it[r * dim + 2 * i + 1]);
      }
    }
  }
}

TEST_CASE("ropeApply with d = 2: half and interleaved layouts coincide") {
  const std::vector<double> positions = {0, 1, 2, 3, 50, 100000};
  std::vector<float> x = {0.3f, -0.7f, 1, 0, 0.5f, 0.5f, -1, 2, 0.25f, 0.125f, 0.9f, -0.1f};
  const posenc::RopeFrequencies f = posenc::ropeFrequencies(2, 10000.0);
  const std::vector<float> h = apply(x, positions, 2, RopeLayout::Half, f);
  const std::vector<float> it = apply(x, positions, 2, RopeLayout::Interleaved, f);
  for (size_t i = 0; i < x.size(); ++i) CHECK(h[i] == it[i]);
  // Row 2 at position 1: (1, 0) rotates to (cos 1, sin 1); 1e-6 float32 output tolerance.
  CHECK(h[2] == doctest::Approx(std::cos(1.0)).epsilon(1e-6));
  CHECK(h[3] == doctest::Approx(std::sin(1.0)).epsilon(1e-6));
}

TEST_CASE("ropeApply at position 0 leaves x unchanged and multiplies by the attention factor (yarn factor 4: 1.13863)") {
  std::vector<float> x = {0.1f, -0.2f, 0.3f, -0.4f, 0.5f, -0.6f, 0.7f, -0.8f};
  const std::vector<double> zero = {0};
  const std::vector<float> same = apply(x, zero, 8, RopeLayout::Half, posenc::ropeFrequencies(8, 10000.0));
  for (size_t i = 0; i < x.size(); ++i) CHECK(same[i] == x[i]);  // cos 0 = 1, sin 0 = 0 exactly
  const posenc::RopeFrequencies f = posenc::ropeFrequencies(8, 10000.0, yarnScaling(4, 4096));
  CHECK(f.attentionFactor == doctest::Approx(1.13863).epsilon(1e-5));  // 0.1 ln 4 + 1, 6 digits
  for (RopeLayout layout : {RopeLayout::Half, RopeLayout::Interleaved}) {
    const std::vector<float> scaled = apply(x, zero, 8, layout, f);
    for (size_t i = 0; i < x.size(); ++i) {
      CHECK(scaled[i] == doctest::Approx(x[i] * f.attentionFactor).epsilon(1e-6));  // two float roundings
    }
  }
  // And at a non-zero position, HF scales both cos and sin: |pair| grows by the factor.
  const std::vector<float> far = apply(x, {12345}, 8, RopeLayout::Interleaved, f);
  for (int i = 0; i < 4; ++i) {
    const double before = std::hypot(x[2 * i], x[2 * i + 1]);
    const double after = std::hypot(far[2 * i], far[2 * i + 1]);
    CHECK(after == doctest::Approx(before * f.attentionFactor).epsilon(1e-6));  // float32 rotation, ~4 roundings
  }
}

TEST_CASE("readout (e): d = 8, q = k = (0.6, 0.4) in all four pairs, qpos 3, kpos 7: q·k = 1.17864") {
  for (RopeLayout layout : {RopeLayout::Half, RopeLayout::Interleaved}) {
    CAPTURE(layout == RopeLayout::Half);
    // Build the vector so that every pair is (a, b) = (0.6, 0.4) in the layout used.
    std::vector<float> v(8);
    for (int i = 0; i < 4; ++i) {
      if (layout == RopeLayout::Half) {
        v[i] = 0.6f;
        v[i + 4] = 0.4f;
      } else {
        v[2 * i] = 0.6f;
        v[2 * i + 1] = 0.4f;
      }
    }
    const posenc::RopeFrequencies f = posenc::ropeFrequencies(8, 10000.0);
    const std::vector<float> q = apply(v, {3}, 8, layout, f);
    const std::vector<float> k = apply(v, {7}, 8, layout, f);
    // Float32 inputs 0.6f/0.4f and rotations: 1e-5 relative covers both (REFERENCES prints 6 digits).
    CHECK(dot(q.data(), k.data(), 8) == doctest::Approx(1.17864).epsilon(1e-5));
    CHECK(dot(v.data(), v.data(), 8) == doctest::Approx(2.08).epsilon(1e-6));  // unrotated: 4 * 0.52
    // Pair 0 alone: 0.52 cos(4) = -0.340.
    const int a = 0, b = layout == RopeLayout::Half ? 4 : 1;
    const double pair0 = double(q[a]) * k[a] + double(q[b]) * k[b];
    CHECK(pair0 == doctest::Approx(-0.340).epsilon(1e-3));  // 3 digits as printed
  }
}

TEST_CASE("readout (f): with q = k = (0.6, 0.4) pairs, d = 8, m = 2, n = 8, RoPE q·k = 0.52 × 3.78369 = 1.96752") {
  std::vector<float> v(8);
  for (int i = 0; i < 4; ++i) {
    v[2 * i] = 0.6f;
    v[2 * i + 1] = 0.4f;
  }
  const posenc::RopeFrequencies f = posenc::ropeFrequencies(8, 10000.0);
  const std::vector<float> q = apply(v, {2}, 8, RopeLayout::Interleaved, f);
  const std::vector<float> k = apply(v, {8}, 8, RopeLayout::Interleaved, f);
  CHECK(dot(q.data(), k.data(), 8) == doctest::Approx(1.96752).epsilon(1e-5));  // 6 digits as printed
  CHECK(0.52 * 3.78369 == doctest::Approx(1.96752).epsilon(1e-6));  // the readout's own arithmetic
}

TEST_CASE("ropeApply q·k depends only on m − n (shifts up to 90000)") {
  posenc_test::Rng rng(4);
  for (int trial = 0; trial < 20; ++trial) {
    const int dim = 2 * (1 + rng.below(64));
    std::vector<float> q(dim), k(dim);
    for (float& v : q) v = float(rng.uniform(-1, 1));
    for (float& v : k) v = float(rng.uniform(-1, 1));
    const double m = std::floor(rng.uniform(0, 5000)), n = std::floor(rng.uniform(0, 5000));
    const double shift = std::floor(rng.uniform(0, 90000));
    const RopeLayout layout = trial % 2 ? RopeLayout::Half : RopeLayout::Interleaved;
    const posenc::RopeFrequencies f = posenc::ropeFrequencies(dim, 10000.0);
    const double base = dot(apply(q, {m}, dim, layout, f).data(), apply(k, {n}, dim, layout, f).data(), dim);
    const double shifted =
        dot(apply(q, {m + shift}, dim, layout, f).data(), apply(k, {n + shift}, dim, layout, f).data(), dim);
    // Exact value: a pair is the complex number a + ib, rotated by e^{i m θ}. Then
    // Re(q' conj(k')) = Re(q conj(k) e^{iΔ}) = (aq ak + bq bk) cos Δ − (bq ak − aq bk) sin Δ,
    // Δ = (m − n) θ_i: a function of m − n only.
    double exact = 0;
    const int half = dim / 2;
    for (int i = 0; i < half; ++i) {
      const int ia = layout == RopeLayout::Half ? i : 2 * i;
      const int ib = layout == RopeLayout::Half ? i + half : 2 * i + 1;
      const double delta = (m - n) * f.invFreq[i];
      exact += (double(q[ia]) * k[ia] + double(q[ib]) * k[ib]) * std::cos(delta) -
               (double(q[ib]) * k[ia] - double(q[ia]) * k[ib]) * std::sin(delta);
    }
    CAPTURE(dim);
    CAPTURE(shift);
    // Each rotated component is within ~5e-7 of exact (|a|, |b| <= 1), so the dot of dim terms
    // is within dim * 2 * 5e-7 <= 1.3e-4; 2e-4 absolute.
    CHECK(base == doctest::Approx(exact).epsilon(2e-4));
    CHECK(shifted == doctest::Approx(exact).epsilon(2e-4));
  }
}

// [SECTION] argument checks -------------------------------------------------------------------

TEST_CASE("ropeFrequencies rejects odd dim, dim < 2 or over kMaxDim, and names dim") {
  for (int dim : {3, 5, 127}) {
    CAPTURE(dim);
    CHECK_THROWS_WITH_AS(posenc::ropeFrequencies(dim, 10000.0), doctest::Contains("dim must be even"), RangeError);
  }
  for (int dim : {0, 1, -2, posenc::kMaxDim + 2}) {
    CAPTURE(dim);
    CHECK_THROWS_WITH_AS(posenc::ropeFrequencies(dim, 10000.0), doctest::Contains("dim must be an integer in [2, 8192]"),
                         RangeError);
  }
}

TEST_CASE("ropeFrequencies rejects base NaN, ±Infinity, <= 1 or over kMaxBase") {
  for (double bad : {kNaN, kInf, -kInf, 1.0, 0.0, -5.0, 1e13}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH_AS(posenc::ropeFrequencies(8, bad), doctest::Contains("base must be a finite number"), RangeError);
  }
}

TEST_CASE("ropeFrequencies dynamic rejects dim = 2 (d/(d − 2) is undefined)") {
  RopeScaling s;
  s.type = RopeScalingType::Dynamic;
  s.factor = 2;
  s.maxPositions = 2048;
  CHECK_THROWS_WITH_AS(posenc::ropeFrequencies(2, 10000.0, s), doctest::Contains("dim must be at least 4 for dynamic"),
                       RangeError);
  CHECK_NOTHROW(posenc::ropeFrequencies(4, 10000.0, s));
}

TEST_CASE("ropeFrequencies rejects scaling factors that are NaN, infinite, below 1 or over kMaxFactor") {
  for (RopeScalingType type : {RopeScalingType::Linear, RopeScalingType::Dynamic, RopeScalingType::Yarn,
                               RopeScalingType::Llama3}) {
    for (double bad : {kNaN, kInf, -kInf, 0.5, -2.0, 2e6}) {
      CAPTURE(int(type));
      CAPTURE(bad);
      RopeScaling s;
      s.type = type;
      s.factor = bad;
      s.maxPositions = 2048;
      s.originalMaxPositions = 4096;
      CHECK_THROWS_WITH_AS(posenc::ropeFrequencies(64, 10000.0, s), doctest::Contains("scaling.factor must be"),
                           RangeError);
    }
  }
}

TEST_CASE("ropeFrequencies rejects bad positions limits, betas, mscales and llama3 band factors, naming the field") {
  RopeScaling s = yarnScaling(4, 0);
  CHECK_THROWS_WITH_AS(posenc::ropeFrequencies(64, 10000.0, s), doctest::Contains("scaling.originalMaxPositions must be"),
                       RangeError);
  s = yarnScaling(4, 4096.5);
  CHECK_THROWS_WITH_AS(posenc::ropeFrequencies(64, 10000.0, s), doctest::Contains("scaling.originalMaxPositions"),
                       RangeError);
  s = yarnScaling(4, 4096);
  s.betaFast = 0;
  CHECK_THROWS_WITH_AS(posenc::ropeFrequencies(64, 10000.0, s), doctest::Contains("scaling.betaFast"), RangeError);
  s = yarnScaling(4, 4096);
  s.betaSlow = kNaN;
  CHECK_THROWS_WITH_AS(posenc::ropeFrequencies(64, 10000.0, s), doctest::Contains("scaling.betaSlow"), RangeError);
  s = yarnScaling(4, 4096);
  s.mscale = -1;
  CHECK_THROWS_WITH_AS(posenc::ropeFrequencies(64, 10000.0, s), doctest::Contains("scaling.mscale must be"), RangeError);
  s = yarnScaling(4, 4096);
  s.mscaleAllDim = kInf;
  CHECK_THROWS_WITH_AS(posenc::ropeFrequencies(64, 10000.0, s), doctest::Contains("scaling.mscaleAllDim"), RangeError);
  s = yarnScaling(4, 4096);
  s.attentionFactor = 0;
  CHECK_THROWS_WITH_AS(posenc::ropeFrequencies(64, 10000.0, s), doctest::Contains("scaling.attentionFactor"), RangeError);

  RopeScaling d;
  d.type = RopeScalingType::Dynamic;
  d.factor = 2;
  d.maxPositions = 0;
  CHECK_THROWS_WITH_AS(posenc::ropeFrequencies(64, 10000.0, d), doctest::Contains("scaling.maxPositions"), RangeError);
  d.maxPositions = 2048;
  d.seqLen = -1;
  CHECK_THROWS_WITH_AS(posenc::ropeFrequencies(64, 10000.0, d), doctest::Contains("scaling.seqLen"), RangeError);
  d.seqLen = kInf;
  CHECK_THROWS_WITH_AS(posenc::ropeFrequencies(64, 10000.0, d), doctest::Contains("scaling.seqLen"), RangeError);

  RopeScaling l;
  l.type = RopeScalingType::Llama3;
  l.factor = 8;
  l.originalMaxPositions = 8192;
  l.lowFreqFactor = 4;
  l.highFreqFactor = 4;  // the blend divides by high - low
  CHECK_THROWS_WITH_AS(posenc::ropeFrequencies(64, 500000.0, l), doctest::Contains("scaling.highFreqFactor"),
                       RangeError);
  l.lowFreqFactor = 0;
  CHECK_THROWS_WITH_AS(posenc::ropeFrequencies(64, 500000.0, l), doctest::Contains("scaling.lowFreqFactor"),
                       RangeError);
}

TEST_CASE("ropeFrequencies longrope rejects factor lists of the wrong length (TypeError) or with bad entries (RangeError)") {
  RopeScaling s;
  s.type = RopeScalingType::Longrope;
  s.originalMaxPositions = 4096;
  s.maxPositions = 131072;
  s.shortFactor = std::vector<double>(8, 1.0);
  s.longFactor = std::vector<double>(7, 1.0);
  CHECK_THROWS_WITH_AS(posenc::ropeFrequencies(16, 10000.0, s),
                       doctest::Contains("scaling.longFactor must have length 8, got 7"), TypeError);
  s.longFactor = std::vector<double>(8, 1.0);
  s.shortFactor = {};
  CHECK_THROWS_WITH_AS(posenc::ropeFrequencies(16, 10000.0, s), doctest::Contains("scaling.shortFactor must have length 8"),
                       TypeError);
  for (double bad : {kNaN, kInf, 0.0, -1.0}) {
    CAPTURE(bad);
    s.shortFactor = std::vector<double>(8, 1.0);
    s.shortFactor[5] = bad;
    CHECK_THROWS_WITH_AS(posenc::ropeFrequencies(16, 10000.0, s), doctest::Contains("scaling.shortFactor[5]"),
                         RangeError);
  }
}

TEST_CASE("ropeApply rejects positions that are NaN, infinite, negative, fractional or past 2^31 − 1, and leaves x untouched") {
  const posenc::RopeFrequencies f = posenc::ropeFrequencies(4, 10000.0);
  for (double bad : {kNaN, kInf, -kInf, -1.0, 0.5, 2147483648.0}) {
    CAPTURE(bad);
    std::vector<float> x(12, 0.25f);
    const std::vector<double> positions = {0, 1, bad};
    CHECK_THROWS_WITH_AS(posenc::ropeApply(x.data(), positions.data(), 3, 4, RopeLayout::Half, f),
                         doctest::Contains("positions[2] must be an integer in [0, 2147483647]"), RangeError);
    for (float v : x) CHECK(v == 0.25f);
  }
  std::vector<float> x(4, 1.0f);
  const std::vector<double> last = {2147483647.0};
  CHECK_NOTHROW(posenc::ropeApply(x.data(), last.data(), 1, 4, RopeLayout::Half, f));
}

TEST_CASE("ropeApply rejects odd dim, a wrong x length and frequencies of the wrong size") {
  const std::vector<double> positions = {0, 1};
  CHECK_THROWS_WITH_AS(posenc::checkRopeApply(nullptr, 10, positions.data(), 2, 5), doctest::Contains("dim must be even"),
                       RangeError);
  CHECK_THROWS_WITH_AS(posenc::checkRopeApply(nullptr, 7, positions.data(), 2, 4), doctest::Contains("x must have length 8, got 7"),
                       TypeError);
  std::vector<float> x(8, 1.0f);
  const posenc::RopeFrequencies wrong = posenc::ropeFrequencies(8, 10000.0);  // 4 frequencies for dim 4
  CHECK_THROWS_WITH_AS(posenc::ropeApply(x.data(), positions.data(), 2, 4, RopeLayout::Half, wrong),
                       doctest::Contains("invFreq must have length 2, got 4"), TypeError);
  for (float v : x) CHECK(v == 1.0f);
}

TEST_CASE("ropeApply rejects more than kMaxRows positions and rows * dim over kMaxElements") {
  const std::vector<double> many(size_t(posenc::kMaxRows) + 1, 0.0);
  CHECK_THROWS_WITH_AS(posenc::checkRopeApply(nullptr, many.size() * 2, many.data(), many.size(), 2),
                       doctest::Contains("positions.length must be an integer"), RangeError);
  CHECK_THROWS_WITH_AS(posenc::checkRopeApply(nullptr, size_t(posenc::kMaxRows) * 32, many.data(), posenc::kMaxRows, 32),
                       doctest::Contains("positions.length * dim must be at most"), RangeError);
}

TEST_CASE("ropeApply rejects a non-finite x before rotating anything") {
  const std::vector<double> positions = {0, 1};
  std::vector<float> x(8, 0.5f);
  x[5] = NAN;
  const posenc::RopeFrequencies f = posenc::ropeFrequencies(4, 10000.0);
  CHECK_THROWS_WITH_AS(posenc::ropeApply(x.data(), positions.data(), 2, 4, RopeLayout::Half, f),
                       doctest::Contains("x[5] must be a finite number, got NaN"), RangeError);
  CHECK(x[0] == 0.5f);
  x[5] = -INFINITY;
  CHECK_THROWS_WITH_AS(posenc::ropeApply(x.data(), positions.data(), 2, 4, RopeLayout::Half, f),
                       doctest::Contains("got -Infinity"), RangeError);
}

TEST_CASE("ropeApply gives the same rotations for consecutive, shuffled and scattered positions") {
  // Consecutive runs take their angles by angle addition from a base row, others are reduced
  // one by one; both must match double within the float32 budget.
  const int dim = 64;
  const posenc::RopeFrequencies f = posenc::ropeFrequencies(dim, 10000.0);
  std::vector<double> positions;
  for (int p = 0; p < 40; ++p) positions.push_back(p);              // a run
  for (int p : {99990, 5, 77, 78, 79, 3, 100000, 12, 13}) positions.push_back(p);  // jumps
  const size_t rows = positions.size();
  std::vector<float> x(rows * dim);
  for (size_t i = 0; i < x.size(); ++i) x[i] = float(std::sin(0.37 * double(i)) * 0.8);
  std::vector<float> y = x;
  posenc::ropeApply(y.data(), positions.data(), rows, dim, RopeLayout::Half, f);
  double worst = 0;
  for (size_t r = 0; r < rows; ++r) {
    for (int i = 0; i < dim / 2; ++i) {
      const double a = x[r * dim + i], b = x[r * dim + i + dim / 2];
      const double angle = positions[r] * f.invFreq[i];
      worst = std::max(worst, std::fabs(y[r * dim + i] - (a * std::cos(angle) - b * std::sin(angle))));
      worst = std::max(worst, std::fabs(y[r * dim + i + dim / 2] - (b * std::cos(angle) + a * std::sin(angle))));
    }
  }
  MESSAGE("ropeApply max abs error over runs and jumps: " << worst);
  CHECK(worst <= 1.5e-6);  // |x| < 0.8 per component: 2 * 0.8 * 5e-7 from the angles + roundings
}

}  // namespace rope_test
