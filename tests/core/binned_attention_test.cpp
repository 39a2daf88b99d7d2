// core/binned_attention.hpp: softmax attention of caller-built queries and keys,
// only the asked rows (keys summed into bins) plus one exact row. The reference is a plain
// double-precision transcription of s_ij = q_i·k_j / sqrt(d) + bias(j - i), causal mask j > i,
// p_ij = exp(s_ij - max) / sum, and bin c = keys [floor(c·n/C), floor((c+1)·n/C)).
//
// Tolerances: 2e-6 absolute on a score (float32 dot products of 8 terms of size <= 1), 1e-6 on
// a probability and (n + 8) · 2^-24 per bin (float32 softmax and bin sums).

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/binned_attention.hpp"

namespace binned_attention_test {

namespace {

struct Case {
  int n = 37, d = 8, columns = 10, query = 20;
  bool causal = false;
  bool withBias = false;
};

// Deterministic inputs without the core: a small linear congruential sequence in [-1, 1).
std::vector<float> values(size_t count, uint32_t seed) {
  std::vector<float> out(count);
  uint32_t x = seed;
  for (auto& v : out) {
    x = x * 1664525u + 1013904223u;
    v = float(double(x >> 8) / double(1u << 24) * 2.0 - 1.0);
  }
  return out;
}

std::vector<double> referenceRow(const Case& c, const std::vector<float>& q, const std::vector<float>& k,
                                 const std::vector<float>& bias, int i, std::vector<double>* scoresOut) {
  std::vector<double> s(size_t(c.n));
  double m = -INFINITY;
  for (int j = 0; j < c.n; ++j) {
    double dot = 0;
    for (int x = 0; x < c.d; ++x) dot += double(q[size_t(i) * c.d + x]) * double(k[size_t(j) * c.d + x]);
    s[size_t(j)] = dot / std::sqrt(double(c.d)) + (c.withBias ? double(bias[size_t(j - i + c.n - 1)]) : 0.0);
    if (c.causal && j > i) s[size_t(j)] = -INFINITY;
    m = std::max(m, s[size_t(j)]);
  }
  if (scoresOut) *scoresOut = s;
  std::vector<double> p(size_t(c.n));
  double sum = 0;
  for (int j = 0; j < c.n; ++j) sum += p[size_t(j)] = std::exp(s[size_t(j)] - m);
  for (double& v : p) v /= sum;
  return p;
}

void check(const Case& c) {
  const auto q = values(size_t(c.n) * c.d, 7), k = values(size_t(c.n) * c.d, 11);
  std::vector<float> bias(size_t(2 * c.n - 1));
  for (int o = 0; o < 2 * c.n - 1; ++o) bias[size_t(o)] = -0.25f * float(std::abs(o - (c.n - 1)));
  const std::vector<double> rows{0, 3, 20, double(c.n - 1)};
  posenc::BinnedAttentionParams p;
  p.n = c.n;
  p.dim = c.d;
  p.columns = c.columns;
  p.query = c.query;
  p.causal = c.causal;
  p.biasByOffset = c.withBias ? bias.data() : nullptr;
  std::vector<float> cells(rows.size() * c.columns, 42.0f), scores(size_t(c.n), 42.0f), probs(size_t(c.n), 42.0f);
  posenc::binnedAttention(p, q.data(), k.data(), rows.data(), rows.size(), cells.data(), scores.data(), probs.data());

  std::vector<double> refScores;
  const auto exact = referenceRow(c, q, k, bias, c.query, &refScores);
  for (int j = 0; j < c.n; ++j) {
    if (std::isinf(refScores[size_t(j)])) CHECK(std::isinf(scores[size_t(j)]));
    else CHECK(std::fabs(scores[size_t(j)] - refScores[size_t(j)]) <= 2e-6);
    CHECK(std::fabs(probs[size_t(j)] - exact[size_t(j)]) <= 1e-6);
  }
  for (size_t r = 0; r < rows.size(); ++r) {
    const auto ref = referenceRow(c, q, k, bias, int(rows[r]), nullptr);
    double rowSum = 0;
    for (int col = 0; col < c.columns; ++col) {
      double want = 0;
      for (int j = int(int64_t(col) * c.n / c.columns); j < int(int64_t(col + 1) * c.n / c.columns); ++j) want += ref[size_t(j)];
      const float got = cells[r * c.columns + col];
      CHECK(std::fabs(got - want) <= (c.n + 8) * std::ldexp(1.0, -24));
      rowSum += got;
    }
    CHECK(std::fabs(rowSum - 1.0) <= (c.n + 8) * std::ldexp(1.0, -24));
  }
}

}  // namespace

TEST_CASE("binnedAttention: bins, exact row and scores against a double transcription") {
  Case c;
  SUBCASE("plain") { check(c); }
  SUBCASE("causal") { c.causal = true; check(c); }
  SUBCASE("bias by offset, causal") { c.withBias = true; c.causal = true; check(c); }
  SUBCASE("bias by offset, one key per bin") { c.withBias = true; c.columns = c.n; check(c); }
  SUBCASE("more than one block of rows (64)") { c.n = 150; c.columns = 7; c.query = 149; check(c); }
}

TEST_CASE("binnedAttention: a drawn row equals the exact row of the same query") {
  const int n = 40, d = 6;
  const auto q = values(size_t(n) * d, 3), k = values(size_t(n) * d, 5);
  std::vector<double> rows;
  for (int i = 0; i < n; ++i) rows.push_back(i);
  posenc::BinnedAttentionParams p;
  p.n = n;
  p.dim = d;
  p.columns = n;
  p.causal = true;
  std::vector<float> cells(size_t(n) * n), scores(n), probs(n);
  for (int i : {0, 17, 39}) {
    p.query = i;
    posenc::binnedAttention(p, q.data(), k.data(), rows.data(), rows.size(), cells.data(), scores.data(), probs.data());
    for (int j = 0; j < n; ++j) CHECK(cells[size_t(i) * n + j] == probs[size_t(j)]);
  }
}

TEST_CASE("binnedAttention: bad counts and rows are refused by name") {
  const std::vector<float> q(16 * 4, 0.5f);
  std::vector<float> cells(64), scores(16), probs(16);
  posenc::BinnedAttentionParams p;
  p.n = 16;
  p.dim = 4;
  p.columns = 4;
  const double good[] = {0, 15}, bad[] = {0, 16}, frac[] = {1.5};
  CHECK_NOTHROW(posenc::binnedAttention(p, q.data(), q.data(), good, 2, cells.data(), scores.data(), probs.data()));
  auto message = [&](posenc::BinnedAttentionParams pp, const double* rows, size_t count) {
    try {
      posenc::binnedAttention(pp, q.data(), q.data(), rows, count, cells.data(), scores.data(), probs.data());
    } catch (const posenc::RangeError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(message(p, bad, 2).find("rows[1]") != std::string::npos);
  CHECK(message(p, frac, 1).find("rows[0]") != std::string::npos);
  auto c = p;
  c.columns = 17;
  CHECK(message(c, good, 2).find("columns") != std::string::npos);
  c = p;
  c.query = -1;
  CHECK(message(c, good, 2).find("query") != std::string::npos);
  c = p;
  c.n = 0;
  CHECK(message(c, good, 0).find("n") != std::string::npos);
  c = p;
  c.dim = 0;
  CHECK(message(c, good, 2).find("dim") != std::string::npos);
}

}  // namespace binned_attention_test
