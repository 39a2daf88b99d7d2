#include "vision.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "errors.hpp"
#include "limits.hpp"
#include "splitmix64.hpp"

namespace posenc {
namespace {

constexpr double kTwoPi = 6.283185307179586476925286766559;

void requireQuarterDim(const char* name, double d) {
  requireInt(name, d, 4, kMaxDim);
  if (int(d) % 4 != 0) {
    throw RangeError(std::string(name) +
                     " must be a multiple of 4 (each axis takes half, as sines and cosines or "
                     "as rotation pairs), got " + detail::fmt(d));
  }
}

void requireElements(const char* what, double count) {
  if (count > double(kMaxElements)) {
    throw RangeError(std::string(what) + " must be at most " + std::to_string(kMaxElements) +
                     ", got " + detail::fmt(count));
  }
}

int rowsOfTable(size_t length, int d, const char* name) {
  if (length == 0 || length % size_t(d) != 0) {
    throw RangeError(std::string(name) + ".length must be a positive multiple of d (" +
                     std::to_string(d) + "), got " + std::to_string(length));
  }
  return int(length / size_t(d));
}

// Rotates the d/2 interleaved pairs of x as at patch (r, c) into out.
void rotateAt(const float* x, int d, const std::vector<double>& w, int r, int c, float* out) {
  const int quarter = d / 4;
  for (int p = 0; p < d / 2; ++p) {
    const double angle = p < quarter ? c * w[p] : r * w[p - quarter];
    const double cs = std::cos(angle), sn = std::sin(angle);
    const double a = x[2 * p], b = x[2 * p + 1];
    out[2 * p] = static_cast<float>(a * cs - b * sn);
    out[2 * p + 1] = static_cast<float>(b * cs + a * sn);
  }
}

}  // namespace

void checkGrid(const char* rowsName, double rows, const char* colsName, double cols) {
  requireInt(rowsName, rows, 1, kMaxGridSide);
  requireInt(colsName, cols, 1, kMaxGridSide);
}

std::vector<double> gridFrequencies(int d, double base) {
  requireQuarterDim("d", d);
  requireRealAbove("base", base, 1.0, kMaxBase);
  const int quarter = d / 4;
  std::vector<double> w(quarter);
  for (int k = 0; k < quarter; ++k) w[k] = std::pow(base, -double(k) / quarter);
  return w;
}

// [SECTION] 2-D sin-cos ------------------------------------------------------------------------

void checkSincos2d(double rows, double cols, double d, double base) {
  checkGrid("rows", rows, "cols", cols);
  requireQuarterDim("d", d);
  requireRealAbove("base", base, 1.0, kMaxBase);
  requireElements("rows * cols * d", rows * cols * d);
}

void sincos2d(int rows, int cols, int d, double base, float* out) {
  checkSincos2d(rows, cols, d, base);
  const std::vector<double> w = gridFrequencies(d, base);
  const int quarter = d / 4, half = d / 2;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      float* v = out + (size_t(r) * cols + c) * d;
      for (int k = 0; k < quarter; ++k) {
        v[k] = static_cast<float>(std::sin(c * w[k]));
        v[quarter + k] = static_cast<float>(std::cos(c * w[k]));
        v[half + k] = static_cast<float>(std::sin(r * w[k]));
        v[half + quarter + k] = static_cast<float>(std::cos(r * w[k]));
      }
    }
  }
}

// [SECTION] axial 2-D RoPE ---------------------------------------------------------------------

void checkAxialRope(const float* x, size_t xLength, double rows, double cols, double base) {
  checkGrid("rows", rows, "cols", cols);
  requireQuarterDim("x.length", double(xLength));
  requireRealAbove("base", base, 1.0, kMaxBase);
  requireElements("rows * cols * x.length", rows * cols * double(xLength));
  requireFinite("x", x, xLength);
}

void axialRope(const float* x, int rows, int cols, int d, double base, float* out) {
  checkAxialRope(x, size_t(d), rows, cols, base);
  const std::vector<double> w = gridFrequencies(d, base);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) rotateAt(x, d, w, r, c, out + (size_t(r) * cols + c) * d);
  }
}

