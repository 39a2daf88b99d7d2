// A decoder-only transformer, forward and backward written out by hand (no autograd).
//
// Index
//   [SHAPE]       sizes, from a TrainConfig
//   [PARAMETERS]  every tensor, named as in the JS API, in one flat buffer
//   [MODEL]       the computation
//   [FUNCTIONS]   init, forward, backward
//
// [MODEL] -------------------------------------------------------------------------------------
// As nanoGPT's pre-LayerNorm GPT block (karpathy/nanoGPT model.py), without biases in the
// linear maps, an untied output head, and the input scaled as fairseq does:
//
//   x    = sqrt(d) · E[token] + P(pos)                P: the family's embed hook, or nothing
//   for each layer:
//     x  = x + Wo · Attn(LN1(x))                      causal multi-head attention below
//     x  = x + W2 · GELU(W1 · LN2(x))                 GELU in its exact erf form
//   logits = LNf(x) · H                               only at rows whose next token is an answer
//   loss = mean over answer tokens of -log softmax(logits)[answer]
//
//   Attn: per head h, q, k, v = slices of LN1(x) · Wqkv; the family's rotate hook turns q and k
//   (RoPE; the hybrid in its RoPE layers only); s_ij = q_i · k_j / sqrt(headDim) + b_h(i, j),
//   -Infinity for j > i; p = softmax_j(s); o_i = sum_j p_ij v_j. The bias: ALiBi's and T5's
//   b_h(P_j - P_i) of the positions P (shared by every layer, as in T5), FIRE's b_h(P_i, P_j)
//   (each layer its own), 0 otherwise.
//   With scalable softmax (Nakanishi 2025, "Scalable-Softmax Is Superior for Attention"), p_i =
//   softmax_j(s_h · ln(n_i) · s_ij): n_i = i + 1, the keys row i attends; s_h a learned scalar per
//   layer and head. SSMax is defined on the whole vector of scores that enters the softmax, so the
//   factor multiplies a bias too (the paper's models have none; its implementation, q scaled by
//   s·ln n, is the same thing without one). Initially s_h = 1 / ln(T), T the rows of the longest
//   training sequence: the model starts as plain softmax at its longest training sequence (the
//   paper does not state an initial value; s = 0.43 of its Figure 1 is an illustration).
//   Why this form and not Llama 4's attention temperature (q · (1 + attn_scale · ln(floor((pos +
//   1) / floor_scale) + 1)), HF modeling_llama4.py, NoPE layers only): with Llama 4's floor_scale
//   of 8192 the factor is exactly 1 below 8191 tokens, so at our lengths it would do nothing, and
//   a floor_scale scaled down to them would be our invention; SSMax has one learned number per
//   head, is defined for every length and family, and its gradient is a plain product rule.
//   Positions P are 0, 1, 2, ... or, with randomised positions, the sequence's drawn ids (tables
//   are indexed by them; RoPE turns by them; biases see their differences).
//   LayerNorm: eps 1e-5, biased variance, a gain and a bias (torch.nn.LayerNorm).
//
// Sequences of a batch are packed row after row (tasks.hpp); everything but attention works
// on all rows at once, attention on each sequence's own rows.
//
// Products go through kernels::gemm (Eigen's product over Maps of these buffers, or the
// project's WebAssembly SIMD kernel for float in a -msimd128 build). The model is a template
// on the number type: float trains; double is the same code for the gradient check.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/families/family.hpp"
#include "core/train/config.hpp"
#include "core/train/tasks.hpp"

