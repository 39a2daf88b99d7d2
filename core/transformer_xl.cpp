#include "transformer_xl.hpp"

#include <cmath>
#include <cstdint>
#include <string>

#include "errors.hpp"
#include "limits.hpp"
#include "splitmix64.hpp"

namespace posenc {
namespace {

constexpr uint64_t kTagU = 0, kTagV = 1, kTagWr = 2;
uint64_t tagQuery(int p) { return 3 + 2 * uint64_t(p); }
uint64_t tagKey(int p) { return 4 + 2 * uint64_t(p); }

// One SplitMix64 stream per (seed, tag), uniform in [-1, 1); see the header for the recipe.
struct Stream {
  SplitMix64 g;
  Stream(double seed, uint64_t tag) : g{(uint64_t(seed) << 32) + tag} {}
  double next() { return g.uniform() * 2.0 - 1.0; }
};

std::vector<double> draw(double seed, uint64_t tag, size_t n, double scale = 1.0) {
  Stream s(seed, tag);
  std::vector<double> out(n);
  for (double& x : out) x = s.next() * scale;
  return out;
}

double dot(const double* a, const double* b, int n) {
  double sum = 0;
  for (int c = 0; c < n; ++c) sum += a[c] * b[c];
  return sum;
}

}  // namespace

void checkXl(const XlParams& p) {
  requireInt("dim", p.dim, 2, kMaxXlDim);
  requireEven("dim", p.dim);
  requireInt("seed", p.seed, 0, 4294967295.0);
  requireRealAbove("base", p.base, 1.0, kMaxBase);
}

void checkXlPosition(const char* name, double position) { requireInt(name, position, 0, kMaxRows); }

void xlRelativeSinusoid(double r, int dim, double base, double* out) {
  const int half = dim / 2;
  for (int k = 0; k < half; ++k) {
    const double angle = r * std::pow(base, -2.0 * k / dim);
    out[k] = std::sin(angle);
    out[half + k] = std::cos(angle);
  }
}

XlInputs transformerXlInputs(int i, int j, const XlParams& p) {
  checkXl(p);
  checkXlPosition("i", i);
  checkXlPosition("j", j);
  const size_t d = size_t(p.dim);
  XlInputs in;
  in.query = draw(p.seed, tagQuery(i), d);
  in.key = draw(p.seed, tagKey(j), d);
  in.u = draw(p.seed, kTagU, d);
  in.v = draw(p.seed, kTagV, d);
  in.wr = draw(p.seed, kTagWr, d * d, 1.0 / std::sqrt(double(p.dim)));
  in.r.resize(d);
  xlRelativeSinusoid(double(i) - double(j), p.dim, p.base, in.r.data());
  return in;
}

XlTerms transformerXlTerms(int i, int j, const XlParams& p) {
  const XlInputs in = transformerXlInputs(i, j, p);
  const int d = p.dim;
  std::vector<double> wrR(size_t(d), 0.0);  // W_R R_{i-j}
  for (int c = 0; c < d; ++c) wrR[c] = dot(&in.wr[size_t(c) * d], in.r.data(), d);
  XlTerms t;
  t.contentContent = dot(in.query.data(), in.key.data(), d);
  t.contentPosition = dot(in.query.data(), wrR.data(), d);
  t.globalContent = dot(in.u.data(), in.key.data(), d);
  t.globalPosition = dot(in.v.data(), wrR.data(), d);
  t.score = t.contentContent + t.contentPosition + t.globalContent + t.globalPosition;
  return t;
}

void transformerXlRow(int i, const double* keys, size_t n, const XlParams& p, double* out) {
  checkXl(p);
  checkXlPosition("i", i);
  requireInt("keys.length", double(n), 0, kMaxRows);
  for (size_t t = 0; t < n; ++t) {
    const double j = keys[t];
    if (!(std::isfinite(j) && j == std::floor(j) && j >= 0 && j <= kMaxRows)) {
      throw RangeError("keys[" + std::to_string(t) + "] must be an integer in [0, " +
                       std::to_string(kMaxRows) + "], got " + detail::fmt(j));
    }
  }
  const int d = p.dim;
  const std::vector<double> q = draw(p.seed, tagQuery(i), size_t(d));
  const std::vector<double> u = draw(p.seed, kTagU, size_t(d));
  const std::vector<double> v = draw(p.seed, kTagV, size_t(d));
  const std::vector<double> wr = draw(p.seed, kTagWr, size_t(d) * d, 1.0 / std::sqrt(double(d)));
  // W_R^T q and W_R^T v: then (b) = (W_R^T q) . R and (d) = (W_R^T v) . R for every key.
  std::vector<double> wq(size_t(d), 0.0), wv(size_t(d), 0.0);
  for (int c = 0; c < d; ++c) {
    for (int e = 0; e < d; ++e) {
      wq[e] += wr[size_t(c) * d + e] * q[c];
      wv[e] += wr[size_t(c) * d + e] * v[c];
    }
  }
  std::vector<double> r(static_cast<size_t>(d));
  for (size_t t = 0; t < n; ++t) {
    const int j = int(keys[t]);
    const std::vector<double> k = draw(p.seed, tagKey(j), size_t(d));
    xlRelativeSinusoid(double(i) - double(j), d, p.base, r.data());
    double* o = out + 4 * t;
    o[0] = dot(q.data(), k.data(), d);
    o[1] = dot(wq.data(), r.data(), d);
    o[2] = dot(u.data(), k.data(), d);
    o[3] = dot(wv.data(), r.data(), d);
  }
}

}  // namespace posenc
