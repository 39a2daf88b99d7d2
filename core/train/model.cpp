// The transformer of model.hpp, forward and backward.
//
// Index
//   [SHAPE]      sizes and the parameter layout
//   [INIT]       seeded draws
//   [PIECES]     LayerNorm, GELU, softmax rows, products
//   [ATTENTION]  one layer's attention over every sequence, and its gradient
//   [FORWARD]
//   [BACKWARD]
#include "core/train/model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "core/families/registry.hpp"
#include "core/kernels/gemm.hpp"
#include "core/splitmix64.hpp"

namespace posenc::train {

// [SHAPE] -------------------------------------------------------------------------------------
ModelShape shapeOf(const TrainConfig& c) {
  ModelShape s;
  s.vocab = vocabularyOf(c).size();
  s.dModel = int(c.dModel);
  s.layers = int(c.layers);
  s.heads = int(c.heads);
  s.headDim = s.dModel / s.heads;
  s.mlp = int(c.mlp);
  s.maxPositions = positionCount(c);
  s.family = c.family;
  s.scalableSoftmax = c.scalableSoftmax;
  s.temperatureInit = 1.0 / std::log(double(sequenceTokens(c, maxTrainLength(c))));
  families::FamilyShape& f = s.familyShape;
  f.dModel = s.dModel;
  f.heads = s.heads;
  f.headDim = s.headDim;
  f.maxPositions = s.maxPositions;
  f.base = c.base;
  f.numBuckets = int(c.t5Buckets);
  f.maxDistance = int(c.t5MaxDistance);
  f.causal = true;
  f.layers = s.layers;
  f.nopeEvery = int(c.nopeEvery);
  // FIRE's initial threshold: a quarter of the positions training uses (fire.hpp).
  f.fireThreshold = (c.randomPositions > 0 ? c.randomPositions : sequenceTokens(c, maxTrainLength(c))) / 4.0;
  return s;
}

Layout layoutOf(const ModelShape& s) {
  Layout l;
  const int d = s.dModel;
  const double proj = 0.02 / std::sqrt(2.0 * s.layers);
  auto add = [&](const std::string& name, int rows, int cols, double std, double value = 0) {
    TensorInfo t;
    t.name = name;
    t.rows = rows;
    t.cols = cols;
    t.offset = l.total;
    t.initStd = std;
    t.initValue = value;
    t.decay = rows > 1 && cols > 1;
    l.total += t.size();
    l.tensors.push_back(t);
    return t.offset;
  };
  l.tokens = add("embed.tokens", s.vocab, d, 1.0 / std::sqrt(double(d)));
  for (int i = 0; i < s.layers; ++i) {
    const std::string p = "layers." + std::to_string(i) + ".";
    LayerOffsets o;
    o.ln1w = add(p + "ln1.weight", 1, d, 0, 1);
    o.ln1b = add(p + "ln1.bias", 1, d, 0, 0);
    o.qkv = add(p + "attn.qkv", d, 3 * d, 0.02);
    o.out = add(p + "attn.out", d, d, proj);
    o.temperature = s.scalableSoftmax ? add(p + "attn.temperature", 1, s.heads, 0, s.temperatureInit) : 0;
    o.ln2w = add(p + "ln2.weight", 1, d, 0, 1);
    o.ln2b = add(p + "ln2.bias", 1, d, 0, 0);
    o.up = add(p + "mlp.up", d, s.mlp, 0.02);
    o.down = add(p + "mlp.down", s.mlp, d, proj);
    l.layers.push_back(o);
  }
  l.lnfw = add("final.ln.weight", 1, d, 0, 1);
  l.lnfb = add("final.ln.bias", 1, d, 0, 0);
  l.head = add("head", d, s.vocab, 0.02);
  l.family = l.total;
  families::visit(s.family, [&](auto fam) {
    for (const families::TensorSpec& t : decltype(fam)::tensors(s.familyShape)) {
      add(t.name, t.rows, t.cols, t.initStd, t.initValue);
    }
  });
  l.familySize = l.total - l.family;
  return l;
}

// [INIT] --------------------------------------------------------------------------------------
namespace {

uint64_t nameHash(const std::string& name) {  // FNV-1a: a stream per tensor name
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char ch : name) h = (h ^ ch) * 0x100000001b3ull;
  return h;
}

}  // namespace