namespace posenc::train {

// [SHAPE] -------------------------------------------------------------------------------------
struct ModelShape {
  int vocab = 0, dModel = 0, layers = 0, heads = 0, headDim = 0, mlp = 0;
  int maxPositions = 0;  // position ids: the longest sequence of any train or test length, or M
  int family = 0;        // registry id
  bool scalableSoftmax = false;
  double temperatureInit = 0;  // scalable softmax: the initial s_h
  families::FamilyShape familyShape;
};

ModelShape shapeOf(const TrainConfig& c);

// [PARAMETERS] --------------------------------------------------------------------------------
// Weights are stored input-major (in x out, so y = x · W); PyTorch's nn.Linear keeps out x in.
//   embed.tokens        vocab x d        N(0, 1/d)            (fairseq's token embedding)
//   layers.L.ln1.weight / .bias  1 x d   1 / 0
//   layers.L.attn.qkv   d x 3d           N(0, 0.02^2)         columns: q | k | v, head h at h·headDim
//   layers.L.attn.out   d x d            N(0, (0.02/sqrt(2·layers))^2)   (nanoGPT's c_proj)
//   layers.L.ln2.weight / .bias  1 x d   1 / 0
//   layers.L.attn.temperature  1 x heads  1 / ln(T)         (scalable softmax only)
//   layers.L.mlp.up     d x mlp          N(0, 0.02^2)
//   layers.L.mlp.down   mlp x d          N(0, (0.02/sqrt(2·layers))^2)
//   final.ln.weight / .bias      1 x d   1 / 0
//   head                d x vocab        N(0, 0.02^2)
//   position.*          the family's own tensors (families/*.hpp)
// Weight decay applies to tensors with more than one row and column (matrices and tables), as
// nanoGPT's configure_optimizers does; not to LayerNorm gains and biases.
struct TensorInfo {
  std::string name;
  int rows = 0, cols = 0;
  size_t offset = 0;
  double initStd = 0;   // 0 with initValue: a constant
  double initValue = 0;
  bool decay = false;
  size_t size() const { return size_t(rows) * size_t(cols); }
};

struct LayerOffsets {
  size_t ln1w, ln1b, qkv, out, temperature, ln2w, ln2b, up, down;  // temperature: scalable softmax only
};

struct Layout {
  std::vector<TensorInfo> tensors;
  size_t total = 0;
  size_t tokens = 0, lnfw = 0, lnfb = 0, head = 0;
  size_t family = 0, familySize = 0;  // the family's tensors, one after another
  std::vector<LayerOffsets> layers;
};

Layout layoutOf(const ModelShape& s);

// Draws every tensor from its own stream of (seed, tensor name), so tensors two families share
// start from the same values for the same seed.
template <class T>
void initParameters(const Layout& layout, double seed, T* params);

// [FUNCTIONS] ---------------------------------------------------------------------------------
// What a forward pass keeps for the backward pass and for the figures.
template <class T>
struct Activations {
  int rows = 0, targets = 0, longest = 0;
  std::vector<size_t> probOffset;  // sequence s: its heads' T x T probabilities start here
  size_t probSize = 0;
  int span = 0;  // 1 + the largest position id of the batch: the bias tables' half-width
  // FIRE: the batch's distinct (query, key) position pairs, and for every sequence's query i and
  // key j <= i (sequence q's at pairAt[q] + i·n + j) the index of its pair.
  std::vector<int> pairQ, pairK, pairIndex;
  std::vector<size_t> pairAt;
  struct Layer {
    std::vector<T> x, ln1Hat, ln1Rstd, h1, qkv, probs, att, mid, ln2Hat, ln2Rstd, h2, up, cdf, act;
    std::vector<T> scores;  // scalable softmax: the scores before the factor (probs' layout)
    std::vector<T> pairTable;  // FIRE: the layer's bias of each distinct pair, heads x pairs
    std::vector<T> pairs;      // the same, for every query and key (probs' layout)
  };
  std::vector<Layer> layers;
  std::vector<T> last, lnfHat, lnfRstd, hf, logits, softmax;  // logits and their softmax, answer rows
  std::vector<T> biasTables;  // heads x (2·span - 1), offset o = P_j - P_i at o + span - 1 (ALiBi, T5)
  // The backward pass's buffers, kept so a training loop does not allocate them every step.
  struct Gradients {
    std::vector<T> dz, dhf, dlast, dx, dBias, dAct, dh, dAtt, dqkv, scratch, dPairs, dPairTable;
  };
  Gradients work;
};

struct ForwardResult {
  double loss = 0;          // mean cross-entropy over answer tokens
  int correctTokens = 0;    // answer tokens that are the top choice
  int exactSequences = 0;   // sequences whose every answer token is
  std::vector<char> exact;  // per sequence
};

template <class T>
class Model {
 public:
  explicit Model(const ModelShape& shape);
  const ModelShape& shape() const { return shape_; }
  const Layout& layout() const { return layout_; }

  // Runs the batch; keeps what backward needs in `act`.
  ForwardResult forward(const T* params, const Batch& batch, Activations<T>& act) const;
  // Gradients of forward's mean loss, into grads (layout().total values, overwritten).
  void backward(const T* params, const Batch& batch, Activations<T>& act, T* grads) const;

 private:
  ModelShape shape_;
  Layout layout_;
  std::vector<T> fixed_;  // the family's fixed tables (families::*::prepare)
};

}  // namespace posenc::train
