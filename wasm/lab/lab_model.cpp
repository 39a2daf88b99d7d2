#include "lab_model.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>

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

}  // namespace

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

// The attention figure asks the core (binnedAttention, core/family_attention.hpp) for the drawn
// rows only, binned to the texture's width, and for exact rows one query at a time: at N = 2048
// that is 512 of the 2048 rows, never the N x N square.
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
  bias.clear();
  scores.clear();
  wavelengthBase.clear();
  wavelengthScaled.clear();
  slopes.clear();
  bucketBias.clear();
  bucketOfDistance.clear();
  attentionFactor = 1.0;
  q_.clear();
  k_.clear();

  std::vector<double> positions(n);
  std::iota(positions.begin(), positions.end(), 0.0);
  try {
    // The tokens' content: the same vector at every position (weight tok) plus, with noise > 0,
    // a seeded random vector per position (the learned table's generator, std 1).
    std::vector<float> x(size_t(n) * d, float(s.tok));
    if (s.noise > 0) {
      std::vector<float> z(size_t(n) * d);
      learned(LearnedParams{n, d, double(s.seed) + 1.0, 1.0}, positions.data(), n, z.data());
      for (size_t i = 0; i < x.size(); ++i) x[i] += float(s.noise) * z[i];
    }

    encoding.rowLabel = "position";
    encoding.colLabel = "dimension";
    switch (s.family) {
      case Family::None:
        encoding.title = "token vectors (no position signal is added)";
        encoding.rows = n;
        encoding.cols = d;
        encoding.v = x;
        q_ = x;
        break;
      case Family::Sinusoidal: {
        encoding.title = "sinusoidal table PE[position, dimension]";
        encoding.rows = n;
        encoding.cols = d;
        encoding.v.resize(size_t(n) * d);
        sinusoidal(SinusoidalParams{n, d, s.base, 0.0}, encoding.v.data());
        q_ = x;
        for (size_t i = 0; i < q_.size(); ++i) q_[i] += encoding.v[i];
        wavelengthBase = wavelengths(sinusoidalFrequencies(d, s.base));
        break;
      }
      case Family::Learned: {
        const LearnedParams lp{s.table, d, double(s.seed), s.std};
        const int rows = std::min(n, s.table);
        encoding.title = "learned table (seeded stand-in), rows 0.." + std::to_string(rows - 1);
        encoding.rows = rows;
        encoding.cols = d;
        encoding.v.resize(size_t(rows) * d);
        learned(lp, positions.data(), rows, encoding.v.data());
        checkLearned(lp, positions.data(), n);  // throws when the sequence runs past the table
        q_ = x;
        for (size_t i = 0; i < q_.size(); ++i) q_[i] += encoding.v[i];
        break;
      }
      case Family::Rope: {
        const RopeFrequencies base = ropeFrequencies(d, s.base, RopeScaling{});
        const RopeFrequencies f = ropeFrequencies(d, s.base, scalingOf(s));
        attentionFactor = f.attentionFactor;
        wavelengthBase = wavelengths(base.invFreq);
        wavelengthScaled = wavelengths(f.invFreq);
        // The table: the unit vector of each pair, (1, 0), rotated to every position, so a
        // column pair reads cos and sin of position * frequency (times the attention factor).
        encoding.title = "RoPE: unit pairs rotated to each position (cos | sin)";
        encoding.rows = n;
        encoding.cols = d;
        encoding.v.assign(size_t(n) * d, 0.0f);
        for (int r = 0; r < n; ++r) {
          for (int i = 0; i < d / 2; ++i) {
            encoding.v[size_t(r) * d + (s.layout == RopeLayout::Half ? i : 2 * i)] = 1.0f;
          }
        }
        ropeApply(encoding.v.data(), positions.data(), n, d, s.layout, f);
        q_ = x;
        ropeApply(q_.data(), positions.data(), n, d, s.layout, f);
        break;
      }
      case Family::Alibi: {
        slopes = alibiSlopes(s.heads);
        const int cols = std::min(n, kAlibiColumns);
        encoding.title = "ALiBi bias -slope * distance, per head";
        encoding.rowLabel = "head";
        encoding.colLabel = "distance";
        encoding.rows = s.heads;
        encoding.cols = cols;
        encoding.v.resize(size_t(s.heads) * cols);
        std::vector<float> square(size_t(cols) * cols);
        for (int h = 0; h < s.heads; ++h) {
          alibiBias(cols, slopes[h], false, square.data());
          std::copy(square.begin(), square.begin() + cols, encoding.v.begin() + size_t(h) * cols);
        }
        // The bias by key - query (alibiBias's value -slope * |i - j|; the causal mask is the
        // attention's, and biasAt reports -Infinity past the query as alibiBias(causal) does).
        bias.resize(size_t(2 * n - 1));
        for (int o = 0; o < 2 * n - 1; ++o) bias[o] = static_cast<float>(-slopes[s.head] * std::abs(o - (n - 1)));
        q_ = x;
        break;
      }
      case Family::T5: {
        const T5Params tp{s.bidirectional, s.buckets, s.maxDistance};
        std::vector<double> rel(size_t(2 * n - 1));
        for (int k = 0; k < 2 * n - 1; ++k) rel[k] = k - (n - 1);
        std::vector<int32_t> buckets(rel.size());
        t5Bucket(rel.data(), rel.size(), tp, buckets.data());
        bucketOfDistance.assign(buckets.begin(), buckets.end());
        // T5 learns one scalar per bucket (and head); the Lab draws them from the seeded
        // generator of the learned table, std 1.
        std::vector<double> ids(s.buckets);
        std::iota(ids.begin(), ids.end(), 0.0);
        bucketBias.resize(s.buckets);
        learned(LearnedParams{s.buckets, 1, double(s.seed), 1.0}, ids.data(), s.buckets, bucketBias.data());
        encoding.title = "T5 bucket of key - query";
        encoding.rowLabel = "query";
        encoding.colLabel = "key";
        encoding.signedValues = false;
        encoding.rows = n;
        encoding.cols = n;
        encoding.v.resize(size_t(n) * n);
        for (int i = 0; i < n; ++i) {
          for (int j = 0; j < n; ++j) encoding.v[size_t(i) * n + j] = float(bucketOfDistance[size_t(j - i + n - 1)]);
        }
        bias.resize(size_t(2 * n - 1));  // by key - query, as bucketOfDistance
        for (int o = 0; o < 2 * n - 1; ++o) bias[o] = bucketBias[bucketOfDistance[o]];
        q_ = x;
        break;
      }
    }
    k_ = q_;

    // Only what the figure draws: every step-th query, keys summed into at most kAttentionSide
    // bins, plus the exact row of the chosen query.
    attentionStep = (n + kAttentionSide - 1) / kAttentionSide;
    const int columns = std::min(n, kAttentionSide);
    std::vector<double> rows;
    for (int i = 0; i < n; i += attentionStep) {
      attentionQueries.push_back(i);
      rows.push_back(i);
    }
    attentionEdges.resize(size_t(columns) + 1);
    for (int c = 0; c <= columns; ++c) attentionEdges[c] = int(int64_t(c) * n / columns);
    attention.title = std::string("attention weights softmax(QK^T/sqrt(d)") +
                      (bias.empty() ? "" : " + bias") + ")" + (s.causal ? ", causal" : "");
    attention.rowLabel = "query";
    attention.colLabel = "key";
    attention.signedValues = false;
    attention.rows = int(rows.size());
    attention.cols = columns;
    attention.v.resize(rows.size() * columns);
    probs.resize(n);
    std::vector<float> masked(n);
    BinnedAttentionParams bp;
    bp.n = n;
    bp.dim = d;
    bp.columns = columns;
    bp.query = s.qpos;
    bp.causal = s.causal;
    bp.biasByOffset = bias.empty() ? nullptr : bias.data();
    binnedAttention(bp, q_.data(), k_.data(), rows.data(), rows.size(), attention.v.data(), masked.data(),
                    probs.data());
    computeScores(s);
  } catch (const std::exception& e) {
    error = e.what();
    attention = Table{};
    attentionQueries.clear();
    attentionEdges.clear();
    probs.clear();
    scores.clear();
    q_.clear();
  }
}