template <class T>
void initParameters(const Layout& layout, double seed, T* params) {
  for (const TensorInfo& t : layout.tensors) {
    T* out = params + t.offset;
    if (t.initStd == 0) {
      std::fill(out, out + t.size(), T(t.initValue));
      continue;
    }
    SplitMix64 rng{nameHash(t.name) ^ (uint64_t(seed) * 0x9E3779B97F4A7C15ull)};
    // Box-Muller, both draws used; the values are rounded to float first so that the float and
    // double models start from the same numbers.
    for (size_t i = 0; i < t.size(); i += 2) {
      const double u1 = 1.0 - rng.uniform(), u2 = rng.uniform();
      const double r = std::sqrt(-2.0 * std::log(u1)), a = 2.0 * M_PI * u2;
      out[i] = T(float(t.initStd * r * std::cos(a)));
      if (i + 1 < t.size()) out[i + 1] = T(float(t.initStd * r * std::sin(a)));
    }
  }
}

// [PIECES] ------------------------------------------------------------------------------------
namespace {

constexpr double kLayerNormEps = 1e-5;

template <class T>
void layerNorm(const T* x, size_t rows, size_t d, const T* w, const T* b, T* hat, T* rstd, T* y) {
  for (size_t r = 0; r < rows; ++r) {
    const T* xr = x + r * d;
    T mean = 0;
    for (size_t c = 0; c < d; ++c) mean += xr[c];
    mean /= T(d);
    T var = 0;
    for (size_t c = 0; c < d; ++c) var += (xr[c] - mean) * (xr[c] - mean);
    var /= T(d);
    const T rs = T(1) / std::sqrt(var + T(kLayerNormEps));
    rstd[r] = rs;
    for (size_t c = 0; c < d; ++c) {
      const T hv = (xr[c] - mean) * rs;
      hat[r * d + c] = hv;
      y[r * d + c] = hv * w[c] + b[c];
    }
  }
}

// dx (+)= LayerNorm's input gradient; dw, db accumulate.
template <class T>
void layerNormBackward(const T* dy, const T* hat, const T* rstd, size_t rows, size_t d, const T* w, T* dw, T* db,
                       T* dx, bool accumulate) {
  for (size_t r = 0; r < rows; ++r) {
    const T* g = dy + r * d;
    const T* hr = hat + r * d;
    T meanG = 0, meanGH = 0;
    for (size_t c = 0; c < d; ++c) {
      const T gh = g[c] * w[c];
      meanG += gh;
      meanGH += gh * hr[c];
      dw[c] += g[c] * hr[c];
      db[c] += g[c];
    }
    meanG /= T(d);
    meanGH /= T(d);
    T* out = dx + r * d;
    for (size_t c = 0; c < d; ++c) {
      const T v = rstd[r] * (g[c] * w[c] - meanG - hr[c] * meanGH);
      out[c] = accumulate ? out[c] + v : v;
    }
  }
}

constexpr double kInvSqrt2 = 0.70710678118654752440;
constexpr double kInvSqrt2Pi = 0.39894228040143267794;

// GELU(x) = x · Φ(x), Φ the standard normal CDF; its derivative Φ(x) + x · φ(x). The forward pass
// keeps Φ(x) so the backward pass needs no second erf (erf was a sixth of a step's time).
template <class T>
T normalCdf(T x) {
  return T(0.5) * (T(1) + std::erf(x * T(kInvSqrt2)));
}
template <class T>
T geluGrad(T x, T cdf) {
  return cdf + x * T(kInvSqrt2Pi) * std::exp(T(-0.5) * x * x);
}

// y = x · W (beta 0) or y += x · W: x is rows x in, W in x out.
template <class T>
void matmul(const T* x, size_t rows, size_t in, const T* w, size_t out, T* y, T beta = 0) {
  kernels::gemm<T>(false, false, rows, out, in, x, in, w, out, beta, y, out);
}

}  // namespace

