#include "alibi.hpp"

#include <cmath>
#include <cstdlib>

#include "errors.hpp"
#include "limits.hpp"

namespace posenc {
namespace {

void powerOfTwoSlopes(int n, std::vector<double>& out) {
  for (int k = 1; k <= n; ++k) out.push_back(std::exp2(-8.0 * k / n));
}

void slopesInto(int n, std::vector<double>& out) {
  int c = 1;
  while (c * 2 <= n) c *= 2;
  powerOfTwoSlopes(c, out);
  if (c == n) return;
  std::vector<double> twice;
  slopesInto(2 * c, twice);
  for (int i = 0; i < n - c; ++i) out.push_back(twice[2 * i]);
}

}  // namespace

void checkAlibiSlopes(int nHeads) { requireInt("nHeads", nHeads, 1, kMaxHeads); }

std::vector<double> alibiSlopes(int nHeads) {
  checkAlibiSlopes(nHeads);
  std::vector<double> out;
  out.reserve(nHeads);
  slopesInto(nHeads, out);
  return out;
}

void checkAlibiBias(int length, double slope) {
  requireInt("length", length, 0, 4096);
  requireReal("slope", slope, 0.0, 1e6);
}

void alibiBias(int length, double slope, bool causal, float* out) {
  checkAlibiBias(length, slope);
  for (int i = 0; i < length; ++i) {
    for (int j = 0; j < length; ++j) {
      out[size_t(i) * length + j] =
          (causal && j > i) ? -INFINITY : static_cast<float>(-slope * std::abs(i - j));
    }
  }
}

}  // namespace posenc
