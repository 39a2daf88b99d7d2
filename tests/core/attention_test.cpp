// core/attention.hpp: softmax_row(Q Kᵀ·scale + bias + causal mask) for one head, against a
// double reference written below. Rectangular shapes follow the KV-cache convention (queries
// are the last rows), and a row with nothing to attend to comes out as zeros.
//
// Tolerances:
//   5e-6 absolute per weight: scores are float32 dot products (error <= d·2^-24·Σ|q_t k_t|,
//        ~1e-6 for d <= 67 and |q|, |k| <= 1), a weight moves by at most |Δscore|·w·(1 − w)
//        <= |Δscore|/4 under them, plus the kernel's own ~1e-6 (softmax.hpp).
//   (n + 8)·2^-24 on a row sum: n float32 roundings in the sum plus the final scaling.

#include "core/attention.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "core/alibi.hpp"
#include "core/errors.hpp"
#include "core/limits.hpp"
#include "test_util.hpp"

namespace attention_test {

using posenc::RangeError;
using posenc::TypeError;
using posenc_test::MaxError;

namespace {

const float kNegInf = -std::numeric_limits<float>::infinity();

struct Case {
  int qRows = 0, kRows = 0, dim = 0;
  double scale = 1;
  bool causal = false;
  bool softmax = true;
  std::vector<float> q, k, bias;  // bias empty: none
};

Case shape(int qRows, int kRows, int dim, double scale, bool causal = false) {
  Case c;
  c.qRows = qRows;
  c.kRows = kRows;
  c.dim = dim;
  c.scale = scale;
  c.causal = causal;
  return c;
}

std::vector<float> run(const Case& c) {
  posenc::AttentionParams p;
  p.qRows = c.qRows;
  p.kRows = c.kRows;
  p.dim = c.dim;
  p.scale = c.scale;
  p.causal = c.causal;
  p.softmax = c.softmax;
  p.bias = c.bias.empty() ? nullptr : c.bias.data();
  std::vector<float> out(size_t(c.qRows) * c.kRows, 42.0f);
  posenc::attention(p, c.q.data(), c.k.data(), out.data());
  return out;
}

// Double reference: query i sits at position kRows − qRows + i; causal hides j > that.
std::vector<double> reference(const Case& c) {
  const int shift = c.kRows - c.qRows;
  std::vector<double> out(size_t(c.qRows) * c.kRows);
  for (int i = 0; i < c.qRows; ++i) {
    std::vector<double> s(c.kRows);
    double m = -INFINITY;
    for (int j = 0; j < c.kRows; ++j) {
      double dot = 0;
      for (int t = 0; t < c.dim; ++t) dot += double(c.q[size_t(i) * c.dim + t]) * c.k[size_t(j) * c.dim + t];
      s[j] = dot * c.scale + (c.bias.empty() ? 0.0 : double(c.bias[size_t(i) * c.kRows + j]));
      if (c.causal && j > shift + i) s[j] = -INFINITY;
      m = std::max(m, s[j]);
    }
    if (!c.softmax) {
      for (int j = 0; j < c.kRows; ++j) out[size_t(i) * c.kRows + j] = s[j];
      continue;
    }
    if (m == -INFINITY) continue;  // nothing to attend to: zeros
    double sum = 0;
    for (int j = 0; j < c.kRows; ++j) sum += std::exp(s[j] - m);
    for (int j = 0; j < c.kRows; ++j) out[size_t(i) * c.kRows + j] = std::exp(s[j] - m) / sum;
  }
  return out;
}

Case randomCase(posenc_test::Rng& rng, int qRows, int kRows, int dim, bool causal) {
  Case c = shape(qRows, kRows, dim, 1.0 / std::sqrt(double(dim)), causal);
  c.q.resize(size_t(qRows) * dim);
  c.k.resize(size_t(kRows) * dim);
  for (float& v : c.q) v = float(rng.uniform(-1, 1));
  for (float& v : c.k) v = float(rng.uniform(-1, 1));
  return c;
}

double maxWeightError(const Case& c) {
  const std::vector<float> got = run(c);
  const std::vector<double> want = reference(c);
  MaxError err;
  for (size_t i = 0; i < got.size(); ++i) err.add(got[i], want[i]);
  return err.value;
}

}  // namespace

TEST_CASE("attention equals the double softmax(Q Kᵀ / sqrt(d)) row by row (square, not causal)") {
  posenc_test::Rng rng(1);
  const Case c = randomCase(rng, 6, 6, 16, false);
  const std::vector<float> got = run(c);
  const std::vector<double> want = reference(c);
  for (size_t i = 0; i < got.size(); ++i) {
    CAPTURE(i);
    CHECK(got[i] == doctest::Approx(want[i]).epsilon(5e-6));  // see file header
  }
}

TEST_CASE("attention rows sum to 1 for random shapes up to 67 keys, with and without causal masking") {
  posenc_test::Rng rng(2);
  MaxError weights;
  for (int trial = 0; trial < 120; ++trial) {
    const int kRows = 1 + rng.below(67);
    const int qRows = 1 + rng.below(kRows);
    const int dim = 1 + rng.below(67);
    const bool causal = trial % 2 == 0;
    Case c = randomCase(rng, qRows, kRows, dim, causal);
    if (trial % 3 == 0) {  // and with a finite bias
      c.bias.resize(size_t(qRows) * kRows);
      for (float& v : c.bias) v = float(rng.uniform(-3, 3));
    }
    const std::vector<float> got = run(c);
    for (int i = 0; i < qRows; ++i) {
      double sum = 0;
      for (int j = 0; j < kRows; ++j) sum += got[size_t(i) * kRows + j];
      CAPTURE(kRows);
      CHECK(sum == doctest::Approx(1.0).epsilon((kRows + 8) * 0x1.0p-24));  // see file header
    }
    weights.add(maxWeightError(c), 0);
  }
  MESSAGE("attention max abs weight error vs double: " << weights.value);
  CHECK(weights.value <= 5e-6);  // see file header
}

TEST_CASE("causal rectangular attention: 3 queries over 7 keys are positions 4, 5, 6 and see keys 0..4, 0..5, 0..6") {
  posenc_test::Rng rng(3);
  const Case c = randomCase(rng, 3, 7, 8, true);
  const std::vector<float> got = run(c);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 7; ++j) {
      CAPTURE(i);
      CAPTURE(j);
      if (j > 4 + i) {
        CHECK(got[i * 7 + j] == 0.0f);  // masked: exactly zero
      } else {
        CHECK(got[i * 7 + j] > 0.0f);
      }
    }
  }
  CHECK(maxWeightError(c) <= 5e-6);  // see file header
  // The last query row sees everything: it equals the non-causal last row.
  Case open = c;
  open.causal = false;
  const std::vector<float> all = run(open);
  for (int j = 0; j < 7; ++j) CHECK(got[2 * 7 + j] == all[2 * 7 + j]);
}