// [ATTENTION] ---------------------------------------------------------------------------------
namespace {

// The family's bias by offset for every head, each 2·span - 1 values (offset o = P_j - P_i at
// o + span - 1, span = 1 + the largest position id of the batch); empty when it adds none.
template <class T>
void biasTables(const ModelShape& s, const T* familyParams, const std::vector<T>& fixed, int span,
                std::vector<T>& out) {
  out.clear();
  families::visit(s.family, [&](auto fam) {
    using Fam = decltype(fam);
    if constexpr (Fam::kBiases) {
      const size_t width = size_t(2 * span - 1);
      out.assign(size_t(s.heads) * width, T(0));
      for (int h = 0; h < s.heads; ++h) {
        Fam::bias(s.familyShape, familyParams, fixed, h, span, out.data() + size_t(h) * width);
      }
    }
  });
}

// FIRE's bias depends on the two positions only, and the sequences of a batch share most of them
// (without randomised positions every sequence starts at 0): it is computed once per distinct
// pair. The pairs and each query-key's pair, from the batch's positions (a dense index of
// span x span when span <= kDensePairs; past that every query-key is its own pair).
constexpr int kDensePairs = 1024;

template <class T>
void indexPairs(const Batch& b, Activations<T>& act) {
  act.pairQ.clear();
  act.pairK.clear();
  act.pairAt.assign(size_t(b.sequences()) + 1, 0);
  for (int q = 0; q < b.sequences(); ++q) {
    const size_t n = size_t(b.starts[size_t(q) + 1] - b.starts[size_t(q)]);
    act.pairAt[size_t(q) + 1] = act.pairAt[size_t(q)] + n * n;
  }
  act.pairIndex.assign(act.pairAt.back(), -1);
  const bool dense = act.span <= kDensePairs;
  std::vector<int> seen(dense ? size_t(act.span) * size_t(act.span) : 0, -1);
  for (int q = 0; q < b.sequences(); ++q) {
    const int r0 = b.starts[size_t(q)], n = b.starts[size_t(q) + 1] - r0;
    const int* pos = b.positions.data() + r0;
    int* index = act.pairIndex.data() + act.pairAt[size_t(q)];
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j <= i; ++j) {
        int* slot = dense ? &seen[size_t(pos[i]) * size_t(act.span) + size_t(pos[j])] : nullptr;
        if (slot && *slot >= 0) {
          index[i * n + j] = *slot;
          continue;
        }
        const int k = int(act.pairQ.size());
        act.pairQ.push_back(pos[i]);
        act.pairK.push_back(pos[j]);
        index[i * n + j] = k;
        if (slot) *slot = k;
      }
    }
  }
}

// FIRE: the layer's bias of every distinct pair (table) and of every query and key of every
// sequence (out, probs' layout).
template <class T>
void pairBiases(const ModelShape& s, const Batch& b, const Activations<T>& act, const T* familyParams, int layer,
                std::vector<T>& table, std::vector<T>& out) {
  out.clear();
  families::visit(s.family, [&](auto fam) {
    using Fam = decltype(fam);
    if constexpr (Fam::kPairBiases) {
      const size_t count = act.pairQ.size();
      table.resize(size_t(s.heads) * count);
      Fam::pairBias(s.familyShape, familyParams, layer, act.pairQ.data(), act.pairK.data(), count, table.data());
      out.assign(act.probSize, T(0));
      for (int q = 0; q < b.sequences(); ++q) {
        const size_t n = size_t(b.starts[size_t(q) + 1] - b.starts[size_t(q)]);
        const int* index = act.pairIndex.data() + act.pairAt[size_t(q)];
        for (int h = 0; h < s.heads; ++h) {
          T* o = out.data() + act.probOffset[size_t(q)] + size_t(h) * n * n;
          const T* th = table.data() + size_t(h) * count;
          for (size_t i = 0; i < n; ++i) {
            for (size_t j = 0; j <= i; ++j) o[i * n + j] = th[index[i * n + j]];
          }
        }
      }
    }
  });
}

