#include "sinusoidal.hpp"

#include <cmath>

#include "errors.hpp"
#include "kernels/dispatch.hpp"
#include "limits.hpp"

namespace posenc {

void checkSinusoidal(const SinusoidalParams& p) {
  requireInt("positions", p.positions, 0, kMaxRows);
  requireInt("dModel", p.dModel, 1, kMaxDim);
  requireRealAbove("base", p.base, 1.0, kMaxBase);
  requireInt("offset", p.offset, 0, kMaxPosition - p.positions);
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

void sinusoidal(const SinusoidalParams& p, float* out) {
  checkSinusoidal(p);
  const std::vector<double> f = sinusoidalFrequencies(p.dModel, p.base);
  for (int r = 0; r < p.positions; ++r) {
    kernels::sinusoidalRow(p.offset + r, f.data(), p.dModel, out + size_t(r) * p.dModel);
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
