// One attention head per position family; see family_attention.hpp for the model.
//
// Index
//   [CHECKS]   argument checks
//   [CONTENT]  the seeded token contents and the learned stand-in table
//   [COMPUTE]  queries and keys per family, then core/binned_attention.hpp
#include "family_attention.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "errors.hpp"
#include "families/registry.hpp"
#include "learned.hpp"
#include "limits.hpp"
#include "t5.hpp"

namespace posenc {

// [CHECKS] ------------------------------------------------------------------------------------
namespace {

T5Params t5Of(const FamilyAttentionParams& p) {
  T5Params t;
  t.bidirectional = !p.causal;  // an encoder sees both sides; a decoder only the past
  t.numBuckets = int(p.numBuckets);
  t.maxDistance = int(p.maxDistance);
  return t;
}

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

}  // namespace

void checkFamilyAttention(const FamilyAttentionParams& p, const double* rows, size_t rowCount) {
  requireInt("family", p.family, 0, families::kFigureFamilyCount - 1);  // the trainer's own are not drawn
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
  families::visit(int(p.family), [&](auto fam) {
    using Fam = decltype(fam);
    if constexpr (Fam::kRotates) checkRope(Fam::rotaryDims(shapeOf(p)), p.base, p.ropeScaling);
  });
  BinnedAttentionParams b;
  b.n = int(p.n);
  b.dim = int(p.dim);
  b.columns = int(p.columns);
  b.query = int(p.query);
  checkBinnedAttention(b, rows, rowCount);
}

double t5StandInBias(int bucket, int numBuckets, bool bidirectional) {
  const int perDirection = bidirectional ? numBuckets / 2 : numBuckets;
  return -kT5StandInDepth * double(bucket % perDirection) / double(perDirection - 1);
}

// [CONTENT] -----------------------------------------------------------------------------------
namespace {

// The seeded rows at `positions` (row r of out: position positions[r]), dim floats each, of
// N(0, stdDev^2) draws, plus the shared direction mu when `shared` (the contents a and b).
void seededRows(double seed, int dim, double stdDev, bool shared, const std::vector<double>& positions,
                float* out) {
  LearnedParams lp;
  lp.maxPositions = kMaxRows;
  lp.dModel = dim;
  lp.seed = seed;
  lp.stdDev = stdDev;
  learned(lp, positions.data(), positions.size(), out);
  if (!shared) return;
  for (size_t r = 0; r < positions.size(); ++r) {
    float* row = out + r * size_t(dim);
    for (int c = 0; c < dim; ++c) row[c] += ((c / 2) % 2 == 0) ? kSharedAmplitude : -kSharedAmplitude;
  }
}

void contentRows(int dim, double seed, FamilyContent which, const std::vector<double>& positions, float* out) {
  switch (which) {
    case FamilyContent::Query: return seededRows(3 * seed, dim, kContentStd, true, positions, out);
    case FamilyContent::Key: return seededRows(3 * seed + 1, dim, kContentStd, true, positions, out);
    case FamilyContent::Learned: return seededRows(3 * seed + 2, dim, kLearnedStd, false, positions, out);
  }
}

std::vector<double> firstPositions(int n) {
  std::vector<double> positions(static_cast<size_t>(n));
  for (int t = 0; t < n; ++t) positions[size_t(t)] = t;
  return positions;
}

}  // namespace

void familyContent(int dim, double seed, int n, FamilyContent which, float* out) {
  requireInt("n", n, 1, kFamilyMaxTokens);
  requireInt("dim", dim, 2, kFamilyMaxDim);
  requireEven("dim", dim);
  requireInt("seed", seed, 0, kFamilyMaxSeed);
  contentRows(dim, seed, which, firstPositions(n), out);
}

// [COMPUTE] -----------------------------------------------------------------------------------
namespace {


// The stand-in for the family's trained tensor: the seeded learned table (as given), or T5
// stand-in biases (the same row for every head).
std::vector<float> t5StandIns(const families::FamilyShape& s) {
  std::vector<float> out(size_t(s.heads) * size_t(s.numBuckets));
  for (size_t x = 0; x < out.size(); ++x) {
    out[x] = static_cast<float>(t5StandInBias(int(x % size_t(s.numBuckets)), s.numBuckets, !s.causal));
  }
  return out;
}

// Two numbers of a shape that say the same: equal, or both NaN ('not given', or 'derive it').
bool sameDouble(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }
bool sameScaling(const RopeScaling& a, const RopeScaling& b) {
  return a.type == b.type && sameDouble(a.factor, b.factor) && sameDouble(a.maxPositions, b.maxPositions) &&
         sameDouble(a.seqLen, b.seqLen) && sameDouble(a.originalMaxPositions, b.originalMaxPositions) &&
         sameDouble(a.betaFast, b.betaFast) && sameDouble(a.betaSlow, b.betaSlow) && sameDouble(a.mscale, b.mscale) &&
         sameDouble(a.mscaleAllDim, b.mscaleAllDim) && a.truncate == b.truncate &&
         sameDouble(a.attentionFactor, b.attentionFactor) && sameDouble(a.lowFreqFactor, b.lowFreqFactor) &&
         sameDouble(a.highFreqFactor, b.highFreqFactor) && a.shortFactor == b.shortFactor && a.longFactor == b.longFactor;
}
// Whether two shapes give the same fixed tables: they must match in every field, since prepare
// may read any of them.
bool sameShape(const families::FamilyShape& a, const families::FamilyShape& b) {
  return a.dModel == b.dModel && a.heads == b.heads && a.headDim == b.headDim && a.maxPositions == b.maxPositions &&
         sameDouble(a.base, b.base) && a.numBuckets == b.numBuckets && a.maxDistance == b.maxDistance &&
         a.causal == b.causal && sameScaling(a.ropeScaling, b.ropeScaling) && a.ropeLayout == b.ropeLayout;
}

// The family's fixed tables for the shape, from an earlier call that asked for the same family
// and shape: prepare is a function of those alone, and RoPE's tables (the cos and sin of every
// position's angles, computed in double) cost more than the rest of a call that draws one query row
// at n = 2048, which the attention step makes on every move of its query. Each family (each Fam)
// keeps the tables of its last kKeptTables shapes, per thread, the most recent first; the results
// are those of a fresh prepare, bit for bit.
constexpr size_t kKeptTables = 4;

template <class Fam>
const std::vector<float>& fixedTables(const families::FamilyShape& s) {
  struct Kept {
    families::FamilyShape shape;
    std::vector<float> fixed;
  };
  static thread_local std::vector<Kept> kept;
  for (size_t x = 0; x < kept.size(); ++x) {
    if (sameShape(kept[x].shape, s)) {
      std::rotate(kept.begin(), kept.begin() + long(x), kept.begin() + long(x) + 1);  // to the front
      return kept.front().fixed;
    }
  }
  Kept fresh;
  Fam::prepare(s, fresh.fixed);  // may throw: nothing kept changes before it returns
  fresh.shape = s;
  if (kept.size() == kKeptTables) kept.pop_back();
  kept.insert(kept.begin(), std::move(fresh));
  return kept.front().fixed;
}

// Adds the family's position part to rows of queries (at positions qpos) and to all n keys, and
// returns its bias by offset j - i (at index j - i + n - 1; empty when it adds none).
// learnedTable: the n x dim stand-in table ('learned' only).
std::vector<float> applyFamily(const FamilyAttentionParams& p, const float* learnedTable,
                               const std::vector<double>& qpos, std::vector<float>& q, std::vector<float>& k) {
  const families::FamilyShape s = shapeOf(p);
  const std::vector<float> biases = p.family == families::familyFromName("t5") ? t5StandIns(s) : std::vector<float>();
  const float* params = learnedTable ? learnedTable : biases.data();
  const int n = int(p.n);
  std::vector<int> qp(qpos.begin(), qpos.end()), kp(static_cast<size_t>(n));
  for (int t = 0; t < n; ++t) kp[size_t(t)] = t;
  std::vector<float> bias;
  families::visit(p.family, [&](auto fam) {
    using Fam = decltype(fam);
    const std::vector<float>& fixed = fixedTables<Fam>(s);
    if constexpr (Fam::kEmbeds) {
      Fam::embed(s, params, fixed, qp.data(), qp.size(), q.data());
      Fam::embed(s, params, fixed, kp.data(), kp.size(), k.data());
    }
    if constexpr (Fam::kRotates) {
      Fam::rotate(s, fixed, qp.data(), qp.size(), q.data(), size_t(s.headDim), false);
      Fam::rotate(s, fixed, kp.data(), kp.size(), k.data(), size_t(s.headDim), false);
    }
    if constexpr (Fam::kBiases) {
      bias.resize(size_t(2 * n - 1));
      Fam::bias(s, params, fixed, int(p.head), n, bias.data());
    }
  });
  return bias;
}

}  // namespace

void familyAttention(const FamilyAttentionParams& p, const FamilyContents& contents, const double* rows,
                     size_t rowCount, float* cells, float* scores, float* probs) {
  checkFamilyAttention(p, rows, rowCount);
  const int n = int(p.n), d = int(p.dim);
  const size_t nd = size_t(n) * size_t(d);

  // The asked rows, then the chosen query last (binnedAttentionOfRows' layout).
  std::vector<double> qpos(rows, rows + rowCount);
  qpos.push_back(p.query);
  const size_t nq = qpos.size();
  std::vector<float> q(nq * d);
  if (contents.query) {
    for (size_t r = 0; r < nq; ++r) std::copy_n(contents.query + size_t(qpos[r]) * d, d, q.data() + r * d);
  } else {
    contentRows(d, p.seed, FamilyContent::Query, qpos, q.data());  // only the rows read
  }
  std::vector<float> k(nd);
  if (contents.key) std::copy_n(contents.key, nd, k.data());
  else contentRows(d, p.seed, FamilyContent::Key, firstPositions(n), k.data());
  std::vector<float> drawnTable;
  const float* table = nullptr;
  if (p.family == families::familyFromName("learned")) {
    table = contents.learned;
    if (!table) {
      drawnTable.resize(nd);
      contentRows(d, p.seed, FamilyContent::Learned, firstPositions(n), drawnTable.data());
      table = drawnTable.data();
    }
  }

  const std::vector<float> bias = applyFamily(p, table, qpos, q, k);
  BinnedAttentionParams b;
  b.n = n;
  b.dim = d;
  b.columns = int(p.columns);
  b.query = int(p.query);
  b.causal = p.causal;
  b.biasByOffset = bias.empty() ? nullptr : bias.data();
  binnedAttentionOfRows(b, q.data(), k.data(), rows, rowCount, cells, scores, probs);
}

void familyAttention(const FamilyAttentionParams& p, const double* rows, size_t rowCount,
                     float* cells, float* scores, float* probs) {
  familyAttention(p, FamilyContents{}, rows, rowCount, cells, scores, probs);
}

}  // namespace posenc