// The gradient of the layer's pair table from that of every query and key (dPairs, probs'
// layout), then through FIRE into dFamily.
template <class T>
void pairBiasesBackward(const ModelShape& s, const Batch& b, const Activations<T>& act, const T* familyParams,
                        int layer, const std::vector<T>& dPairs, std::vector<T>& dTable, T* dFamily) {
  families::visit(s.family, [&](auto fam) {
    using Fam = decltype(fam);
    if constexpr (Fam::kPairBiases) {
      const size_t count = act.pairQ.size();
      dTable.assign(size_t(s.heads) * count, T(0));
      for (int q = 0; q < b.sequences(); ++q) {
        const size_t n = size_t(b.starts[size_t(q) + 1] - b.starts[size_t(q)]);
        const int* index = act.pairIndex.data() + act.pairAt[size_t(q)];
        for (int h = 0; h < s.heads; ++h) {
          const T* d = dPairs.data() + act.probOffset[size_t(q)] + size_t(h) * n * n;
          T* th = dTable.data() + size_t(h) * count;
          for (size_t i = 0; i < n; ++i) {
            for (size_t j = 0; j <= i; ++j) th[index[i * n + j]] += d[i * n + j];
          }
        }
      }
      Fam::pairBiasBackward(s.familyShape, familyParams, layer, act.pairQ.data(), act.pairK.data(), count,
                            dTable.data(), dFamily);
    }
  });
}

template <class T>
void rotateQK(const ModelShape& s, const std::vector<T>& fixed, const Batch& b, T* qkv, int layer, bool inverse) {
  families::visit(s.family, [&](auto fam) {
    using Fam = decltype(fam);
    if constexpr (Fam::kRotates) {
      if (!Fam::rotatesLayer(s.familyShape, layer)) return;
      const size_t d = size_t(s.dModel), stride = 3 * d;
      for (int h = 0; h < s.heads; ++h) {
        const size_t col = size_t(h) * size_t(s.headDim);
        Fam::rotate(s.familyShape, fixed, b.positions.data(), size_t(b.rows()), qkv + col, stride, inverse);
        Fam::rotate(s.familyShape, fixed, b.positions.data(), size_t(b.rows()), qkv + d + col, stride, inverse);
      }
    }
  });
}

// What one layer's attention adds to the scores: an offset table (ALiBi, T5), the layer's pair
// biases (FIRE) or nothing, and the scalable-softmax factors s_h (or none).
template <class T>
struct ScoreTerms {
  const T* offsets = nullptr;   // heads x (2·span - 1)
  const T* pairs = nullptr;     // probs' layout
  const T* temperature = nullptr;  // heads
};

// probs and att for every sequence and head, from qkv (q and k already turned); with scalable
// softmax, scores keeps each score before its factor.
template <class T>
void attend(const ModelShape& s, const Batch& b, const Activations<T>& act, const T* qkv, const ScoreTerms<T>& terms,
            T* probs, T* scores, T* att) {
  const size_t d = size_t(s.dModel), hd = size_t(s.headDim), ld = 3 * d;
  const T scale = T(1) / std::sqrt(T(hd));
  const int span = act.span;
  for (int q = 0; q < b.sequences(); ++q) {
    const size_t r0 = size_t(b.starts[size_t(q)]), n = size_t(b.starts[size_t(q) + 1]) - r0;
    const int* pos = b.positions.data() + r0;
    for (int h = 0; h < s.heads; ++h) {
      const size_t col = size_t(h) * hd, at = act.probOffset[size_t(q)] + size_t(h) * n * n;
      T* p = probs + at;
      // Scores of the whole square in one product; the masked half is overwritten below.
      kernels::gemm<T>(false, true, n, n, hd, qkv + r0 * ld + col, ld, qkv + r0 * ld + d + col, ld, T(0), p, n);
      const T* bh = terms.offsets ? terms.offsets + size_t(h) * size_t(2 * span - 1) : nullptr;
      const T* ph = terms.pairs ? terms.pairs + at : nullptr;
      for (size_t i = 0; i < n; ++i) {
        T* row = p + i * n;
        for (size_t j = 0; j <= i; ++j) {
          row[j] *= scale;
          if (bh) row[j] += bh[pos[j] - pos[i] + span - 1];
          if (ph) row[j] += ph[i * n + j];
        }
        if (terms.temperature) {
          std::copy_n(row, i + 1, scores + at + i * n);
          const T factor = terms.temperature[h] * std::log(T(i + 1));
          for (size_t j = 0; j <= i; ++j) row[j] *= factor;
        }
        T top = -std::numeric_limits<T>::infinity();
        for (size_t j = 0; j <= i; ++j) top = std::max(top, row[j]);
        T sum = 0;
        for (size_t j = 0; j <= i; ++j) {
          row[j] = std::exp(row[j] - top);
          sum += row[j];
        }
        const T inv = T(1) / sum;
        for (size_t j = 0; j <= i; ++j) row[j] *= inv;
        for (size_t j = i + 1; j < n; ++j) row[j] = 0;
      }
      kernels::gemm<T>(false, false, n, hd, n, p, n, qkv + r0 * ld + 2 * d + col, ld, T(0), att + r0 * d + col, d);
    }
  }
}

