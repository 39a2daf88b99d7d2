// core/family_attention.hpp: one head per position family, reduced to drawn rows and key bins.
// The reference below rebuilds every score in double from the model written in the header:
// its own sinusoid, RoPE rotation, T5 bucket formula (HF _relative_position_bucket), ALiBi
// slope 2^(-8k/H) and stand-in bias; only the seeded normal draws come from core/learned.hpp
// (they are the input data, tested in learned_test.cpp).
//
// Tolerances:
//   2e-5 absolute on a score: float32 contents and encodings (2e-7 each for sin/cos), dot
//        products of <= 16 terms of size <= 2 in float32 (~16 · 4 · 2^-24), times 1/sqrt(d).
//   5e-6 absolute on a probability: a weight moves by <= |Δscore|/4, plus the softmax kernel's
//        ~1e-6 (softmax.hpp).
//   (n + 8) · 2^-24 on a row sum of the bins: the float32 softmax sum and the bin sums.

#include "core/family_attention.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/families/registry.hpp"
#include "core/learned.hpp"
#include "test_util.hpp"

namespace family_attention_test {

using posenc::FamilyAttentionParams;
using posenc::RangeError;
using posenc::TypeError;
using posenc_test::MaxError;

namespace {

// The registry's families familyAttention draws: every test loops over all of them (ids
// 0..kFamilyCount-1, the registry's first), so a new family is tested here once the reference
// below knows it; the ids are the registry's business. The trainer's own (the RoPE/NoPE hybrid,
// FIRE) come after them and are refused (the last test).
constexpr int kFamilyCount = posenc::families::kFigureFamilyCount;
int familyId(const char* name) { return posenc::families::familyFromName(name); }
const int kNone = familyId("none"), kSinusoidal = familyId("sinusoidal"), kLearned = familyId("learned"),
          kT5 = familyId("t5"), kRope = familyId("rope"), kPartialRope = familyId("partial-rope"),
          kAlibi = familyId("alibi");

struct Result {
  std::vector<float> cells, scores, probs;
};

Result run(const FamilyAttentionParams& p, const std::vector<double>& rows) {
  Result r;
  r.cells.assign(rows.size() * size_t(p.columns), 42.0f);
  r.scores.assign(size_t(p.n), 42.0f);
  r.probs.assign(size_t(p.n), 42.0f);
  posenc::familyAttention(p, rows.data(), rows.size(), r.cells.data(), r.scores.data(),
                          r.probs.data());
  return r;
}

std::vector<double> allRows(int n) {
  std::vector<double> rows(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) rows[size_t(i)] = i;
  return rows;
}

// [REFERENCE] ---------------------------------------------------------------------------------
std::vector<float> draws(double seed, int n, int d, double stdDev) {
  posenc::LearnedParams lp;
  lp.maxPositions = n;
  lp.dModel = d;
  lp.seed = seed;
  lp.stdDev = stdDev;
  std::vector<double> pos = [&] {
    std::vector<double> v(static_cast<size_t>(n));
    for (int t = 0; t < n; ++t) v[size_t(t)] = t;
    return v;
  }();
  std::vector<float> out(size_t(n) * d);
  posenc::learned(lp, pos.data(), pos.size(), out.data());
  return out;
}

// HF's bucket: half the buckets per sign when bidirectional, exact below half of those, then
// log-spaced up to maxDistance. The quotient lands on whole numbers at n = 16, 32... (float32
// in HF); the 1e-9 keeps double from falling just below them.
int t5Bucket(int rp, int nb, int maxDistance, bool bidirectional) {
  int bucket = 0;
  int n;
  if (bidirectional) {
    nb /= 2;
    if (rp > 0) bucket += nb;
    n = std::abs(rp);
  } else {
    n = std::max(-rp, 0);
  }
  const int exact = nb / 2;
  if (n < exact) return bucket + n;
  const double q = std::log(double(n) / exact) / std::log(double(maxDistance) / exact) * (nb - exact);
  return bucket + std::min(exact + int(std::floor(q + 1e-9)), nb - 1);
}

// scores[i][j] in double, -inf where masked.
std::vector<double> referenceScores(const FamilyAttentionParams& p) {
  const int n = int(p.n), d = int(p.dim);
  std::vector<float> ga = draws(3 * p.seed, n, d, 0.5), gb = draws(3 * p.seed + 1, n, d, 0.5);
  std::vector<float> gl = draws(3 * p.seed + 2, n, d, std::sqrt(0.5));
  std::vector<double> q(size_t(n) * d), k(size_t(n) * d);
  for (int t = 0; t < n; ++t) {
    for (int c = 0; c < d; ++c) {
      const double mu = std::sqrt(0.5) * ((c / 2) % 2 ? -1 : 1);
      double a = double(ga[size_t(t) * d + c]) + mu, b = double(gb[size_t(t) * d + c]) + mu;
      if (p.family == kSinusoidal) {
        const double w = std::pow(p.base, -double(2 * (c / 2)) / d);
        const double pe = c % 2 ? std::cos(t * w) : std::sin(t * w);
        a += pe;
        b += pe;
      } else if (p.family == kLearned) {
        a += gl[size_t(t) * d + c];
        b += gl[size_t(t) * d + c];
      }
      q[size_t(t) * d + c] = a;
      k[size_t(t) * d + c] = b;
    }
    // RoPE turns all d dimensions; partial RoPE (GPT-NeoX's rotary_pct = 0.25) the first r =
    // d/4, with the frequencies of a head of width r, as HF's rotate_half over q[..., :r].
    const int r = p.family == kRope ? d : p.family == kPartialRope ? std::max(2, d / 8 * 2) : 0;
    for (auto* v : {&q, &k}) {
      double* row = v->data() + size_t(t) * d;
      for (int m = 0; m < r / 2; ++m) {
        const double ang = t * std::pow(p.base, -double(2 * m) / r);
        const double x = row[m], y = row[m + r / 2];
        row[m] = x * std::cos(ang) - y * std::sin(ang);
        row[m + r / 2] = y * std::cos(ang) + x * std::sin(ang);
      }
    }
  }
  const double slope = std::exp2(-8.0 * (p.head + 1) / p.heads);  // heads a power of two here
  std::vector<double> s(size_t(n) * n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      double dot = 0;
      for (int c = 0; c < d; ++c) dot += q[size_t(i) * d + c] * k[size_t(j) * d + c];
      double v = dot / std::sqrt(double(d));
      if (p.family == kAlibi) v -= slope * std::abs(i - j);
      if (p.family == kT5) {
        const bool bi = !p.causal;
        const int b = t5Bucket(j - i, int(p.numBuckets), int(p.maxDistance), bi);
        const int per = bi ? int(p.numBuckets) / 2 : int(p.numBuckets);
        v += -4.0 * (b % per) / (per - 1);
      }
      if (p.causal && j > i) v = -INFINITY;
      s[size_t(i) * n + j] = v;
    }
  }
  return s;
}

std::vector<double> softmaxRows(const std::vector<double>& s, int n) {
  std::vector<double> out(s.size());
  for (int i = 0; i < n; ++i) {
    double m = -INFINITY, sum = 0;
    for (int j = 0; j < n; ++j) m = std::max(m, s[size_t(i) * n + j]);
    for (int j = 0; j < n; ++j) sum += std::exp(s[size_t(i) * n + j] - m);
    for (int j = 0; j < n; ++j) out[size_t(i) * n + j] = std::exp(s[size_t(i) * n + j] - m) / sum;
  }
  return out;
}

FamilyAttentionParams params(int f, int n, int d, bool causal) {
  FamilyAttentionParams p;
  p.family = f;
  p.n = n;
  p.dim = d;
  p.columns = n;
  p.causal = causal;
  p.seed = 7;
  p.heads = 8;
  p.head = 2;
  p.base = 10000;
  return p;
}

}  // namespace

