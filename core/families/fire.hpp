// FIRE (Li et al., ICLR 2024, "Functional Interpolation for Relative Positions Improves Long
// Context Transformers"): each layer adds to the score of query i and key j (positions, j <= i)
//
//   b_h(i, j) = f_θ( ψ(i − j) / ψ(max(L, i)) )_h,     ψ(x) = ln(|c·x| + 1)
//
// f_θ an MLP from one input to one output per head; c and L learned. The log spreads small
// distances apart; dividing by ψ of the query's position ("progressive interpolation") keeps the
// MLP's input in [0, 1] however long the sequence; the threshold L keeps short prefixes from
// being divided by almost nothing. Every detail below follows the FIRE module that Li et al.'s
// paper prints and that mcleish7/arithmetic (cramming/architectures/embeddings.py, FIRE) uses:
//   f_θ = Linear(1, 32) → ReLU → Linear(32, heads);
//   c a learned scalar, initially 0.1, used as |c·x|;
//   L = |m · L0| with m a learned multiplier, initially 1, and L0 fixed;
//   the input is ψ(i − j) / (ψ(max(i, L)) + 1e-6);
//   one FIRE per attention layer (the module lives in each layer's attention).
// Our choices, where the reference's numbers are made for other lengths or layouts:
//   L0: the reference sets 512 for models trained on 2,048 tokens, a quarter of the context. Our
//     sequences are 10–20 tokens long, where 512 would switch the interpolation off (every query
//     divided by ψ(512)); we keep the proportion: L0 = a quarter of the positions training uses
//     (the longest training sequence, or M with randomised positions). FamilyShape.fireThreshold.
//   Initial weights: torch's Linear draws U(−1/√fan_in, 1/√fan_in); we draw normals of the same
//     variance (std 1/√(3·fan_in)), as every tensor of the model is drawn (model.cpp).
//   The output layer has no bias: a constant per head, added to every score of a row, cancels in
//     the softmax, so its gradient is zero and all AdamW did with it was a walk on rounding noise
//     (the reference's Linear has one; it changes nothing the model computes).
//   Tensors are stored input-major like the model's (in × out): in.weight is 1 × 32, out.weight
//     32 × heads. Weight decay follows the model's rule (tensors with more than one row and
//     column: out.weight only).
//   At a tie i = L the maximum's gradient is split evenly between i and L, as torch.maximum's
//     is (ties happen: L0 is often a whole number, and the multiplier starts at exactly 1).
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "core/families/family.hpp"

namespace posenc::families {

struct Fire : FamilyBase {
  static constexpr const char* kName = "fire";
  static constexpr bool kPairBiases = true;
  static constexpr bool kFigure = false;  // all trained weights: no stand-in to draw
  static constexpr int kWidth = 32;       // the MLP's hidden width
  static constexpr double kInitC = 0.1;
  static constexpr double kEps = 1e-6;

  // One layer's block of parameters, in this order.
  struct Offsets {
    size_t inW = 0, inB = 0, outW = 0, c = 0, m = 0, size = 0;
  };
  static Offsets offsets(const FamilyShape& s) {
    Offsets o;
    o.inW = 0;
    o.inB = o.inW + kWidth;
    o.outW = o.inB + kWidth;
    o.c = o.outW + size_t(kWidth) * size_t(s.heads);
    o.m = o.c + 1;
    o.size = o.m + 1;
    return o;
  }

  static std::vector<TensorSpec> tensors(const FamilyShape& s) {
    std::vector<TensorSpec> out;
    const double in = 1.0 / std::sqrt(3.0), hidden = 1.0 / std::sqrt(3.0 * kWidth);
    for (int l = 0; l < s.layers; ++l) {
      const std::string p = "position.fire." + std::to_string(l) + ".";
      out.push_back({p + "in.weight", 1, kWidth, in, 0});
      out.push_back({p + "in.bias", 1, kWidth, in, 0});
      out.push_back({p + "out.weight", kWidth, s.heads, hidden, 0});
      out.push_back({p + "c", 1, 1, 0, kInitC});
      out.push_back({p + "threshold", 1, 1, 0, 1});  // m: L = |m · L0|
    }
    return out;
  }

