// Rotary position embedding (Su et al., RoFormer) with every frequency scaling of Hugging Face
// transformers' modeling_rope_utils.py: default, linear, dynamic (NTK), yarn, llama3, longrope;
// and static NTK-aware scaling, which HF does not ship.
//
//   default   inv_freq_i = base^(-2i/d), i < d/2
//   linear    inv_freq_i / factor                                   (position interpolation)
//   dynamic   base' = base * (factor * L / Lmax - factor + 1)^(d/(d-2)), L = max(seqLen, Lmax)
//   yarn      blend of inv_freq and inv_freq/factor over a linear ramp between the dims that
//             turn beta_fast and beta_slow times within Lorig; attention factor from mscale
//   llama3    keep high frequencies, divide low ones by factor, blend the band between
//   longrope  1 / (ext_i * base^(2i/d)), ext = long_factor when seqLen > Lorig
//   ntk       base' = base * factor^(d/(d-2)): static "NTK-aware" scaling (bloc97 2023, written
//             out in the YaRN paper). Not an HF rope_type: HF ships only the dynamic form, and a
//             model trained this way simply states the larger rope_theta.
//
// Application rotates each pair (a, b) to (a cos - b sin, b cos + a sin) * attentionFactor with
// angle pos * inv_freq_i. Layouts: Half pairs (i, i + d/2) like HF rotate_half; Interleaved
// pairs (2i, 2i + 1) like RoFormer, GPT-J and Meta's llama.
#pragma once

#include <cmath>
#include <string>
#include <vector>

namespace posenc {

enum class RopeScalingType { Default, Linear, Dynamic, Yarn, Llama3, Longrope, Ntk };
enum class RopeLayout { Half, Interleaved };

struct RopeScaling {
  RopeScalingType type = RopeScalingType::Default;
  double factor = 1.0;              // every type but default and longrope
  double maxPositions = 0;          // dynamic, longrope
  double seqLen = NAN;              // dynamic, longrope; NaN: not given
  double originalMaxPositions = 0;  // yarn, llama3, longrope
  double betaFast = 32, betaSlow = 1;              // yarn
  double mscale = 0, mscaleAllDim = 0;             // yarn; 0: not given
  bool truncate = true;                            // yarn
  double attentionFactor = NAN;                    // yarn, longrope; NaN: derive it
  double lowFreqFactor = 1, highFreqFactor = 4;    // llama3
  std::vector<double> shortFactor, longFactor;     // longrope, d/2 each
};

struct RopeFrequencies {
  std::vector<double> invFreq;  // d/2
  double attentionFactor = 1.0;
};

RopeScalingType ropeScalingTypeFromName(const std::string& name);  // TypeError if unknown
RopeLayout ropeLayoutFromName(const std::string& name);            // TypeError if unknown

void checkRope(int dim, double base, const RopeScaling& s);
RopeFrequencies ropeFrequencies(int dim, double base, const RopeScaling& s = {});

// Checks sizes, x (finite) and positions (integers in [0, 2^31 - 1]) before touching x.
void checkRopeApply(const float* x, size_t xLength, const double* positions, size_t rows, int dim);

// Rotates x (rows x dim, row r at position positions[r]) in place.
void ropeApply(float* x, const double* positions, size_t rows, int dim, RopeLayout layout,
               const RopeFrequencies& f);

}  // namespace posenc
