// One attention head per position family; see family_attention.hpp for the model.
//
// Index
//   [NAMES]    family names
//   [CHECKS]   argument checks
//   [CONTENT]  the seeded token contents, kept for the last (seed, dim)
//   [COMPUTE]  queries and keys per family, scores in blocks of rows, softmax, bins
#include "family_attention.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "errors.hpp"
#include "families/registry.hpp"
#include "kernels/dispatch.hpp"
#include "learned.hpp"
#include "limits.hpp"
#include "relative.hpp"

namespace posenc {

// [NAMES] -------------------------------------------------------------------------------------
int positionFamilyFromName(const std::string& name) {
  if (name == "relative") return families::familyFromName("t5");
  try {
    return families::familyFromName(name);
  } catch (const TypeError&) {
    throw TypeError("family must be one of " + families::familyNames() + " ('relative' is 't5'), got '" +
                    name + "'");
  }
}

// [CHECKS] ------------------------------------------------------------------------------------
namespace {

T5Params t5Of(const FamilyAttentionParams& p) {
  T5Params t;
  t.bidirectional = !p.causal;  // an encoder sees both sides; a decoder only the past
  t.numBuckets = int(p.numBuckets);
  t.maxDistance = int(p.maxDistance);
  return t;
}

}  // namespace

void checkFamilyAttention(const FamilyAttentionParams& p, const double* rows, size_t rowCount) {
  requireInt("family", p.family, 0, families::kFamilyCount - 1);
  requireInt("n", p.n, 1, kFamilyMaxTokens);
  requireInt("dim", p.dim, 2, kFamilyMaxDim);
  requireEven("dim", int64_t(p.dim));
  requireInt("columns", p.columns, 1, p.n);
  requireInt("query", p.query, 0, p.n - 1);
  requireInt("seed", p.seed, 0, kFamilyMaxSeed);
  requireRealAbove("base", p.base, 1.0, kMaxBase);
  requireInt("heads", p.heads, 1, kFamilyMaxHeads);
  requireInt("head", p.head, 0, p.heads - 1);
  requireInt("numBuckets", p.numBuckets, 4, kMaxBuckets);
  requireEven("numBuckets", int64_t(p.numBuckets));
  requireInt("maxDistance", p.maxDistance, 1, kMaxDistance);
  checkT5(t5Of(p), nullptr, 0);  // maxDistance must leave room for the log-spaced buckets
  if (p.family == families::familyFromName("rope")) checkRope(int(p.dim), p.base, p.ropeScaling);
  requireInt("rows.length", double(rowCount), 0, p.n);
  if (double(rowCount) * p.n > double(kMaxElements)) {
    throw RangeError("rows.length * n must be at most " + std::to_string(kMaxElements) + ", got " +
                     detail::fmt(double(rowCount) * p.n));
  }
  for (size_t r = 0; r < rowCount; ++r) {
    const double v = rows[r];
    if (!(std::isfinite(v) && v == std::floor(v) && v >= 0 && v <= p.n - 1)) {
      throw RangeError("rows[" + std::to_string(r) + "] must be an integer in [0, " +
                       detail::fmt(p.n - 1) + "], got " + detail::fmt(v));
    }
  }
}

double t5StandInBias(int bucket, int numBuckets, bool bidirectional) {
  const int perDirection = bidirectional ? numBuckets / 2 : numBuckets;
  return -kT5StandInDepth * double(bucket % perDirection) / double(perDirection - 1);
}

// [CONTENT] -----------------------------------------------------------------------------------
namespace {

// Rows 0..rows-1 of the query contents a, the key contents b and (when asked for) the learned
// table L, for one (seed, dim). Rows depend only on (seed, dim, row), so a longer sequence
// extends the arrays instead of starting over.
struct Content {
  int dim = 0;
  double seed = -1;
  int rows = 0, learnedRows = 0;
  std::vector<float> a, b, learned;
};

void appendRows(double seed, int dim, double stdDev, int from, int to, bool shared,
                std::vector<float>& out) {
  LearnedParams lp;
  lp.maxPositions = kMaxRows;
  lp.dModel = dim;
  lp.seed = seed;
  lp.stdDev = stdDev;
  std::vector<double> positions(size_t(to - from));
  for (int t = from; t < to; ++t) positions[size_t(t - from)] = t;
  out.resize(size_t(to) * dim);
  float* first = out.data() + size_t(from) * dim;
  learned(lp, positions.data(), positions.size(), first);
  if (!shared) return;
  for (int t = from; t < to; ++t) {
    float* row = out.data() + size_t(t) * dim;
    for (int c = 0; c < dim; ++c) row[c] += ((c / 2) % 2 == 0) ? kSharedAmplitude : -kSharedAmplitude;
  }
}

const Content& contentFor(int dim, double seed, int n, bool withLearned) {
  static Content cache;
  if (cache.dim != dim || cache.seed != seed) {
    cache = Content();
    cache.dim = dim;
    cache.seed = seed;
  }
  if (cache.rows < n) {
    appendRows(3 * seed, dim, kContentStd, cache.rows, n, true, cache.a);
    appendRows(3 * seed + 1, dim, kContentStd, cache.rows, n, true, cache.b);
    cache.rows = n;
  }
  if (withLearned && cache.learnedRows < n) {
    appendRows(3 * seed + 2, dim, kLearnedStd, cache.learnedRows, n, false, cache.learned);
    cache.learnedRows = n;
  }
  return cache;
}

// [COMPUTE] -----------------------------------------------------------------------------------
constexpr size_t kBlockRows = 64;  // score rows per Q·Kᵀ call: 64 x 8192 floats at most (2 MiB)

// The family's hooks see one head of width dim over positions 0..n-1.
families::FamilyShape shapeOf(const FamilyAttentionParams& p) {
  families::FamilyShape s;
  s.dModel = int(p.dim);
  s.headDim = int(p.dim);
  s.heads = int(p.heads);
  s.maxPositions = int(p.n);
  s.base = p.base;
  s.numBuckets = int(p.numBuckets);
  s.maxDistance = int(p.maxDistance);
  s.causal = p.causal;  // an encoder's T5 buckets see both sides, a decoder's only the past
  s.ropeScaling = p.ropeScaling;
  s.ropeLayout = p.ropeLayout;
  return s;
}

// The stand-in for the family's trained tensor: the seeded learned table, or T5 stand-in biases
// (the same row for every head).
std::vector<float> standInParams(const FamilyAttentionParams& p, const families::FamilyShape& s,
                                 const Content& content) {
  std::vector<float> out;
  families::visit(p.family, [&](auto fam) {
    using Fam = decltype(fam);
    if constexpr (std::is_same_v<Fam, families::Learned>) {
      out.assign(content.learned.begin(), content.learned.begin() + ptrdiff_t(size_t(p.n) * size_t(p.dim)));
    } else if constexpr (std::is_same_v<Fam, families::T5>) {
      out.resize(size_t(s.heads) * size_t(s.numBuckets));
      for (size_t x = 0; x < out.size(); ++x) {
        out[x] = static_cast<float>(t5StandInBias(int(x % size_t(s.numBuckets)), s.numBuckets, !s.causal));
      }
    }
  });
  return out;
}

// Adds the family's position part to rows of queries (at positions qpos) and to all n keys, and
// returns its bias by offset j - i (at index j - i + n - 1; empty when it adds none).
std::vector<float> applyFamily(const FamilyAttentionParams& p, const Content& content,
                               const std::vector<double>& qpos, std::vector<float>& q, std::vector<float>& k) {
  const families::FamilyShape s = shapeOf(p);
  const std::vector<float> params = standInParams(p, s, content);
  const int n = int(p.n);
  std::vector<int> qp(qpos.begin(), qpos.end()), kp(static_cast<size_t>(n));
  for (int t = 0; t < n; ++t) kp[size_t(t)] = t;
  std::vector<float> bias;
  families::visit(p.family, [&](auto fam) {
    using Fam = decltype(fam);
    std::vector<float> fixed;
    Fam::prepare(s, fixed);
    if constexpr (Fam::kEmbeds) {
      Fam::embed(s, params.data(), fixed, qp.data(), qp.size(), q.data());
      Fam::embed(s, params.data(), fixed, kp.data(), kp.size(), k.data());
    }
    if constexpr (Fam::kRotates) {
      Fam::rotate(s, fixed, qp.data(), qp.size(), q.data(), size_t(s.headDim), false);
      Fam::rotate(s, fixed, kp.data(), kp.size(), k.data(), size_t(s.headDim), false);
    }
    if constexpr (Fam::kBiases) {
      bias.resize(size_t(2 * n - 1));
      Fam::bias(s, params.data(), fixed, int(p.head), n, bias.data());
    }
  });
  return bias;
}

// The attention of the gathered query rows q (nq x d, at positions qpos) against keys k (n x d),
// in blocks of rows: rows 0..nq-2 summed into `columns` key bins (cells), the last row returned
// exactly (scores, probs). biasByOffset: 2n - 1 floats by key - query + n - 1, or empty.
void attendRows(const std::vector<double>& qpos, const float* q, const float* k, int n, int d, int columns,
                bool causal, const float* biasByOffset, float* cells, float* scores, float* probs) {
  const size_t nq = qpos.size();
  std::vector<int> edges(size_t(columns) + 1);
  for (int c = 0; c <= columns; ++c) edges[size_t(c)] = int(int64_t(c) * n / columns);

  const float scale = static_cast<float>(1.0 / std::sqrt(double(d)));
  std::vector<float> block(std::min(nq, kBlockRows) * size_t(n));
  for (size_t start = 0; start < nq; start += kBlockRows) {
    const size_t count = std::min(kBlockRows, nq - start);
    // Causal: no row of this block sees a key past its last query, so the scores stop there
    // (about half the work of a full square).
    int keys = n;
    if (causal) {
      int last = 0;
      for (size_t r = 0; r < count; ++r) last = std::max(last, int(qpos[start + r]));
      keys = last + 1;
    }
    kernels::qk(q + start * d, count, k, size_t(keys), size_t(d), scale, block.data());
    for (size_t r = 0; r < count; ++r) {
      const size_t at = start + r;
      const int i = int(qpos[at]);
      float* row = block.data() + r * size_t(keys);
      if (biasByOffset) {
        const float* b = biasByOffset + (n - 1 - i);  // b[j] is the bias of offset j - i
        for (int j = 0; j < keys; ++j) row[j] += b[j];
      }
      if (causal) std::fill(row + i + 1, row + keys, -INFINITY);
      if (at + 1 == nq) {
        std::copy_n(row, keys, scores);
        std::fill(scores + keys, scores + n, -INFINITY);
      }
      kernels::softmaxRow(row, size_t(keys));
      if (at + 1 == nq) {
        std::copy_n(row, keys, probs);
        std::fill(probs + keys, probs + n, 0.0f);
        continue;
      }
      float* out = cells + at * columns;
      for (int c = 0; c < columns; ++c) {
        const int hi = std::min(edges[size_t(c) + 1], keys);
        float sum = 0.0f;
        for (int j = edges[size_t(c)]; j < hi; ++j) sum += row[j];
        out[c] = sum;
      }
    }
  }
}

}  // namespace

void familyContent(int dim, double seed, int n, FamilyContent which, float* out) {
  requireInt("n", n, 1, kFamilyMaxTokens);
  requireInt("dim", dim, 2, kFamilyMaxDim);
  requireEven("dim", dim);
  requireInt("seed", seed, 0, kFamilyMaxSeed);
  const Content& c = contentFor(dim, seed, n, which == FamilyContent::Learned);
  const std::vector<float>& rows = which == FamilyContent::Query ? c.a : which == FamilyContent::Key ? c.b : c.learned;
  std::copy_n(rows.data(), size_t(n) * size_t(dim), out);
}

void familyAttention(const FamilyAttentionParams& p, const double* rows, size_t rowCount,
                     float* cells, float* scores, float* probs) {
  checkFamilyAttention(p, rows, rowCount);
  const int n = int(p.n), d = int(p.dim), columns = int(p.columns);
  const bool learnedTable = p.family == families::familyFromName("learned");
  const Content& content = contentFor(d, p.seed, n, learnedTable);

  // The drawn rows, then the chosen query last: one Q·Kᵀ pass gives all of them.
  std::vector<double> qpos(rows, rows + rowCount);
  qpos.push_back(p.query);
  const size_t nq = qpos.size();
  std::vector<float> q(nq * d);
  for (size_t r = 0; r < nq; ++r) {
    std::copy_n(content.a.data() + size_t(qpos[r]) * d, d, q.data() + r * d);
  }
  std::vector<float> k(content.b.begin(), content.b.begin() + ptrdiff_t(size_t(n) * d));
  const std::vector<float> bias = applyFamily(p, content, qpos, q, k);
  attendRows(qpos, q.data(), k.data(), n, d, columns, p.causal, bias.empty() ? nullptr : bias.data(), cells,
             scores, probs);
}

void binnedAttention(const BinnedAttentionParams& p, const float* q, const float* k, const double* rows,
                     size_t rowCount, float* cells, float* scores, float* probs) {
  requireInt("n", p.n, 1, kFamilyMaxTokens);
  requireInt("dim", p.dim, 1, kMaxDim);
  requireInt("columns", p.columns, 1, p.n);
  requireInt("query", p.query, 0, p.n - 1);
  requireInt("rows.length", double(rowCount), 0, p.n);
  for (size_t r = 0; r < rowCount; ++r) {
    const double v = rows[r];
    if (!(std::isfinite(v) && v == std::floor(v) && v >= 0 && v <= p.n - 1)) {
      throw RangeError("rows[" + std::to_string(r) + "] must be an integer in [0, " +
                       detail::fmt(p.n - 1) + "], got " + detail::fmt(v));
    }
  }
  const int n = p.n, d = p.dim;
  std::vector<double> qpos(rows, rows + rowCount);
  qpos.push_back(p.query);
  std::vector<float> gathered(qpos.size() * size_t(d));
  for (size_t r = 0; r < qpos.size(); ++r) {
    std::copy_n(q + size_t(qpos[r]) * d, d, gathered.data() + r * d);
  }
  attendRows(qpos, gathered.data(), k, n, d, p.columns, p.causal, p.biasByOffset, cells, scores, probs);
}

}  // namespace posenc