  // The MLP's input for query position i and key position j (j <= i), and its parts.
  template <class T>
  struct Input {
    T x, psiD, psiQ, q, u, v;  // x = psiD / (psiQ + eps); u = |c|(i-j) + 1; v = |c| q + 1
    T share;                   // dq/dL: 1 when L > i, 1/2 at a tie, 0 when i > L
  };
  template <class T>
  static Input<T> input(const FamilyShape& s, const T* p, int i, int j) {
    Input<T> in;
    const T c = std::abs(p[0]), L = std::abs(p[1] * T(s.fireThreshold));
    in.share = L > T(i) ? T(1) : L == T(i) ? T(0.5) : T(0);
    in.q = L >= T(i) ? L : T(i);
    // ln(1 + a) as log1p: c·x is small for near keys, where ln(1 + a) in float would keep only the
    // digits of a that survive the addition.
    in.u = c * T(i - j) + T(1);
    in.v = c * in.q + T(1);
    in.psiD = std::log1p(c * T(i - j));
    in.psiQ = std::log1p(c * in.q);
    in.x = in.psiD / (in.psiQ + T(kEps));
    return in;
  }

  // b_h(i, j) for every head (out: heads values) at MLP input x; hidden: the ReLU's outputs.
  template <class T>
  static void mlp(const FamilyShape& s, const T* block, T x, T* hidden, T* out) {
    const Offsets o = offsets(s);
    for (int h = 0; h < s.heads; ++h) out[h] = T(0);
    for (int w = 0; w < kWidth; ++w) {
      const T pre = block[o.inW + size_t(w)] * x + block[o.inB + size_t(w)];
      hidden[w] = pre > T(0) ? pre : T(0);
      if (hidden[w] == T(0)) continue;
      const T* row = block + o.outW + size_t(w) * size_t(s.heads);
      for (int h = 0; h < s.heads; ++h) out[h] += hidden[w] * row[h];
    }
  }

  // b_h(qpos[k], kpos[k]) of `count` pairs (each kpos[k] <= qpos[k]): out[h·count + k].
  template <class T>
  static void pairBias(const FamilyShape& s, const T* params, int layer, const int* qpos, const int* kpos,
                       size_t count, T* out) {
    const Offsets o = offsets(s);
    const T* block = params + size_t(layer) * o.size;
    T hidden[kWidth];
    std::vector<T> b(static_cast<size_t>(s.heads));
    for (size_t k = 0; k < count; ++k) {
      const Input<T> in = input(s, block + o.c, qpos[k], kpos[k]);
      mlp(s, block, in.x, hidden, b.data());
      for (int h = 0; h < s.heads; ++h) out[size_t(h) * count + k] = b[size_t(h)];
    }
  }

  // dParams += the gradient of the pairs' biases, given dOut (same layout as out).
  template <class T>
  static void pairBiasBackward(const FamilyShape& s, const T* params, int layer, const int* qpos, const int* kpos,
                               size_t count, const T* dOut, T* dParams) {
    const Offsets o = offsets(s);
    const T* block = params + size_t(layer) * o.size;
    T* g = dParams + size_t(layer) * o.size;
    const T c = block[o.c], m = block[o.m];
    const T sc = c < T(0) ? T(-1) : T(1), sm = m < T(0) ? T(-1) : T(1);
    T hidden[kWidth];
    std::vector<T> b(static_cast<size_t>(s.heads));
    // c and m gather a term from every pair, terms of both signs: summed in double.
    double dc = 0, dm = 0;
    for (size_t k = 0; k < count; ++k) {
      const Input<T> in = input(s, block + o.c, qpos[k], kpos[k]);
      mlp(s, block, in.x, hidden, b.data());
      T dx = 0;
      for (int w = 0; w < kWidth; ++w) {
        if (hidden[w] == T(0)) continue;  // ReLU: no gradient through a unit that is off
        const T* row = block + o.outW + size_t(w) * size_t(s.heads);
        T* gRow = g + o.outW + size_t(w) * size_t(s.heads);
        T dh = 0;
        for (int h = 0; h < s.heads; ++h) {
          const T gh = dOut[size_t(h) * count + k];
          gRow[h] += hidden[w] * gh;
          dh += row[h] * gh;
        }
        g[o.inW + size_t(w)] += dh * in.x;
        g[o.inB + size_t(w)] += dh;
        dx += dh * block[o.inW + size_t(w)];
      }
      // x = psiD / (psiQ + eps): through psiD = ln(|c| d + 1) and psiQ = ln(|c| q + 1), q = L = |m L0| or i.
      const T den = in.psiQ + T(kEps);
      const T dPsiD = dx / den, dPsiQ = -dx * in.psiD / (den * den);
      const T d = T(qpos[k] - kpos[k]);
      dc += double(sc * (dPsiD * d / in.u + dPsiQ * in.q / in.v));
      if (in.share > T(0)) dm += double(in.share * dPsiQ * std::abs(c) / in.v * sm * T(s.fireThreshold));
    }
    g[o.c] += T(dc);
    g[o.m] += T(dm);
  }
};

}  // namespace posenc::families
