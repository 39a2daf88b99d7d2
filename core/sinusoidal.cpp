#include "sinusoidal.hpp"

#include <algorithm>
#include <cmath>

#include "errors.hpp"
#include "kernels/dispatch.hpp"
#include "limits.hpp"

namespace posenc {

void checkSinusoidal(const SinusoidalParams& p) {
  requireInt("positions", p.positions, 0, kMaxRows);
  requireInt("dModel", p.dModel, 1, kMaxDim);
  requireRealAbove("base", p.base, 1.0, kMaxBase);
  // The last row, offset + positions - 1, must still be a valid position.
  requireInt("offset", p.offset, 0, kMaxPosition - std::max(p.positions, 1) + 1);
  if (int64_t(p.positions) * p.dModel > kMaxElements) {
    throw RangeError("positions * dModel must be at most " + std::to_string(kMaxElements) +
                     ", got " + std::to_string(int64_t(p.positions) * p.dModel));
  }
}

std::vector<double> sinusoidalFrequencies(int dModel, double base) {
  requireInt("dModel", dModel, 1, kMaxDim);
  requireRealAbove("base", base, 1.0, kMaxBase);
  const double step = -std::log(base) / dModel;
  std::vector<double> f((dModel + 1) / 2);
  for (size_t i = 0; i < f.size(); ++i) f[i] = std::exp(double(2 * i) * step);
  return f;
}

// Rows per block: one exactly reduced sin/cos row per block, the other rows by rotation
// (kernels::sinusoidalBlock). 16 keeps the rotation tables (16 x d/2 x 2 floats) in cache.
constexpr int kBlockRows = 16;

void sinusoidal(const SinusoidalParams& p, float* out) {
  checkSinusoidal(p);
  const std::vector<double> f = sinusoidalFrequencies(p.dModel, p.base);
  const size_t nf = f.size();
  const int blockRows = std::min(kBlockRows, p.positions);
  std::vector<float> rotS(size_t(blockRows) * nf), rotC(size_t(blockRows) * nf), s0(nf), c0(nf);
  for (int k = 0; k < blockRows; ++k) {
    kernels::sincosRow(k, f.data(), nf, rotS.data() + k * nf, rotC.data() + k * nf);
  }
  for (int r = 0; r < p.positions; r += blockRows) {
    kernels::sincosRow(p.offset + r, f.data(), nf, s0.data(), c0.data());
    kernels::sinusoidalBlock(s0.data(), c0.data(), rotS.data(), rotC.data(),
                             size_t(std::min(blockRows, p.positions - r)), p.dModel,
                             out + size_t(r) * p.dModel);
  }
}

double sinusoidalDot(double m, double n, int dModel, double base) {
  requireReal("m", m, -kMaxPosition, kMaxPosition);
  requireReal("n", n, -kMaxPosition, kMaxPosition);
  const std::vector<double> f = sinusoidalFrequencies(dModel, base);
  double dot = 0.0;
  for (int i = 0; i < dModel / 2; ++i) dot += std::cos((m - n) * f[i]);
  if (dModel & 1) dot += std::sin(m * f.back()) * std::sin(n * f.back());
  return dot;
}

}  // namespace posenc