// Where attendBackward puts the gradients of the score terms (each optional): the offset tables
// (dOffsets, their layout), the pair biases (dPairs, probs' layout), the factors s_h (dTemperature).
template <class T>
struct ScoreGradients {
  T* offsets = nullptr;
  T* pairs = nullptr;
  T* temperature = nullptr;
};

// From datt (rows x d) to dqkv (rows x 3d, q and k still turned) and the score terms' gradients.
template <class T>
void attendBackward(const ModelShape& s, const Batch& b, const Activations<T>& act, const T* qkv, const T* probs,
                    const T* scores, const ScoreTerms<T>& terms, const T* datt, T* dqkv, const ScoreGradients<T>& grads,
                    std::vector<T>& scratch) {
  const size_t d = size_t(s.dModel), hd = size_t(s.headDim), ld = 3 * d;
  const T scale = T(1) / std::sqrt(T(hd));
  const int span = act.span;
  for (int q = 0; q < b.sequences(); ++q) {
    const size_t r0 = size_t(b.starts[size_t(q)]), n = size_t(b.starts[size_t(q) + 1]) - r0;
    const int* pos = b.positions.data() + r0;
    scratch.resize(n * n);
    T* dp = scratch.data();
    for (int h = 0; h < s.heads; ++h) {
      const size_t col = size_t(h) * hd, at = act.probOffset[size_t(q)] + size_t(h) * n * n;
      const T* p = probs + at;
      const T* dO = datt + r0 * d + col;
      // dP = dO · Vᵀ; dV = Pᵀ · dO
      kernels::gemm<T>(false, true, n, n, hd, dO, d, qkv + r0 * ld + 2 * d + col, ld, T(0), dp, n);
      kernels::gemm<T>(true, false, n, hd, n, p, n, dO, d, T(0), dqkv + r0 * ld + 2 * d + col, ld);
      // Softmax: dS_ij = p_ij (dP_ij - sum_k p_ik dP_ik), zero where masked; through the scalable
      // softmax's factor f_i = s_h ln(i + 1): dscore = f_i dS, ds_h += sum ln(i + 1) score dS.
      T* db = grads.offsets ? grads.offsets + size_t(h) * size_t(2 * span - 1) : nullptr;
      T* dpair = grads.pairs ? grads.pairs + at : nullptr;
      T dTemp = 0;
      for (size_t i = 0; i < n; ++i) {
        const T* pr = p + i * n;
        T* row = dp + i * n;
        T dot = 0;
        for (size_t j = 0; j <= i; ++j) dot += pr[j] * row[j];
        const T logKeys = std::log(T(i + 1));
        const T factor = terms.temperature ? terms.temperature[h] * logKeys : T(1);
        for (size_t j = 0; j <= i; ++j) {
          T ds = pr[j] * (row[j] - dot);
          if (terms.temperature) {
            dTemp += ds * logKeys * scores[at + i * n + j];
            ds *= factor;
          }
          if (db) db[pos[j] - pos[i] + span - 1] += ds;
          if (dpair) dpair[i * n + j] = ds;
          row[j] = ds * scale;
        }
        for (size_t j = i + 1; j < n; ++j) row[j] = 0;
      }
      if (grads.temperature) grads.temperature[h] += dTemp;
      // dQ = dS · K; dK = dSᵀ · Q (the scale is in dS)
      kernels::gemm<T>(false, false, n, hd, n, dp, n, qkv + r0 * ld + d + col, ld, T(0), dqkv + r0 * ld + col, ld);
      kernels::gemm<T>(true, false, n, hd, n, dp, n, qkv + r0 * ld + col, ld, T(0), dqkv + r0 * ld + d + col, ld);
    }
  }
}

}  // namespace