TEST_CASE("familyAttention: every family's full matrix and query row equal the double reference") {
  for (int f = 0; f < kFamilyCount; ++f) {
    for (bool causal : {false, true}) {
      CAPTURE(posenc::families::familyName(f));
      CAPTURE(causal);
      const int n = 24, d = 16;
      FamilyAttentionParams p = params(f, n, d, causal);
      p.query = 17;
      const std::vector<double> s = referenceScores(p);
      const std::vector<double> want = softmaxRows(s, n);
      const Result r = run(p, allRows(n));
      MaxError prob, score;
      for (size_t x = 0; x < want.size(); ++x) prob.add(r.cells[x], want[x], double(x));
      for (int j = 0; j < n; ++j) {
        const double ws = s[size_t(17) * n + j];
        if (std::isinf(ws)) {
          CHECK(r.scores[size_t(j)] == -INFINITY);
        } else {
          score.add(r.scores[size_t(j)], ws, j);
        }
        prob.add(r.probs[size_t(j)], want[size_t(17) * n + j], 1000 + j);
      }
      CHECK(prob.value <= 5e-6);
      CHECK(score.value <= 2e-5);
    }
  }
}

TEST_CASE("familyAttention: calls that change the family or the shape between them each get their own tables") {
  // The core keeps each family's fixed tables (RoPE's cos and sin, ALiBi's slopes, T5's buckets,
  // the sinusoid) for its last four shapes, for a next call of the same family and shape. Calls
  // in an order that finds some kept and some dropped: every call must equal the double reference
  // for its own family and shape, and a repeated call its first result bit for bit.
  const int n = 20, d = 16;
  std::vector<FamilyAttentionParams> calls;
  for (int f = 0; f < kFamilyCount; ++f) {
    // Calls that differ in one parameter at a time: n, the mask, the base, the head (not part of
    // the shape: the same tables) and the buckets.
    for (int variant = 0; variant < 6; ++variant) {
      FamilyAttentionParams p = params(f, n - (variant == 1 ? 6 : 0), d, variant != 2);
      p.query = 9;
      if (variant == 3) p.base = 500;
      if (variant == 4) p.head = 5;
      if (variant == 5) p.numBuckets = 16;
      calls.push_back(p);
    }
  }
  // Each family's six shapes in turn, then every family's first shape in turn (the same shape
  // with another family), each round twice; then every call twice in a row.
  std::vector<size_t> order;
  for (int round = 0; round < 2; ++round) {
    for (size_t c = 0; c < calls.size(); ++c) order.push_back(c);
    for (size_t c = 0; c < calls.size(); c += 6) order.push_back(c);
  }
  for (size_t c = 0; c < calls.size(); ++c) order.insert(order.end(), {c, c});
  std::vector<Result> first(calls.size());
  std::vector<bool> seen(calls.size(), false);
  for (const size_t c : order) {
    const FamilyAttentionParams& p = calls[c];
    CAPTURE(posenc::families::familyName(int(p.family)));
    CAPTURE(c % 6);
    const int m = int(p.n);
    const Result r = run(p, allRows(m));
    const std::vector<double> want = softmaxRows(referenceScores(p), m);
    MaxError prob;
    for (size_t x = 0; x < want.size(); ++x) prob.add(r.cells[x], want[x], double(x));
    CHECK(prob.value <= 5e-6);
    if (!seen[c]) {
      first[c] = r;
      seen[c] = true;
    } else {
      CHECK(r.cells == first[c].cells);
      CHECK(r.probs == first[c].probs);
    }
  }
}

