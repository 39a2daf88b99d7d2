// core/transformer_xl.hpp: the four terms of Transformer-XL's relative score (Dai et al. 2019),
// against an independent transcription: the seeded generator written out again from the header's
// recipe, the relative sinusoid as kimiyoung/transformer-xl's PositionalEmbedding builds it
// (inv_freq = 1 / base^(arange(0, d, 2) / d), cat([sin, cos])), and W_R applied the plain way.

#include "core/transformer_xl.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/limits.hpp"

namespace transformer_xl_test {

using posenc::RangeError;
using posenc::XlParams;

namespace {

// [SECTION] the reference ---------------------------------------------------------------------

std::vector<double> stream(uint64_t seed, uint64_t tag, size_t n) {
  uint64_t state = seed * 4294967296ull + tag;
  std::vector<double> out;
  for (size_t c = 0; c < n; ++c) {
    state += 0x9E3779B97F4A7C15ull;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z = z ^ (z >> 31);
    out.push_back(std::ldexp(double(z >> 11), -53) * 2 - 1);
  }
  return out;
}

struct Ref {
  double a, b, c, d;
};

Ref reference(int i, int j, int dim, uint64_t seed, double base) {
  const size_t n = size_t(dim);
  const std::vector<double> u = stream(seed, 0, n), v = stream(seed, 1, n);
  std::vector<double> w = stream(seed, 2, n * n);
  for (double& x : w) x /= std::sqrt(double(dim));
  const std::vector<double> q = stream(seed, 3 + 2 * uint64_t(i), n);
  const std::vector<double> k = stream(seed, 4 + 2 * uint64_t(j), n);
  // pos_seq = i - j; sinusoid_inp = outer(pos_seq, inv_freq); pos_emb = cat([sin, cos])
  std::vector<double> r;
  for (int s = 0; s < 2; ++s) {
    for (int f = 0; f < dim; f += 2) {
      const double angle = double(i - j) * (1.0 / std::pow(base, double(f) / dim));
      r.push_back(s == 0 ? std::sin(angle) : std::cos(angle));
    }
  }
  std::vector<double> wr(n, 0.0);
  for (size_t row = 0; row < n; ++row)
    for (size_t col = 0; col < n; ++col) wr[row] += w[row * n + col] * r[col];
  Ref out{0, 0, 0, 0};
  for (size_t c = 0; c < n; ++c) {
    out.a += q[c] * k[c];
    out.b += q[c] * wr[c];
    out.c += u[c] * k[c];
    out.d += v[c] * wr[c];
  }
  return out;
}

XlParams params(int dim, double seed, double base = 10000) {
  XlParams p;
  p.dim = dim;
  p.seed = seed;
  p.base = base;
  return p;
}

bool close(double got, double want) { return std::fabs(got - want) <= 1e-12 + 1e-10 * std::fabs(want); }

}  // namespace

// [SECTION] values ------------------------------------------------------------------------------

TEST_CASE("transformerXlTerms: each term equals the transcription for many pairs, seeds and dims") {
  int checked = 0;
  for (int dim : {2, 4, 16, 64}) {
    for (double seed : {0.0, 1.0, 7.0, 4294967295.0}) {
      for (const auto& pair : std::vector<std::pair<int, int>>{{0, 0}, {12, 7}, {7, 12}, {31, 0}, {1000, 3}, {1048576, 1048575}}) {
        const int i = pair.first, j = pair.second;
        const auto t = posenc::transformerXlTerms(i, j, params(dim, seed));
        const Ref r = reference(i, j, dim, uint64_t(seed), 10000);
        INFO("dim " << dim << " seed " << seed << " i " << i << " j " << j);
        CHECK(close(t.contentContent, r.a));
        CHECK(close(t.contentPosition, r.b));
        CHECK(close(t.globalContent, r.c));
        CHECK(close(t.globalPosition, r.d));
        CHECK(close(t.score, r.a + r.b + r.c + r.d));
        ++checked;
      }
    }
  }
  CHECK(checked == 96);
}

TEST_CASE("transformerXlTerms: the base changes only the position terms (b) and (d)") {
  const auto t1 = posenc::transformerXlTerms(9, 2, params(16, 3, 10000));
  const auto t2 = posenc::transformerXlTerms(9, 2, params(16, 3, 500));
  CHECK(t1.contentContent == t2.contentContent);
  CHECK(t1.globalContent == t2.globalContent);
  CHECK(t1.contentPosition != t2.contentPosition);
  const Ref r = reference(9, 2, 16, 3, 500);
  CHECK(close(t2.contentPosition, r.b));
  CHECK(close(t2.globalPosition, r.d));
}

TEST_CASE("transformerXlTerms: (a)+(c) = (q_i + u)·k_j and (b)+(d) = (q_i + v)·W_R R_{i-j}") {
  const XlParams p = params(16, 0);
  const auto in = posenc::transformerXlInputs(12, 7, p);
  const auto t = posenc::transformerXlTerms(12, 7, p);
  double ac = 0, bd = 0;
  for (int c = 0; c < 16; ++c) {
    ac += (in.query[c] + in.u[c]) * in.key[c];
    double wrR = 0;
    for (int e = 0; e < 16; ++e) wrR += in.wr[c * 16 + e] * in.r[e];
    bd += (in.query[c] + in.v[c]) * wrR;
  }
  CHECK(close(t.contentContent + t.globalContent, ac));
  CHECK(close(t.contentPosition + t.globalPosition, bd));
}

TEST_CASE("transformerXlTerms: (d) depends on i - j only; (c) on j only") {
  const XlParams p = params(16, 5);
  const auto a = posenc::transformerXlTerms(10, 4, p);
  const auto b = posenc::transformerXlTerms(26, 20, p);
  CHECK(close(a.globalPosition, b.globalPosition));
  CHECK(a.contentContent != b.contentContent);
  const auto c = posenc::transformerXlTerms(3, 4, p);
  CHECK(a.globalContent == c.globalContent);
}

TEST_CASE("transformerXlInputs: the generator's first draws and R_0") {
  const auto in = posenc::transformerXlInputs(0, 0, params(4, 0));
  const std::vector<double> u = stream(0, 0, 4);
  for (int c = 0; c < 4; ++c) CHECK(in.u[c] == u[c]);
  // R_0 = [sin 0, sin 0, cos 0, cos 0]
  CHECK(in.r == std::vector<double>{0, 0, 1, 1});
  for (double x : in.wr) CHECK(std::fabs(x) < 0.5);  // uniform in [-1, 1) / sqrt(4)
  for (double x : in.query) CHECK((x >= -1 && x < 1));
  CHECK(in.wr.size() == 16);
}

TEST_CASE("transformerXlRow: the same four terms as the single-pair call, for every key") {
  const XlParams p = params(16, 2);
  const std::vector<double> keys{0, 5, 11, 11, 23, 40};
  std::vector<double> out(4 * keys.size(), NAN);
  posenc::transformerXlRow(11, keys.data(), keys.size(), p, out.data());
  for (size_t t = 0; t < keys.size(); ++t) {
    const Ref r = reference(11, int(keys[t]), 16, 2, 10000);
    INFO("key " << keys[t]);
    CHECK(close(out[4 * t], r.a));
    CHECK(close(out[4 * t + 1], r.b));
    CHECK(close(out[4 * t + 2], r.c));
    CHECK(close(out[4 * t + 3], r.d));
  }
  posenc::transformerXlRow(11, keys.data(), 0, p, out.data());  // no keys: nothing to do
}

// [SECTION] argument checks ----------------------------------------------------------------------

TEST_CASE("transformerXl: bad arguments throw a RangeError naming the argument and its range") {
  CHECK_THROWS_WITH_AS(posenc::transformerXlTerms(0, 0, params(3, 0)), "dim must be even (it is split into pairs), got 3", RangeError);
  CHECK_THROWS_WITH_AS(posenc::transformerXlTerms(0, 0, params(0, 0)), "dim must be an integer in [2, 1024], got 0", RangeError);
  CHECK_THROWS_WITH_AS(posenc::transformerXlTerms(0, 0, params(2048, 0)), "dim must be an integer in [2, 1024], got 2048", RangeError);
  CHECK_THROWS_WITH_AS(posenc::transformerXlTerms(0, 0, params(16, -1)), "seed must be an integer in [0, 4294967295], got -1", RangeError);
  CHECK_THROWS_WITH_AS(posenc::transformerXlTerms(0, 0, params(16, 0.5)), "seed must be an integer in [0, 4294967295], got 0.5", RangeError);
  CHECK_THROWS_WITH_AS(posenc::transformerXlTerms(0, 0, params(16, 0, 1)), "base must be a finite number in (1, 1000000000000], got 1", RangeError);
  CHECK_THROWS_WITH_AS(posenc::transformerXlTerms(-1, 0, params(16, 0)), "i must be an integer in [0, 1048576], got -1", RangeError);
  CHECK_THROWS_WITH_AS(posenc::transformerXlTerms(0, 1048577, params(16, 0)), "j must be an integer in [0, 1048576], got 1048577", RangeError);
  const std::vector<double> bad{1, 2.5};
  std::vector<double> out(8);
  CHECK_THROWS_WITH_AS(posenc::transformerXlRow(0, bad.data(), bad.size(), params(16, 0), out.data()),
                       "keys[1] must be an integer in [0, 1048576], got 2.5", RangeError);
  const std::vector<double> negative{-1};
  CHECK_THROWS_WITH_AS(posenc::transformerXlRow(0, negative.data(), 1, params(16, 0), out.data()),
                       "keys[0] must be an integer in [0, 1048576], got -1", RangeError);
}

}  // namespace transformer_xl_test