TEST_CASE("causal square attention is lower-triangular and its first row is one-hot") {
  posenc_test::Rng rng(4);
  const Case c = randomCase(rng, 5, 5, 4, true);
  const std::vector<float> got = run(c);
  CHECK(got[0] == 1.0f);  // one key: exp(0) / exp(0)
  for (int i = 0; i < 5; ++i)
    for (int j = i + 1; j < 5; ++j) CHECK(got[i * 5 + j] == 0.0f);
  CHECK(maxWeightError(c) <= 5e-6);  // see file header
}

TEST_CASE("non-causal attention accepts more query rows than key rows") {
  posenc_test::Rng rng(5);
  const Case c = randomCase(rng, 9, 3, 5, false);
  CHECK(maxWeightError(c) <= 5e-6);  // see file header
}

TEST_CASE("a fully masked bias row comes out as zeros, the other rows still sum to 1") {
  posenc_test::Rng rng(6);
  Case c = randomCase(rng, 4, 6, 8, false);
  c.bias.assign(size_t(4) * 6, 0.0f);
  for (int j = 0; j < 6; ++j) c.bias[1 * 6 + j] = kNegInf;  // row 1: nothing left
  c.bias[2 * 6 + 3] = kNegInf;                              // row 2: one key masked
  const std::vector<float> got = run(c);
  for (int j = 0; j < 6; ++j) CHECK(got[1 * 6 + j] == 0.0f);
  CHECK(got[2 * 6 + 3] == 0.0f);
  for (int i : {0, 2, 3}) {
    double sum = 0;
    for (int j = 0; j < 6; ++j) sum += got[i * 6 + j];
    CHECK(sum == doctest::Approx(1.0).epsilon(14 * 0x1.0p-24));  // (n + 8)·2^-24, n = 6
  }
  CHECK(maxWeightError(c) <= 5e-6);  // see file header
  // Causal masking plus a bias that masks what causal left: also all zeros.
  Case both = randomCase(rng, 2, 2, 3, true);
  both.bias = {kNegInf, 0.0f, 0.0f, 0.0f};  // row 0 may only see key 0, which the bias masks
  const std::vector<float> z = run(both);
  CHECK(z[0] == 0.0f);
  CHECK(z[1] == 0.0f);
}