void Model::computeRow(const State& s) {
  exactRow(s.qpos, probs);
  computeScores(s);
}

void Model::exactRow(int i, std::vector<float>& weights) const {
  weights.clear();
  if (q_.empty()) return;
  const int n = state.len;
  BinnedAttentionParams bp;
  bp.n = n;
  bp.dim = state.d;
  bp.columns = 1;
  bp.query = i;
  bp.causal = state.causal;
  bp.biasByOffset = bias.empty() ? nullptr : bias.data();
  std::vector<float> masked(n);
  weights.resize(n);
  binnedAttention(bp, q_.data(), k_.data(), nullptr, 0, nullptr, masked.data(), weights.data());
}

const std::vector<float>& Model::weightsOf(int i) const {
  static const std::vector<float> none;
  if (q_.empty() || i < 0 || i >= state.len) return none;
  if (i == state.qpos && !probs.empty()) return probs;
  if (cachedQuery_ != i) {
    exactRow(i, cachedProbs_);
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
  if (bias.empty() || i < 0 || i >= n || j < 0 || j >= n) return std::numeric_limits<double>::quiet_NaN();
  if (state.family == Family::Alibi && state.causal && j > i) return -std::numeric_limits<double>::infinity();
  return bias[size_t(j - i + n - 1)];
}

void Model::computeScores(const State& s) {
  scores.clear();
  if (q_.empty()) return;
  const int n = s.len, d = s.d;
  // One query row against every key, before the softmax: the score's dependence on distance.
  AttentionParams ap;
  ap.qRows = 1;
  ap.kRows = n;
  ap.dim = d;
  ap.scale = 1.0 / std::sqrt(double(d));
  ap.causal = false;
  ap.softmax = false;
  std::vector<float> biasRow;
  if (!bias.empty()) {
    biasRow.resize(n);
    for (int j = 0; j < n; ++j) biasRow[j] = float(biasAt(s.qpos, j));
  }
  ap.bias = biasRow.empty() ? nullptr : biasRow.data();
  std::vector<float> out(n);
  posenc::attention(ap, q_.data() + size_t(s.qpos) * d, k_.data(), out.data());
  scores.assign(out.begin(), out.end());
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
