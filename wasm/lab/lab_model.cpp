#include "lab_model.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/family_attention.hpp"
#include "core/posenc.hpp"

namespace posenc::lab {
namespace {

constexpr double kTwoPi = 6.283185307179586;
constexpr int kAlibiColumns = 512;  // distances shown per head in the ALiBi table

RopeScaling scalingOf(const State& s) {
  RopeScaling sc;
  sc.type = s.scaling;
  sc.factor = s.factor;
  sc.originalMaxPositions = s.orig;
  sc.maxPositions = s.orig;           // dynamic: the length the model was trained at
  sc.seqLen = s.len;                  // dynamic, longrope: the sequence at hand
  sc.betaFast = s.betaFast;
  sc.betaSlow = s.betaSlow;
  sc.lowFreqFactor = s.lowFreq;
  sc.highFreqFactor = s.highFreq;
  if (s.scaling == RopeScalingType::Longrope) {
    // LongRoPE's per-dimension factors are searched per model; the Lab stands in with 1 for
    // short sequences and a ramp from 1 (fastest pair) to `factor` (slowest) for long ones.
    const int half = s.d / 2;
    sc.maxPositions = std::round(s.orig * s.factor);
    sc.shortFactor.assign(half, 1.0);
    sc.longFactor.resize(half);
    for (int i = 0; i < half; ++i) sc.longFactor[i] = 1.0 + (s.factor - 1.0) * i / std::max(1, half - 1);
  }
  return sc;
}

std::vector<double> wavelengths(const std::vector<double>& frequencies) {
  std::vector<double> out(frequencies.size());
  for (size_t i = 0; i < out.size(); ++i) out[i] = kTwoPi / frequencies[i];
  return out;
}

// Everything but the pinned cells (which only select what the readouts show).
State computeKey(State s) {
  s.pos = s.dim = s.kpos = s.qpos = 0;
  return s;
}

FamilyAttentionParams attentionParams(const State& s) {
  FamilyAttentionParams p;
  p.family = int(s.family);  // the registry's id (lab_state.hpp)
  p.n = s.len;
  p.dim = s.d;
  p.columns = std::min(s.len, Model::kAttentionSide);
  p.query = s.qpos;
  p.causal = s.causal;
  p.seed = s.seed;
  p.base = s.base;
  p.heads = s.heads;
  p.head = s.head;
  p.numBuckets = s.buckets;
  p.maxDistance = s.maxDistance;
  if (rotaryDims(s.family, s.d) > 0) {
    p.ropeScaling = scalingOf(s);
    p.ropeLayout = s.layout;
  }
  return p;
}

}  // namespace

FamilyContents Model::contentsFor(const State& s, bool learned) {
  Contents& c = contents_;
  if (c.d != s.d || c.seed != s.seed) c = Contents{s.d, 0, 0, double(s.seed), {}, {}, {}};
  const int n = s.len;
  if (c.rows < n) {
    c.query.resize(size_t(n) * s.d);
    c.key.resize(size_t(n) * s.d);
    familyContent(s.d, s.seed, n, FamilyContent::Query, c.query.data());
    familyContent(s.d, s.seed, n, FamilyContent::Key, c.key.data());
    c.rows = n;
  }
  if (learned && c.learnedRows < n) {
    c.learned.resize(size_t(n) * s.d);
    familyContent(s.d, s.seed, n, FamilyContent::Learned, c.learned.data());
    c.learnedRows = n;
  }
  return {c.query.data(), c.key.data(), learned ? c.learned.data() : nullptr};
}

bool Model::update(const State& s) {
  const auto t0 = std::chrono::steady_clock::now();
  const bool all = !computed || toQuery(computeKey(s)) != toQuery(computeKey(state));
  const bool row = all || s.qpos != state.qpos;
  state = s;
  computed = true;
  if (all) computeAll(s);
  else if (row) computeRow(s);
  if (all || row) {
    millis = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }
  return all || row;
}

// The attention figure asks the core (familyAttention) for the drawn rows only, binned to the
// texture's width, and for exact rows one query at a time: at N = 2048 that is 512 of the 2048
// rows, never the N x N square.
void Model::computeAll(const State& s) {
  const int n = s.len, d = s.d;
  error.clear();
  encoding = Table{};
  attention = Table{};
  attentionStep = 1;
  attentionQueries.clear();
  attentionEdges.clear();
  probs.clear();
  cachedQuery_ = -1;
  cachedProbs_.clear();
  scores.clear();
  wavelengthBase.clear();
  wavelengthScaled.clear();
  slopes.clear();
  bucketBias.clear();
  bucketOfDistance.clear();
  attentionFactor = 1.0;
  attends_ = false;

  std::vector<double> positions(n);
  std::iota(positions.begin(), positions.end(), 0.0);
  try {
    const FamilyContents held = contentsFor(s, s.family == Family::Learned);
    encoding.rowLabel = "lab.axis.position";
    encoding.colLabel = "lab.axis.dimension";
    const int rotated = rotaryDims(s.family, d);
    if (rotated > 0) {
      // RoPE turns every pair, partial RoPE the first quarter's; the rest carry no position.
      const RopeFrequencies base = ropeFrequencies(rotated, s.base, RopeScaling{});
      const RopeFrequencies f = ropeFrequencies(rotated, s.base, scalingOf(s));
      attentionFactor = f.attentionFactor;
      wavelengthBase = wavelengths(base.invFreq);
      wavelengthScaled = wavelengths(f.invFreq);
      // The table: the unit vector of each rotated pair, (1, 0), turned to every position, so a
      // column pair reads cos and sin of position * frequency (times the attention factor);
      // the columns no pair turns stay 0.
      std::vector<float> turned(size_t(n) * rotated, 0.0f);
      for (int r = 0; r < n; ++r) {
        for (int i = 0; i < rotated / 2; ++i) {
          turned[size_t(r) * rotated + (s.layout == RopeLayout::Half ? i : 2 * i)] = 1.0f;
        }
      }
      ropeApply(turned.data(), positions.data(), n, rotated, s.layout, f);
      encoding.title = rotated < d ? "lab.table.partialRope" : "lab.table.rope";
      encoding.rows = n;
      encoding.cols = d;
      encoding.v.assign(size_t(n) * d, 0.0f);
      for (int r = 0; r < n; ++r) {
        std::copy_n(turned.begin() + ptrdiff_t(size_t(r) * rotated), rotated, encoding.v.begin() + ptrdiff_t(size_t(r) * d));
      }
    } else switch (s.family) {
      case Family::None:
        // No position table: the query contents every family starts from.
        encoding.title = "lab.table.none";
        encoding.rows = n;
        encoding.cols = d;
        encoding.v.assign(contents_.query.begin(), contents_.query.begin() + ptrdiff_t(size_t(n) * d));
        break;
      case Family::Sinusoidal: {
        encoding.title = "lab.table.sinusoidal";
        encoding.rows = n;
        encoding.cols = d;
        encoding.v.resize(size_t(n) * d);
        sinusoidal(SinusoidalParams{n, d, s.base, 0.0}, encoding.v.data());
        wavelengthBase = wavelengths(sinusoidalFrequencies(d, s.base));
        break;
      }
      case Family::Learned: {
        // familyAttention's stand-in table; the Lab's table size cuts it, as a trained table
        // has only so many rows.
        const int rows = std::min(n, s.table);
        encoding.title = "lab.table.learned";
        encoding.rows = rows;
        encoding.cols = d;
        encoding.v.assign(contents_.learned.begin(), contents_.learned.begin() + ptrdiff_t(size_t(rows) * d));
        checkLearned(LearnedParams{s.table, d, double(s.seed), kLearnedStd}, positions.data(), n);
        break;
      }
      case Family::Alibi: {
        slopes = alibiSlopes(s.heads);
        const int cols = std::min(n, kAlibiColumns);
        encoding.title = "lab.table.alibi";
        encoding.rowLabel = "lab.axis.head";
        encoding.colLabel = "lab.axis.distance";
        encoding.rows = s.heads;
        encoding.cols = cols;
        encoding.v.resize(size_t(s.heads) * cols);
        std::vector<float> square(size_t(cols) * cols);
        for (int h = 0; h < s.heads; ++h) {
          alibiBias(cols, slopes[h], false, square.data());
          std::copy(square.begin(), square.begin() + cols, encoding.v.begin() + size_t(h) * cols);
        }
        break;
      }
      case Family::T5: {
        // As familyAttention: the buckets see both sides unless causal (an encoder vs a decoder).
        const T5Params tp{!s.causal, s.buckets, s.maxDistance};
        std::vector<double> rel(size_t(2 * n - 1));
        for (int k = 0; k < 2 * n - 1; ++k) rel[k] = k - (n - 1);
        std::vector<int32_t> buckets(rel.size());
        t5Bucket(rel.data(), rel.size(), tp, buckets.data());
        bucketOfDistance.assign(buckets.begin(), buckets.end());
        bucketBias.resize(s.buckets);
        for (int b = 0; b < s.buckets; ++b) bucketBias[b] = float(t5StandInBias(b, s.buckets, !s.causal));
        encoding.title = "lab.table.t5";
        encoding.rowLabel = "lab.axis.query";
        encoding.colLabel = "lab.axis.key";
        encoding.signedValues = false;
        encoding.rows = n;
        encoding.cols = n;
        encoding.v.resize(size_t(n) * n);
        for (int i = 0; i < n; ++i) {
          for (int j = 0; j < n; ++j) encoding.v[size_t(i) * n + j] = float(bucketOfDistance[size_t(j - i + n - 1)]);
        }
        break;
      }
      default:
        break;  // the families that rotate: above
    }

    // Only what the figure draws: every step-th query, keys summed into at most kAttentionSide
    // bins, plus the exact row of the chosen query.
    const FamilyAttentionParams p = attentionParams(s);
    attentionStep = (n + kAttentionSide - 1) / kAttentionSide;
    const int columns = int(p.columns);
    std::vector<double> rows;
    for (int i = 0; i < n; i += attentionStep) {
      attentionQueries.push_back(i);
      rows.push_back(i);
    }
    attentionEdges.resize(size_t(columns) + 1);
    for (int c = 0; c <= columns; ++c) attentionEdges[c] = int(int64_t(c) * n / columns);
    attention.title = "lab.attention.title";
    attention.rowLabel = "lab.axis.query";
    attention.colLabel = "lab.axis.key";
    attention.signedValues = false;
    attention.rows = int(rows.size());
    attention.cols = columns;
    attention.v.resize(rows.size() * columns);
    probs.resize(n);
    std::vector<float> rowScores(n);
    familyAttention(p, held, rows.data(), rows.size(), attention.v.data(), rowScores.data(), probs.data());
    scores.assign(rowScores.begin(), rowScores.end());
    attends_ = true;
  } catch (const std::exception& e) {
    error = e.what();
    attention = Table{};
    attentionQueries.clear();
    attentionEdges.clear();
    probs.clear();
    scores.clear();
  }
}

void Model::computeRow(const State& s) {
  std::vector<float> rowScores;
  exactRow(s.qpos, probs, &rowScores);
  scores.assign(rowScores.begin(), rowScores.end());
}

void Model::exactRow(int i, std::vector<float>& weights, std::vector<float>* scoresOut) const {
  weights.clear();
  if (!attends_) return;
  FamilyAttentionParams p = attentionParams(state);
  p.query = i;
  p.columns = 1;
  std::vector<float> rowScores(size_t(state.len));
  weights.resize(size_t(state.len));
  // attends_: computeAll held the contents for this state (and the learned table when 'learned').
  const FamilyContents held{contents_.query.data(), contents_.key.data(),
                            state.family == Family::Learned ? contents_.learned.data() : nullptr};
  familyAttention(p, held, nullptr, 0, nullptr, rowScores.data(), weights.data());
  if (scoresOut) *scoresOut = std::move(rowScores);
}

const std::vector<float>& Model::weightsOf(int i) const {
  static const std::vector<float> none;
  if (!attends_ || i < 0 || i >= state.len) return none;
  if (i == state.qpos && !probs.empty()) return probs;
  if (cachedQuery_ != i) {
    exactRow(i, cachedProbs_, nullptr);
    cachedQuery_ = i;
  }
  return cachedProbs_;
}

int Model::drawnRowOf(int i) const {
  if (attention.rows == 0) return -1;
  return std::clamp(i / attentionStep, 0, attention.rows - 1);
}

int Model::binOf(int j) const {
  const int cols = attention.cols, n = state.len;
  if (cols == 0) return -1;
  int c = std::clamp(int(int64_t(j) * cols / n), 0, cols - 1);
  while (c > 0 && attentionEdges[c] > j) --c;
  while (c + 1 < cols && attentionEdges[c + 1] <= j) ++c;
  return c;
}

double Model::biasAt(int i, int j) const {
  const int n = state.len;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (i < 0 || i >= n || j < 0 || j >= n) return nan;
  if (state.family == Family::Alibi && !slopes.empty()) {
    if (state.causal && j > i) return -std::numeric_limits<double>::infinity();
    return -slopes[size_t(state.head)] * std::abs(j - i);
  }
  if (state.family == Family::T5 && !bucketOfDistance.empty()) {
    if (state.causal && j > i) return -std::numeric_limits<double>::infinity();
    return bucketBias[size_t(bucketOfDistance[size_t(j - i + n - 1)])];
  }
  return nan;
}

double Model::readout(const std::string& name, int a, int b) const {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto cell = [&](const Table& t) {
    return (a >= 0 && a < t.rows && b >= 0 && b < t.cols) ? double(t.at(a, b)) : nan;
  };
  auto item = [&](const auto& v) { return (a >= 0 && size_t(a) < v.size()) ? double(v[a]) : nan; };
  if (name == "table") return cell(encoding);
  if (name == "attention") {
    const std::vector<float>& w = weightsOf(a);
    return (b >= 0 && size_t(b) < w.size()) ? double(w[b]) : nan;
  }
  if (name == "attentionCell") return cell(attention);
  if (name == "attentionQuery") return item(attentionQueries);
  if (name == "attentionEdge") return item(attentionEdges);
  if (name == "attentionRows") return attention.rows;
  if (name == "attentionColumns") return attention.cols;
  if (name == "score") return item(scores);
  if (name == "wavelength") return item(wavelengthScaled.empty() ? wavelengthBase : wavelengthScaled);
  if (name == "wavelengthBase") return item(wavelengthBase);
  if (name == "attentionFactor") return attentionFactor;
  if (name == "slope") return item(slopes);
  if (name == "bucketBias") return item(bucketBias);
  if (name == "millis") return millis;
  const int n = state.len;
  if (name == "bias") return biasAt(a, b);
  if (name == "bucket") {
    return (!bucketOfDistance.empty() && a >= 0 && a < n && b >= 0 && b < n)
               ? double(bucketOfDistance[size_t(b - a + n - 1)]) : nan;
  }
  return nan;
}

}  // namespace posenc::lab