// [FORWARD] -----------------------------------------------------------------------------------
template <class T>
Model<T>::Model(const ModelShape& shape) : shape_(shape), layout_(layoutOf(shape)) {
  families::visit(shape.family, [&](auto fam) { decltype(fam)::prepare(shape.familyShape, fixed_); });
}

template <class T>
ForwardResult Model<T>::forward(const T* params, const Batch& b, Activations<T>& act) const {
  const ModelShape& s = shape_;
  const Layout& l = layout_;
  const size_t rows = size_t(b.rows()), d = size_t(s.dModel), m = size_t(s.mlp), V = size_t(s.vocab);
  const size_t nt = b.targetRows.size();
  act.rows = int(rows);
  act.targets = int(nt);
  act.longest = b.longest();
  act.probOffset.assign(size_t(b.sequences()) + 1, 0);
  for (int q = 0; q < b.sequences(); ++q) {
    const size_t n = size_t(b.starts[size_t(q) + 1] - b.starts[size_t(q)]);
    act.probOffset[size_t(q) + 1] = act.probOffset[size_t(q)] + size_t(s.heads) * n * n;
  }
  act.probSize = act.probOffset.back();
  act.span = 1 + *std::max_element(b.positions.begin(), b.positions.end());
  act.layers.resize(size_t(s.layers));

  // Input: sqrt(d) · E[token] + P(pos).
  std::vector<T> x(rows * d);
  const T embedScale = std::sqrt(T(d));
  for (size_t r = 0; r < rows; ++r) {
    const T* e = params + l.tokens + size_t(b.tokens[r]) * d;
    for (size_t c = 0; c < d; ++c) x[r * d + c] = embedScale * e[c];
  }
  const T* familyParams = params + l.family;
  families::visit(s.family, [&](auto fam) {
    using Fam = decltype(fam);
    if constexpr (Fam::kEmbeds) Fam::embed(s.familyShape, familyParams, fixed_, b.positions.data(), rows, x.data());
  });
  biasTables(s, familyParams, fixed_, act.span, act.biasTables);
  if (families::keepsScores(s.family)) indexPairs(b, act);

  for (int li = 0; li < s.layers; ++li) {
    const LayerOffsets& o = l.layers[size_t(li)];
    typename Activations<T>::Layer& a = act.layers[size_t(li)];
    a.x = x;
    a.ln1Hat.resize(rows * d);
    a.ln1Rstd.resize(rows);
    a.h1.resize(rows * d);
    layerNorm(x.data(), rows, d, params + o.ln1w, params + o.ln1b, a.ln1Hat.data(), a.ln1Rstd.data(), a.h1.data());
    a.qkv.resize(rows * 3 * d);
    matmul(a.h1.data(), rows, d, params + o.qkv, 3 * d, a.qkv.data());
    rotateQK(s, fixed_, b, a.qkv.data(), li, false);
    a.probs.resize(act.probSize);
    a.att.resize(rows * d);
    pairBiases(s, b, act, familyParams, li, a.pairTable, a.pairs);
    if (s.scalableSoftmax) a.scores.assign(act.probSize, T(0));
    ScoreTerms<T> terms;
    terms.offsets = act.biasTables.empty() ? nullptr : act.biasTables.data();
    terms.pairs = a.pairs.empty() ? nullptr : a.pairs.data();
    terms.temperature = s.scalableSoftmax ? params + o.temperature : nullptr;
    attend(s, b, act, a.qkv.data(), terms, a.probs.data(), a.scores.data(), a.att.data());
    matmul(a.att.data(), rows, d, params + o.out, d, x.data(), T(1));  // x += att · Wo
    a.mid = x;
    a.ln2Hat.resize(rows * d);
    a.ln2Rstd.resize(rows);
    a.h2.resize(rows * d);
    layerNorm(x.data(), rows, d, params + o.ln2w, params + o.ln2b, a.ln2Hat.data(), a.ln2Rstd.data(), a.h2.data());
    a.up.resize(rows * m);
    matmul(a.h2.data(), rows, d, params + o.up, m, a.up.data());
    a.act.resize(rows * m);
    a.cdf.resize(rows * m);
    for (size_t i = 0; i < rows * m; ++i) {
      a.cdf[i] = normalCdf(a.up[i]);
      a.act[i] = a.up[i] * a.cdf[i];
    }
    matmul(a.act.data(), rows, m, params + o.down, d, x.data(), T(1));  // x += GELU(...) · W2
  }

  // The head, at answer rows only.
  act.last.resize(nt * d);
  for (size_t t = 0; t < nt; ++t) {
    std::copy_n(x.data() + size_t(b.targetRows[t]) * d, d, act.last.data() + t * d);
  }
  act.lnfHat.resize(nt * d);
  act.lnfRstd.resize(nt);
  act.hf.resize(nt * d);
  layerNorm(act.last.data(), nt, d, params + l.lnfw, params + l.lnfb, act.lnfHat.data(), act.lnfRstd.data(),
            act.hf.data());
  act.logits.resize(nt * V);
  matmul(act.hf.data(), nt, d, params + l.head, V, act.logits.data());

  act.softmax.resize(nt * V);
  ForwardResult res;
  res.exact.assign(size_t(b.sequences()), 1);
  double loss = 0;
  for (int q = 0; q < b.sequences(); ++q) {
    for (int t = b.targetStarts[size_t(q)]; t < b.targetStarts[size_t(q) + 1]; ++t) {
      const T* z = act.logits.data() + size_t(t) * V;
      T* pz = act.softmax.data() + size_t(t) * V;
      const size_t target = size_t(b.targetTokens[size_t(t)]);
      size_t best = 0;
      for (size_t v = 1; v < V; ++v) best = z[v] > z[best] ? v : best;
      const T top = z[best];
      T sum = 0;
      for (size_t v = 0; v < V; ++v) sum += std::exp(z[v] - top);
      loss += double(std::log(sum) - (z[target] - top));
      for (size_t v = 0; v < V; ++v) pz[v] = std::exp(z[v] - top) / sum;
      if (best == target) {
        ++res.correctTokens;
      } else {
        res.exact[size_t(q)] = 0;
      }
    }
    res.exactSequences += res.exact[size_t(q)];
  }
  res.loss = nt ? loss / double(nt) : 0;
  return res;
}