TEST_CASE("familyAttention: bins of a subset of rows are sums of the full rows, each summing to 1") {
  for (int f = 0; f < kFamilyCount; ++f) {
    for (bool causal : {false, true}) {
      CAPTURE(posenc::families::familyName(f));
      CAPTURE(causal);
      const int n = 24;
      FamilyAttentionParams p = params(f, n, 16, causal);
      p.query = 5;
      const Result full = run(p, allRows(n));
      p.columns = 5;  // uneven bins: keys 0-3, 4-8, 9-13, 14-18, 19-23
      p.query = 23;
      const std::vector<double> rows = {0, 5, 23, 5};
      const Result binned = run(p, rows);
      const int edges[] = {0, 4, 9, 14, 19, 24};
      MaxError e, total;
      for (size_t r = 0; r < rows.size(); ++r) {
        double rowSum = 0;
        for (int c = 0; c < 5; ++c) {
          double want = 0;
          for (int j = edges[c]; j < edges[c + 1]; ++j) want += full.cells[size_t(rows[r]) * n + j];
          e.add(binned.cells[r * 5 + c], want, double(r * 5 + c));
          rowSum += binned.cells[r * 5 + c];
        }
        total.add(rowSum, 1.0, double(r));
      }
      CHECK(e.value <= 1e-6);
      CHECK(total.value <= (n + 8) * 0x1p-24);
      // The exact row does not depend on which rows are drawn or how they are binned.
      for (int j = 0; j < n; ++j) {
        CHECK(binned.probs[size_t(j)] == doctest::Approx(full.cells[size_t(23) * n + j]).epsilon(1e-6));
      }
    }
  }
}