TEST_CASE("attention with softmax = false returns scale·Q Kᵀ + bias, −Infinity where masked") {
  posenc_test::Rng rng(7);
  Case c = randomCase(rng, 3, 5, 6, true);
  c.softmax = false;
  c.scale = 0.75;
  c.bias.resize(15);
  for (float& v : c.bias) v = float(rng.uniform(-1, 1));
  const std::vector<float> got = run(c);
  const std::vector<double> want = reference(c);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 5; ++j) {
      CAPTURE(i);
      CAPTURE(j);
      if (j > 2 + i) {
        CHECK(got[i * 5 + j] == kNegInf);
      } else {
        // Float32 dot of 6 terms (|q_t k_t| <= 1) plus a bias add: 2e-6 absolute.
        CHECK(got[i * 5 + j] == doctest::Approx(want[i * 5 + j]).epsilon(2e-6));
      }
    }
  }
}

TEST_CASE("attention with an ALiBi bias equals the double reference") {
  posenc_test::Rng rng(8);
  const int n = 12;
  Case c = randomCase(rng, n, n, 16, true);
  c.bias.resize(size_t(n) * n);
  posenc::alibiBias(n, posenc::alibiSlopes(6)[4], true, c.bias.data());  // slope 1/2
  CHECK(maxWeightError(c) <= 5e-6);  // see file header
}

TEST_CASE("attention is numerically stable: scores 100 apart give a one-hot row, scale 0 gives uniform weights") {
  Case c = shape(1, 2, 1, 1.0);
  c.q = {100.0f};
  c.k = {100.0f, 99.0f};  // scores 10000 and 9900: exp overflows without the max shift
  const std::vector<float> got = run(c);
  CHECK(got[0] == 1.0f);
  CHECK(got[1] == 0.0f);  // e^-100 is below the -87 cutoff: exactly 0
  c.scale = 0;
  c.k = {3.0f, -5.0f};
  const std::vector<float> flat = run(c);
  CHECK(flat[0] == 0.5f);
  CHECK(flat[1] == 0.5f);
}

TEST_CASE("attention with zero rows is empty and valid") {
  Case c = shape(0, 0, 4, 0.5);
  CHECK(run(c).empty());
  Case causal = shape(0, 3, 4, 0.5, true);
  causal.k.assign(12, 1.0f);
  CHECK(run(causal).empty());
}

// [SECTION] argument checks -------------------------------------------------------------------