void checkAxialRopeScores(double rows, double cols, double d, double r, double c, double base,
                          const float* q, size_t qLength) {
  checkGrid("rows", rows, "cols", cols);
  requireQuarterDim("d", d);
  requireInt("r", r, 0, rows - 1);
  requireInt("c", c, 0, cols - 1);
  requireRealAbove("base", base, 1.0, kMaxBase);
  requireLength("q", qLength, size_t(d));
  requireFinite("q", q, qLength);
}

void axialRopeScores(int rows, int cols, int d, int r, int c, double base, const float* q,
                     bool cosine, double* out) {
  checkAxialRopeScores(rows, cols, d, r, c, base, q, size_t(d));
  const std::vector<double> w = gridFrequencies(d, base);
  const int half = d / 2;
  std::vector<float> qr(d), kr(d);
  rotateAt(q, d, w, r, c, qr.data());
  double norm2 = 0;
  for (int j = 0; j < d; ++j) norm2 += double(q[j]) * q[j];
  // The first half of k' depends on the column only and the second on the row only, so the dot
  // product q' . k' splits into a column part and a row part: rows + cols rotations instead of
  // rows * cols.
  std::vector<double> colPart(cols), rowPart(rows);
  for (int c2 = 0; c2 < cols; ++c2) {
    rotateAt(q, d, w, 0, c2, kr.data());
    double s = 0;
    for (int j = 0; j < half; ++j) s += double(qr[j]) * kr[j];
    colPart[c2] = s;
  }
  for (int r2 = 0; r2 < rows; ++r2) {
    rotateAt(q, d, w, r2, 0, kr.data());
    double s = 0;
    for (int j = half; j < d; ++j) s += double(qr[j]) * kr[j];
    rowPart[r2] = s;
  }
  const double scale = !cosine ? 1.0 : (norm2 > 0 ? 1.0 / norm2 : 0.0);
  for (int r2 = 0; r2 < rows; ++r2) {
    for (int c2 = 0; c2 < cols; ++c2) out[size_t(r2) * cols + c2] = (colPart[c2] + rowPart[r2]) * scale;
  }
}

// [SECTION] learned grid -----------------------------------------------------------------------

void checkLearnedGrid(double rows, double cols, double d, double seed, double stdDev) {
  checkGrid("rows", rows, "cols", cols);
  requireInt("d", d, 1, kMaxDim);
  requireInt("seed", seed, 0, 4294967295.0);
  requireReal("std", stdDev, 0.0, 1e3);
  requireElements("rows * cols * d", rows * cols * d);
}

void learnedGrid(int rows, int cols, int d, double seed, double stdDev, float* out) {
  checkLearnedGrid(rows, cols, d, seed, stdDev);
  const uint64_t s = uint64_t(seed) << 32;
  // The wave carries 15/16 of the variance, the noise 1/16: sqrt(2) * cos has variance 1.
  const double waveAmp = std::sqrt(2.0 * 15.0 / 16.0) * stdDev;
  const double noiseAmp = stdDev / 4;
  for (int j = 0; j < d; ++j) {
    SplitMix64 g{s ^ (uint64_t(j) + 1) * 0xA24BAED4963EE407ull};
    const double f1 = 0.25 + 1.25 * g.uniform(), f2 = 0.25 + 1.25 * g.uniform();
    const double phase = kTwoPi * g.uniform();
    const double sign = g.uniform() < 0.5 ? -1.0 : 1.0;
    const double fr = j % 3 == 1 ? 0.0 : f1;
    const double fc = j % 3 == 0 ? 0.0 : (j % 3 == 2 ? sign * f2 : f1);
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < cols; ++c) {
        const double t = kTwoPi * (fr * (r + 0.5) / rows + fc * (c + 0.5) / cols) + phase;
        out[(size_t(r) * cols + c) * d + j] = static_cast<float>(waveAmp * std::cos(t));
      }
    }
  }
  // Noise: one stream per patch, d normals by Box-Muller.
  for (size_t patch = 0; patch < size_t(rows) * cols; ++patch) {
    SplitMix64 g{s ^ (uint64_t(patch) + 1) * 0xD1B54A32D192ED03ull ^ 0x5EEDull};
    float* v = out + patch * d;
    for (int j = 0; j < d; j += 2) {
      const double u1 = 1.0 - g.uniform(), u2 = g.uniform();
      const double rad = std::sqrt(-2.0 * std::log(u1)) * noiseAmp;
      v[j] = static_cast<float>(v[j] + rad * std::cos(kTwoPi * u2));
      if (j + 1 < d) v[j + 1] = static_cast<float>(v[j + 1] + rad * std::sin(kTwoPi * u2));
    }
  }
}