TEST_CASE("familyAttention: at n = 2048 every drawn row of 256 bins sums to 1 and bins its exact row") {
  for (int f = 0; f < kFamilyCount; ++f) {
    CAPTURE(posenc::families::familyName(f));
    const int n = 2048;
    FamilyAttentionParams p = params(f, n, 64, true);
    p.columns = 256;
    std::vector<double> rows(256);
    for (int r = 0; r < 256; ++r) rows[size_t(r)] = r * 8;
    MaxError total, bins;
    for (int probe : {0, 8 * 100, 8 * 255}) {
      p.query = probe;
      const Result r = run(p, rows);
      for (size_t row = 0; row < rows.size(); ++row) {
        double s = 0;
        for (int c = 0; c < 256; ++c) s += r.cells[row * 256 + c];
        total.add(s, 1.0, double(row));
      }
      const size_t row = size_t(probe / 8);
      for (int c = 0; c < 256; ++c) {
        double want = 0;
        for (int j = 8 * c; j < 8 * c + 8; ++j) want += r.probs[size_t(j)];
        bins.add(r.cells[row * 256 + c], want, c);
      }
      // Causal: nothing after the query.
      for (int j = probe + 1; j < n; ++j) REQUIRE(r.probs[size_t(j)] == 0.0f);
    }
    CHECK(total.value <= (n + 264) * 0x1p-24);
    CHECK(bins.value <= 1e-6);
  }
}

TEST_CASE("familyAttention: the contents a caller holds give the results of the drawn ones, bit for bit") {
  // The core keeps nothing between calls: the caller holds familyContent's rows (for the longest
  // sequence it draws; row t depends only on (dim, seed, t)) and hands them to every call.
  const int longest = 40, d = 8;
  const double seed = 7;
  std::vector<float> query(size_t(longest) * d), key(query.size()), table(query.size());
  posenc::familyContent(d, seed, longest, posenc::FamilyContent::Query, query.data());
  posenc::familyContent(d, seed, longest, posenc::FamilyContent::Key, key.data());
  posenc::familyContent(d, seed, longest, posenc::FamilyContent::Learned, table.data());
  const posenc::FamilyContents held{query.data(), key.data(), table.data()};
  for (int family = 0; family < kFamilyCount; ++family) {
    for (int n : {10, longest}) {
      for (bool causal : {false, true}) {
        CAPTURE(family);
        CAPTURE(n);
        CAPTURE(causal);
        FamilyAttentionParams p = params(family, n, d, causal);
        p.seed = seed;
        p.query = n - 3;
        p.columns = 7;
        const std::vector<double> rows{0, 4, double(n - 1)};
        const Result drawn = run(p, rows);
        Result given = drawn;
        std::fill(given.cells.begin(), given.cells.end(), 42.0f);
        std::fill(given.scores.begin(), given.scores.end(), 42.0f);
        posenc::familyAttention(p, held, rows.data(), rows.size(), given.cells.data(), given.scores.data(),
                                given.probs.data());
        CHECK(given.cells == drawn.cells);
        CHECK(given.scores == drawn.scores);
        CHECK(given.probs == drawn.probs);
      }
    }
  }
  // A longer call's first rows are the shorter call's rows.
  std::vector<float> shortKey(size_t(10) * d);
  posenc::familyContent(d, seed, 10, posenc::FamilyContent::Key, shortKey.data());
  CHECK(std::equal(shortKey.begin(), shortKey.end(), key.begin()));
  // Another seed is another sequence: held contents of seed 7 are not those of seed 8.
  std::vector<float> other(query.size());
  posenc::familyContent(d, 8, longest, posenc::FamilyContent::Key, other.data());
  CHECK(other != key);
}

TEST_CASE("familyAttention: ALiBi and T5 stand-ins follow the head and the buckets") {
  CHECK(posenc::t5StandInBias(0, 32, true) == 0.0);
  CHECK(posenc::t5StandInBias(16, 32, true) == 0.0);  // distance 0 on the future side's start
  CHECK(posenc::t5StandInBias(15, 32, true) == -4.0);
  CHECK(posenc::t5StandInBias(31, 32, true) == -4.0);
  CHECK(posenc::t5StandInBias(31, 32, false) == -4.0);
  CHECK(posenc::t5StandInBias(8, 32, true) == doctest::Approx(-4.0 * 8 / 15));
  // A 6-head ALiBi (not a power of two): head 4's slope is 1/2 (reference order 1/4, 1/16,
  // 1/64, 1/256, 1/2, 1/8). With query 9, the score drops by exactly slope·|i - j| beyond the
  // contents, which we read from the 'none' family.
  FamilyAttentionParams p = params(kAlibi, 12, 8, false);
  p.heads = 6;
  p.head = 4;
  p.query = 9;
  const Result alibi = run(p, allRows(12));
  p.family = kNone;
  const Result none = run(p, allRows(12));
  for (int j = 0; j < 12; ++j) {
    CHECK(alibi.scores[size_t(j)] == doctest::Approx(none.scores[size_t(j)] - 0.5 * std::abs(9 - j)).epsilon(1e-6));
  }
}