// [BACKWARD] ----------------------------------------------------------------------------------
template <class T>
void Model<T>::backward(const T* params, const Batch& b, Activations<T>& act, T* grads) const {
  const ModelShape& s = shape_;
  const Layout& l = layout_;
  const size_t rows = size_t(act.rows), d = size_t(s.dModel), m = size_t(s.mlp), V = size_t(s.vocab);
  const size_t nt = size_t(act.targets);
  std::fill(grads, grads + l.total, T(0));

  // Cross-entropy: dz = (p - onehot) / targets.
  typename Activations<T>::Gradients& w = act.work;
  std::vector<T>& dz = w.dz;
  dz = act.softmax;
  const T inv = nt ? T(1) / T(nt) : T(0);
  for (size_t t = 0; t < nt; ++t) {
    T* row = dz.data() + t * V;
    row[size_t(b.targetTokens[t])] -= T(1);
    for (size_t v = 0; v < V; ++v) row[v] *= inv;
  }
  kernels::gemm<T>(true, false, d, V, nt, act.hf.data(), d, dz.data(), V, T(0), grads + l.head, V);
  std::vector<T>& dhf = w.dhf;
  dhf.resize(nt * d);
  kernels::gemm<T>(false, true, nt, d, V, dz.data(), V, params + l.head, V, T(0), dhf.data(), d);
  std::vector<T>& dlast = w.dlast;
  dlast.resize(nt * d);
  layerNormBackward(dhf.data(), act.lnfHat.data(), act.lnfRstd.data(), nt, d, params + l.lnfw, grads + l.lnfw,
                    grads + l.lnfb, dlast.data(), false);
  std::vector<T>& dx = w.dx;
  dx.assign(rows * d, T(0));
  for (size_t t = 0; t < nt; ++t) {
    T* row = dx.data() + size_t(b.targetRows[t]) * d;
    for (size_t c = 0; c < d; ++c) row[c] += dlast[t * d + c];
  }

  const bool biases = !act.biasTables.empty();
  std::vector<T>& dBias = w.dBias;
  dBias.assign(act.biasTables.size(), T(0));
  const T* familyParams = params + l.family;
  T* dFamily = grads + l.family;
  std::vector<T>&dAct = w.dAct, &dh = w.dh, &dAtt = w.dAtt, &dqkv = w.dqkv, &scratch = w.scratch;
  dAct.resize(rows * m);
  dh.resize(rows * d);
  dAtt.resize(rows * d);
  dqkv.resize(rows * 3 * d);  // every entry written: each row's q, k and v slices of every head
  for (int li = s.layers - 1; li >= 0; --li) {
    const LayerOffsets& o = l.layers[size_t(li)];
    const typename Activations<T>::Layer& a = act.layers[size_t(li)];
    // MLP: x = mid + GELU(h2 · W1) · W2
    kernels::gemm<T>(true, false, m, d, rows, a.act.data(), m, dx.data(), d, T(0), grads + o.down, d);
    kernels::gemm<T>(false, true, rows, m, d, dx.data(), d, params + o.down, d, T(0), dAct.data(), m);
    for (size_t i = 0; i < rows * m; ++i) dAct[i] *= geluGrad(a.up[i], a.cdf[i]);
    kernels::gemm<T>(true, false, d, m, rows, a.h2.data(), d, dAct.data(), m, T(0), grads + o.up, m);
    kernels::gemm<T>(false, true, rows, d, m, dAct.data(), m, params + o.up, m, T(0), dh.data(), d);
    layerNormBackward(dh.data(), a.ln2Hat.data(), a.ln2Rstd.data(), rows, d, params + o.ln2w, grads + o.ln2w,
                      grads + o.ln2b, dx.data(), true);
    // Attention: mid = x + att · Wo
    kernels::gemm<T>(true, false, d, d, rows, a.att.data(), d, dx.data(), d, T(0), grads + o.out, d);
    kernels::gemm<T>(false, true, rows, d, d, dx.data(), d, params + o.out, d, T(0), dAtt.data(), d);
    ScoreTerms<T> terms;
    terms.temperature = s.scalableSoftmax ? params + o.temperature : nullptr;
    ScoreGradients<T> dTerms;
    dTerms.offsets = biases ? dBias.data() : nullptr;
    dTerms.temperature = s.scalableSoftmax ? grads + o.temperature : nullptr;
    if (!a.pairs.empty()) {
      w.dPairs.assign(act.probSize, T(0));
      dTerms.pairs = w.dPairs.data();
    }
    attendBackward(s, b, act, a.qkv.data(), a.probs.data(), a.scores.data(), terms, dAtt.data(), dqkv.data(), dTerms,
                   scratch);
    if (!a.pairs.empty()) pairBiasesBackward(s, b, act, familyParams, li, w.dPairs, w.dPairTable, dFamily);
    rotateQK(s, fixed_, b, dqkv.data(), li, true);  // back through the rotation: turn by -angle
    kernels::gemm<T>(true, false, d, 3 * d, rows, a.h1.data(), d, dqkv.data(), 3 * d, T(0), grads + o.qkv, 3 * d);
    kernels::gemm<T>(false, true, rows, d, 3 * d, dqkv.data(), 3 * d, params + o.qkv, 3 * d, T(0), dh.data(), d);
    layerNormBackward(dh.data(), a.ln1Hat.data(), a.ln1Rstd.data(), rows, d, params + o.ln1w, grads + o.ln1w,
                      grads + o.ln1b, dx.data(), true);
  }

  // Input: x = sqrt(d) · E[token] + P(pos).
  const T embedScale = std::sqrt(T(d));
  for (size_t r = 0; r < rows; ++r) {
    T* g = grads + l.tokens + size_t(b.tokens[r]) * d;
    for (size_t c = 0; c < d; ++c) g[c] += embedScale * dx[r * d + c];
  }
  families::visit(s.family, [&](auto fam) {
    using Fam = decltype(fam);
    if constexpr (Fam::kEmbeds) Fam::embedBackward(s.familyShape, dx.data(), b.positions.data(), rows, dFamily);
    if constexpr (Fam::kBiases) {
      const size_t width = size_t(2 * act.span - 1);
      for (int h = 0; h < s.heads; ++h) {
        Fam::biasBackward(s.familyShape, fixed_, dBias.data() + size_t(h) * width, h, act.span, dFamily);
      }
    }
  });
}

template void initParameters<float>(const Layout&, double, float*);
template void initParameters<double>(const Layout&, double, double*);
template class Model<float>;
template class Model<double>;

}  // namespace posenc::train