TEST_CASE("causal attention with more query rows than key rows is a RangeError naming the rule") {
  posenc_test::Rng rng(9);
  const Case c = randomCase(rng, 4, 3, 2, true);
  CHECK_THROWS_WITH_AS(run(c), doctest::Contains("causal attention needs rows(q) <= rows(k)"), RangeError);
}

TEST_CASE("attention rejects a bias holding NaN or +Infinity and names the entry") {
  posenc_test::Rng rng(10);
  for (float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
    Case c = randomCase(rng, 2, 2, 2, false);
    c.bias = {0.0f, 0.0f, bad, kNegInf};
    CHECK_THROWS_WITH_AS(run(c), doctest::Contains("bias[2] must be a finite number or -Infinity"), RangeError);
  }
}

TEST_CASE("attention rejects NaN or infinite q and k entries and names them") {
  posenc_test::Rng rng(11);
  for (float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(), kNegInf}) {
    Case c = randomCase(rng, 2, 3, 2, false);
    c.q[3] = bad;
    CHECK_THROWS_WITH_AS(run(c), doctest::Contains("q[3] must be a finite number"), RangeError);
    c = randomCase(rng, 2, 3, 2, false);
    c.k[5] = bad;
    CHECK_THROWS_WITH_AS(run(c), doctest::Contains("k[5] must be a finite number"), RangeError);
  }
}

TEST_CASE("attention rejects a NaN or infinite scale, dim 0 or over kMaxDim and negative row counts") {
  posenc_test::Rng rng(12);
  for (double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(), 2e6}) {
    Case c = randomCase(rng, 2, 2, 2, false);
    c.scale = bad;
    CHECK_THROWS_WITH_AS(run(c), doctest::Contains("scale must be a finite number"), RangeError);
  }
  const std::vector<float> one(4, 0.0f);
  posenc::AttentionParams p;
  p.qRows = 1;
  p.kRows = 1;
  p.scale = 1;
  for (int bad : {0, -1, posenc::kMaxDim + 1}) {
    p.dim = bad;
    CHECK_THROWS_WITH_AS(posenc::checkAttention(p, one.data(), 0, one.data(), 0, 0),
                         doctest::Contains("dim must be an integer in [1, 8192]"), RangeError);
  }
  p.dim = 1;
  p.qRows = -1;
  CHECK_THROWS_WITH_AS(posenc::checkAttention(p, one.data(), 1, one.data(), 1, 0), doctest::Contains("q rows"),
                       RangeError);
  p.qRows = 1;
  p.kRows = posenc::kMaxRows + 1;
  CHECK_THROWS_WITH_AS(posenc::checkAttention(p, one.data(), 1, one.data(), 1, 0), doctest::Contains("k rows"),
                       RangeError);
}

TEST_CASE("attention rejects q, k and bias of the wrong length with a TypeError, and rows(q)·rows(k) over the cap") {
  const std::vector<float> buf(64, 0.5f);
  posenc::AttentionParams p;
  p.qRows = 2;
  p.kRows = 3;
  p.dim = 4;
  p.scale = 0.5;
  CHECK_THROWS_WITH_AS(posenc::checkAttention(p, buf.data(), 7, buf.data(), 12, 0),
                       doctest::Contains("q must have length 8, got 7"), TypeError);
  CHECK_THROWS_WITH_AS(posenc::checkAttention(p, buf.data(), 8, buf.data(), 13, 0),
                       doctest::Contains("k must have length 12, got 13"), TypeError);
  p.bias = buf.data();
  CHECK_THROWS_WITH_AS(posenc::checkAttention(p, buf.data(), 8, buf.data(), 12, 5),
                       doctest::Contains("bias must have length 6, got 5"), TypeError);
  CHECK_NOTHROW(posenc::checkAttention(p, buf.data(), 8, buf.data(), 12, 6));
  p.bias = nullptr;
  p.qRows = 5000;
  p.kRows = 5000;  // 25e6 > 2^24; checked before the lengths
  CHECK_THROWS_WITH_AS(posenc::checkAttention(p, buf.data(), 8, buf.data(), 12, 0),
                       doctest::Contains("rows(q) * rows(k) must be at most"), RangeError);
}