TEST_CASE("familyAttention: argument checks name the argument and its range") {
  const std::vector<double> rows = {0, 1};
  auto call = [&](FamilyAttentionParams p, std::vector<double> r = {0, 1}) {
    std::vector<float> cells(r.size() * 64 + 1), s(8192), pr(8192);
    posenc::familyAttention(p, r.data(), r.size(), cells.data(), s.data(), pr.data());
  };
  FamilyAttentionParams ok = params(kRope, 16, 8, true);
  CHECK_NOTHROW(call(ok));
  auto with = [&](auto change) {
    FamilyAttentionParams p = ok;
    change(p);
    return p;
  };
  CHECK_THROWS_WITH_AS(call(with([](auto& p) { p.n = 0; })), "n must be an integer in [1, 8192], got 0", RangeError);
  CHECK_THROWS_WITH_AS(call(with([](auto& p) { p.n = 8193; })), "n must be an integer in [1, 8192], got 8193", RangeError);
  CHECK_THROWS_WITH_AS(call(with([](auto& p) { p.n = NAN; })), "n must be an integer in [1, 8192], got NaN", RangeError);
  CHECK_THROWS_WITH_AS(call(with([](auto& p) { p.dim = 7; })), "dim must be even (it is split into pairs), got 7", RangeError);
  CHECK_THROWS_WITH_AS(call(with([](auto& p) { p.dim = 258; })), "dim must be an integer in [2, 256], got 258", RangeError);
  CHECK_THROWS_WITH_AS(call(with([](auto& p) { p.columns = 17; })), "columns must be an integer in [1, 16], got 17", RangeError);
  CHECK_THROWS_WITH_AS(call(with([](auto& p) { p.columns = 0; })), "columns must be an integer in [1, 16], got 0", RangeError);
  CHECK_THROWS_WITH_AS(call(with([](auto& p) { p.query = 16; })), "query must be an integer in [0, 15], got 16", RangeError);
  CHECK_THROWS_WITH_AS(call(with([](auto& p) { p.query = -1; })), "query must be an integer in [0, 15], got -1", RangeError);
  CHECK_THROWS_WITH_AS(call(with([](auto& p) { p.seed = 0.5; })), "seed must be an integer in [0, 1000000000], got 0.5", RangeError);
  CHECK_THROWS_WITH_AS(call(with([](auto& p) { p.base = 1; })), "base must be a finite number in (1, 1000000000000], got 1", RangeError);
  CHECK_THROWS_WITH_AS(call(with([](auto& p) { p.heads = 65; })), "heads must be an integer in [1, 64], got 65", RangeError);
  CHECK_THROWS_WITH_AS(call(with([](auto& p) { p.head = 8; })), "head must be an integer in [0, 7], got 8", RangeError);
  CHECK_THROWS_WITH_AS(call(with([](auto& p) { p.numBuckets = 30.5; })), "numBuckets must be an integer in [4, 4096], got 30.5", RangeError);
  CHECK_THROWS_WITH_AS(call(with([](auto& p) { p.numBuckets = 6 + 1; })), "numBuckets must be even (it is split into pairs), got 7", RangeError);
  // Causal T5 buckets are one-directional: 16 exact buckets, so maxDistance must exceed 16.
  CHECK_THROWS_WITH_AS(call(with([](auto& p) { p.maxDistance = 16; })), "maxDistance must be an integer in [17, 16777216], got 16", RangeError);
  CHECK_NOTHROW(call(with([](auto& p) { p.maxDistance = 16; p.causal = false; })));
  CHECK_THROWS_WITH_AS(call(ok, {0, 16}), "rows[1] must be an integer in [0, 15], got 16", RangeError);
  CHECK_THROWS_WITH_AS(call(ok, {0.5}), "rows[0] must be an integer in [0, 15], got 0.5", RangeError);
  CHECK_THROWS_WITH_AS(call(ok, std::vector<double>(17, 0.0)), "rows.length must be an integer in [0, 16], got 17", RangeError);
  CHECK_NOTHROW(call(ok, {}));
  CHECK(kAlibi != kRope);
  // One vocabulary: the registry's names only ('relative', the attention step's old name for
  // T5, is refused; old page URLs are mapped where the page reads them).
  std::string allowed;  // every name of the registry, quoted, in its order
  for (int id = 0; id < posenc::families::kFamilyCount; ++id) allowed += (id ? ", '" : "'") + posenc::families::familyName(id) + "'";
  CHECK(allowed.rfind("'none', 'sinusoidal', 'learned', 't5', 'rope'", 0) == 0);
  CHECK_THROWS_WITH_AS(posenc::families::familyFromName("relative"),
                       ("family must be one of " + allowed + ", got 'relative'").c_str(), TypeError);
  CHECK_THROWS_WITH_AS(posenc::families::familyFromName("ALiBi"),
                       ("family must be one of " + allowed + ", got 'ALiBi'").c_str(), TypeError);
  // The trainer's own families have no single head with stand-in weights to draw.
  CHECK(posenc::families::kFigureFamilyCount == 7);
  CHECK(posenc::families::kFamilyCount == 9);
  CHECK_THROWS_WITH_AS(call(with([](auto& p) { p.family = familyId("fire"); })), "family must be an integer in [0, 6], got 8",
                       RangeError);
  CHECK_THROWS_WITH_AS(posenc::families::figureFamilyFromName("rope-nope"),
                       "family 'rope-nope' is trained only (it has no single head to draw): use one of 'none', "
                       "'sinusoidal', 'learned', 't5', 'rope', 'partial-rope', 'alibi'",
                       TypeError);
  CHECK(posenc::families::figureFamilyFromName("alibi") == kAlibi);
  (void)rows;
}