// [SECTION] resizing ---------------------------------------------------------------------------

void checkInterpolateGrid(const float* table, size_t tableLength, double rows, double cols,
                          double d, double newRows, double newCols) {
  checkGrid("rows", rows, "cols", cols);
  checkGrid("newRows", newRows, "newCols", newCols);
  requireInt("d", d, 1, kMaxDim);
  requireElements("rows * cols * d", rows * cols * d);
  requireLength("table", tableLength, size_t(rows * cols * d));
  requireElements("newRows * newCols * d", newRows * newCols * d);
  requireFinite("table", table, tableLength);
}

namespace {
struct Tap {
  int i0, i1;
  double w0, w1;
};

// PyTorch's source index for one output index (see the header).
Tap tap(int i, int nIn, int nOut, bool alignCorners) {
  double s;
  if (alignCorners) {
    s = nOut > 1 ? double(i) * (nIn - 1) / (nOut - 1) : 0.0;
  } else {
    s = (i + 0.5) * nIn / nOut - 0.5;
    if (s < 0) s = 0;
  }
  const int i0 = std::min(int(s), nIn - 1);
  const int i1 = i0 < nIn - 1 ? i0 + 1 : i0;
  const double w1 = s - i0;
  return {i0, i1, 1.0 - w1, w1};
}
}  // namespace

void interpolateGrid(const float* table, int rows, int cols, int d, int newRows, int newCols,
                     bool alignCorners, float* out) {
  checkInterpolateGrid(table, size_t(rows) * cols * d, rows, cols, d, newRows, newCols);
  std::vector<Tap> ty(newRows), tx(newCols);
  for (int i = 0; i < newRows; ++i) ty[i] = tap(i, rows, newRows, alignCorners);
  for (int i = 0; i < newCols; ++i) tx[i] = tap(i, cols, newCols, alignCorners);
  auto at = [&](int r, int c) { return table + (size_t(r) * cols + c) * d; };
  for (int r = 0; r < newRows; ++r) {
    const Tap& y = ty[r];
    for (int c = 0; c < newCols; ++c) {
      const Tap& x = tx[c];
      const float *a = at(y.i0, x.i0), *b = at(y.i0, x.i1), *e = at(y.i1, x.i0), *f = at(y.i1, x.i1);
      float* v = out + (size_t(r) * newCols + c) * d;
      for (int j = 0; j < d; ++j) {
        v[j] = static_cast<float>(y.w0 * (x.w0 * a[j] + x.w1 * b[j]) +
                                  y.w1 * (x.w0 * e[j] + x.w1 * f[j]));
      }
    }
  }
}

// [SECTION] similarity -------------------------------------------------------------------------

void checkGridSimilarity(const float* table, size_t tableLength, double d, double index) {
  requireInt("d", d, 1, kMaxDim);
  const int n = rowsOfTable(tableLength, int(d), "table");
  requireInt("index", index, 0, n - 1);
  requireFinite("table", table, tableLength);
}

void gridSimilarity(const float* table, size_t n, int d, int index, bool cosine, double* out) {
  checkGridSimilarity(table, n * size_t(d), d, index);
  const float* a = table + size_t(index) * d;
  double na = 0;
  for (int j = 0; j < d; ++j) na += double(a[j]) * a[j];
  for (size_t i = 0; i < n; ++i) {
    const float* b = table + i * d;
    double dot = 0, nb = 0;
    for (int j = 0; j < d; ++j) {
      dot += double(a[j]) * b[j];
      nb += double(b[j]) * b[j];
    }
    out[i] = !cosine ? dot : (na > 0 && nb > 0 ? dot / std::sqrt(na * nb) : 0.0);
  }
}

}  // namespace posenc