TEST_CASE("a rejected attention call leaves the output untouched") {
  posenc_test::Rng rng(13);
  Case c = randomCase(rng, 2, 2, 2, false);
  c.bias = {0.0f, std::numeric_limits<float>::quiet_NaN(), 0.0f, 0.0f};
  posenc::AttentionParams p;
  p.qRows = 2;
  p.kRows = 2;
  p.dim = 2;
  p.scale = 1;
  p.bias = c.bias.data();
  std::vector<float> out(4, 42.0f);
  CHECK_THROWS_AS(posenc::attention(p, c.q.data(), c.k.data(), out.data()), RangeError);
  for (float v : out) CHECK(v == 42.0f);
}

// [SECTION] softmaxRows -------------------------------------------------------------------------

TEST_CASE("softmaxRows normalises each row of a rows × cols block, −Infinity entries become 0, an all −Infinity row zeros") {
  const float ninf = kNegInf;
  std::vector<float> x = {0.0f, 1.0f, 2.0f,       // row 0
                          ninf, 0.5f, 0.5f,       // row 1: one masked entry
                          ninf, ninf, ninf,       // row 2: nothing to attend to
                          -300.0f, 0.0f, 300.0f}; // row 3: far apart, still stable
  const std::vector<float> in = x;
  posenc::softmaxRows(x.data(), x.size(), 3);
  for (int r = 0; r < 4; ++r) {
    const std::vector<float> row(in.begin() + 3 * r, in.begin() + 3 * r + 3);
    double m = -INFINITY, sum = 0;
    for (float v : row) m = std::max(m, double(v));
    for (float v : row) sum += m == -INFINITY ? 0.0 : std::exp(double(v) - m);
    for (int j = 0; j < 3; ++j) {
      CAPTURE(r);
      CAPTURE(j);
      const double want = m == -INFINITY ? 0.0 : std::exp(double(row[j]) - m) / sum;
      CHECK(x[3 * r + j] == doctest::Approx(want).epsilon(1e-6));  // float32 weights, kernel ~1e-6
    }
  }
  CHECK(x[3] == 0.0f);
  CHECK(x[4] == 0.5f);
  for (int j = 6; j < 9; ++j) CHECK(x[j] == 0.0f);
  CHECK(x[11] == 1.0f);
}

TEST_CASE("softmaxRows accepts an empty block and rejects NaN/+Infinity entries, cols < 1 and a length that is not a multiple of cols") {
  CHECK_NOTHROW(posenc::softmaxRows(nullptr, 0, 4));
  std::vector<float> x = {0.0f, 1.0f, std::numeric_limits<float>::quiet_NaN(), 0.0f};
  CHECK_THROWS_WITH_AS(posenc::softmaxRows(x.data(), x.size(), 2), doctest::Contains("x[2] must be a finite number or -Infinity"),
                       RangeError);
  CHECK(x[0] == 0.0f);  // checked before anything is written
  CHECK(x[1] == 1.0f);
  x[2] = std::numeric_limits<float>::infinity();
  CHECK_THROWS_WITH_AS(posenc::softmaxRows(x.data(), x.size(), 2), doctest::Contains("x[2]"), RangeError);
  x[2] = 0.0f;
  CHECK_THROWS_WITH_AS(posenc::softmaxRows(x.data(), x.size(), 3), doctest::Contains("x.length must be a multiple of cols (3), got 4"),
                       RangeError);
  for (int bad : {0, -1, posenc::kMaxRows + 1}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH_AS(posenc::checkSoftmax(x.data(), x.size(), bad), doctest::Contains("cols must be an integer"),
                         RangeError);
  }
}

}  // namespace attention_test