// The Lab reaches every RoPE scaling and both layouts through familyAttention. Reference: the
// contents familyContent returns, rotated by the core's ropeApply (scaled frequencies, the
// attention factor on both sides) and scored in double here.
TEST_CASE("familyAttention: a scaled, interleaved RoPE equals ropeApply on familyContent's rows") {
  const int n = 40, d = 16;
  FamilyAttentionParams p = params(kRope, n, d, true);
  p.query = 31;
  p.seed = 5;
  p.ropeLayout = posenc::RopeLayout::Interleaved;
  p.ropeScaling.type = posenc::RopeScalingType::Yarn;
  p.ropeScaling.factor = 8;
  p.ropeScaling.originalMaxPositions = 16;
  const Result got = run(p, allRows(n));
  std::vector<float> q(size_t(n) * d), k(size_t(n) * d);
  posenc::familyContent(d, p.seed, n, posenc::FamilyContent::Query, q.data());
  posenc::familyContent(d, p.seed, n, posenc::FamilyContent::Key, k.data());
  std::vector<double> pos(static_cast<size_t>(n));
  for (int t = 0; t < n; ++t) pos[size_t(t)] = t;
  const posenc::RopeFrequencies f = posenc::ropeFrequencies(d, p.base, p.ropeScaling);
  REQUIRE(f.attentionFactor > 1.0);
  posenc::ropeApply(q.data(), pos.data(), size_t(n), d, p.ropeLayout, f);
  posenc::ropeApply(k.data(), pos.data(), size_t(n), d, p.ropeLayout, f);
  MaxError err;
  for (int j = 0; j <= p.query; ++j) {
    double s = 0;
    for (int c = 0; c < d; ++c) s += double(q[size_t(p.query) * d + c]) * double(k[size_t(j) * d + c]);
    err.add(got.scores[size_t(j)], s / std::sqrt(double(d)));
  }
  CHECK(err.value <= 5e-5);
  CHECK(std::isinf(got.scores[size_t(p.query + 1)]));
  // The default layout and scaling give other numbers: the options reach the rotation.
  FamilyAttentionParams plain = params(kRope, n, d, true);
  plain.query = 31;
  plain.seed = 5;
  CHECK(run(plain, allRows(n)).scores[0] != doctest::Approx(got.scores[0]).epsilon(1e-4));
  // A bad scaling is refused by name before anything is computed.
  p.ropeScaling.factor = 0.5;
  CHECK_THROWS_AS(run(p, allRows(n)), RangeError);
}

}  // namespace family_attention_test
