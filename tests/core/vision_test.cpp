// core/vision.hpp: positions on a 2-D patch grid, against references written out below.
//
//   sincos2d          MAE's get_2d_sincos_pos_embed transcribed step by step (meshgrid of (w, h),
//                     a 1-D table per coordinate, [sin | cos] concatenated, column half first)
//   axialRope         the existing 1-D RoPE (posenc::ropeApply, interleaved, dim d/2) applied to
//                     each half with the column and the row as the position
//   axialRopeScores   the closed form sum over pairs of |pair|^2 cos(w (pos_q - pos_k))
//   interpolateGrid   PyTorch F.interpolate(mode='bilinear') golden outputs, and a separable
//                     reference (resize the columns, then the rows) with the index formulas of
//                     aten/src/ATen/native/UpSample.h
//   gridSimilarity    the cosine written out
//
// Tolerances: float32 outputs of double maths, 1e-6 absolute (values in [-1, 1], or a few
// units for the interpolation sums); double outputs 1e-12 against double references.

#include "core/vision.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "core/errors.hpp"
#include "core/limits.hpp"
#include "core/rope.hpp"
#include "test_util.hpp"

namespace vision_test {

using posenc::RangeError;
using posenc::TypeError;

namespace {

// [REFERENCES] -------------------------------------------------------------------------------

// MAE: get_1d_sincos_pos_embed_from_grid(D, pos): omega = 1 / base^(arange(D/2) / (D/2)),
// out = pos * omega, emb = concat(sin(out), cos(out)).
std::vector<double> oneD(int halfDim, double pos, double base) {
  const int n = halfDim / 2;
  std::vector<double> emb(halfDim);
  for (int i = 0; i < n; ++i) {
    const double omega = 1.0 / std::pow(base, double(i) / n);
    emb[i] = std::sin(pos * omega);
    emb[n + i] = std::cos(pos * omega);
  }
  return emb;
}

// get_2d_sincos_pos_embed: grid = meshgrid(w, h) -> grid[0] holds the column, grid[1] the row;
// emb = concat(oneD(d/2, grid[0]), oneD(d/2, grid[1])).
std::vector<double> maeTable(int rows, int cols, int d, double base) {
  std::vector<double> t;
  for (int h = 0; h < rows; ++h) {
    for (int w = 0; w < cols; ++w) {
      const std::vector<double> a = oneD(d / 2, w, base), b = oneD(d / 2, h, base);
      t.insert(t.end(), a.begin(), a.end());
      t.insert(t.end(), b.begin(), b.end());
    }
  }
  return t;
}

std::vector<float> sincos(int rows, int cols, int d, double base) {
  std::vector<float> out(size_t(rows) * cols * d);
  posenc::sincos2d(rows, cols, d, base, out.data());
  return out;
}

// One axis of PyTorch's bilinear upsampling: source index, two taps, two weights.
struct Taps {
  int i0, i1;
  double l0, l1;
};
Taps torchTaps(int dst, int in, int out, bool alignCorners) {
  double src;
  if (alignCorners) {
    const double scale = out > 1 ? double(in - 1) / (out - 1) : 0.0;
    src = scale * dst;
  } else {
    const double scale = double(in) / out;
    src = scale * (dst + 0.5) - 0.5;
    src = src < 0 ? 0 : src;
  }
  const int i0 = int(src);
  const int i1 = i0 + (i0 < in - 1 ? 1 : 0);
  const double l1 = src - i0;
  return {i0, i1, 1 - l1, l1};
}

// Separable reference: columns first (rows x newCols), then rows.
std::vector<double> separable(const std::vector<float>& t, int rows, int cols, int d, int nr,
                              int nc, bool ac) {
  std::vector<double> mid(size_t(rows) * nc * d), out(size_t(nr) * nc * d);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < nc; ++c) {
      const Taps x = torchTaps(c, cols, nc, ac);
      for (int j = 0; j < d; ++j) {
        mid[(size_t(r) * nc + c) * d + j] = x.l0 * t[(size_t(r) * cols + x.i0) * d + j] +
                                            x.l1 * t[(size_t(r) * cols + x.i1) * d + j];
      }
    }
  }
  for (int r = 0; r < nr; ++r) {
    const Taps y = torchTaps(r, rows, nr, ac);
    for (int c = 0; c < nc; ++c) {
      for (int j = 0; j < d; ++j) {
        out[(size_t(r) * nc + c) * d + j] = y.l0 * mid[(size_t(y.i0) * nc + c) * d + j] +
                                            y.l1 * mid[(size_t(y.i1) * nc + c) * d + j];
      }
    }
  }
  return out;
}

std::vector<float> resize(const std::vector<float>& t, int rows, int cols, int d, int nr, int nc,
                          bool ac) {
  std::vector<float> out(size_t(nr) * nc * d);
  posenc::interpolateGrid(t.data(), rows, cols, d, nr, nc, ac, out.data());
  return out;
}

std::vector<float> learned(int rows, int cols, int d, double seed = 3, double sd = 0.02) {
  std::vector<float> out(size_t(rows) * cols * d);
  posenc::learnedGrid(rows, cols, d, seed, sd, out.data());
  return out;
}

double cosine(const float* a, const float* b, int d) {
  double ab = 0, aa = 0, bb = 0;
  for (int j = 0; j < d; ++j) {
    ab += double(a[j]) * b[j];
    aa += double(a[j]) * a[j];
    bb += double(b[j]) * b[j];
  }
  return ab / std::sqrt(aa * bb);
}

}  // namespace

// [SIN-COS] ----------------------------------------------------------------------------------

TEST_CASE("sincos2d equals MAE's get_2d_sincos_pos_embed for 14x14 (ViT-B/16 at 224 px), 7x5 and 1x1") {
  struct Case { int rows, cols, d; double base; };
  for (const Case k : {Case{14, 14, 64, 10000}, Case{7, 5, 16, 10000}, Case{1, 1, 4, 100},
                       Case{24, 24, 768, 10000}, Case{3, 9, 8, 100}}) {
    CAPTURE(k.rows);
    CAPTURE(k.cols);
    CAPTURE(k.d);
    const std::vector<float> got = sincos(k.rows, k.cols, k.d, k.base);
    const std::vector<double> want = maeTable(k.rows, k.cols, k.d, k.base);
    REQUIRE(got.size() == want.size());
    posenc_test::MaxError e;
    for (size_t i = 0; i < got.size(); ++i) e.add(got[i], want[i], double(i));
    CAPTURE(e.where);
    CHECK(e.value <= 1e-6);
  }
}

TEST_CASE("sincos2d: patch (r, c) . patch (r2, c2) = sum_k cos(w_k (c - c2)) + cos(w_k (r - r2)), d/2 at itself") {
  const int rows = 14, cols = 14, d = 64;
  const std::vector<float> t = sincos(rows, cols, d, 10000);
  const std::vector<double> w = posenc::gridFrequencies(d, 10000);
  REQUIRE(w.size() == 16);
  CHECK(w[1] == doctest::Approx(std::pow(10000.0, -1.0 / 16)).epsilon(1e-15));
  posenc_test::MaxError e;
  for (int a = 0; a < rows * cols; a += 13) {
    for (int b = 0; b < rows * cols; b += 7) {
      double dot = 0;
      for (int j = 0; j < d; ++j) dot += double(t[a * d + j]) * t[b * d + j];
      double want = 0;
      for (double wk : w) want += std::cos(wk * (a % cols - b % cols)) + std::cos(wk * (a / cols - b / cols));
      e.add(dot, want, a * 1000 + b);
    }
  }
  CHECK(e.value <= 2e-5);  // 64 float32 products
  double self = 0;
  for (int j = 0; j < d; ++j) self += double(t[37 * d + j]) * t[37 * d + j];
  CHECK(self == doctest::Approx(32).epsilon(1e-6));
}

// [AXIAL ROPE] -------------------------------------------------------------------------------

TEST_CASE("axialRope = 1-D RoPE (interleaved, dim d/2) of the first half at the column and of the second half at the row") {
  const int rows = 5, cols = 7, d = 16;
  posenc_test::Rng rng(11);
  std::vector<float> x(d);
  for (float& v : x) v = float(rng.uniform(-1, 1));
  for (double base : {100.0, 10000.0}) {
    std::vector<float> got(size_t(rows) * cols * d);
    posenc::axialRope(x.data(), rows, cols, d, base, got.data());
    const posenc::RopeFrequencies f = posenc::ropeFrequencies(d / 2, base);
    posenc_test::MaxError e;
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < cols; ++c) {
        std::vector<float> lo(x.begin(), x.begin() + d / 2), hi(x.begin() + d / 2, x.end());
        const double pc = c, pr = r;
        posenc::ropeApply(lo.data(), &pc, 1, d / 2, posenc::RopeLayout::Interleaved, f);
        posenc::ropeApply(hi.data(), &pr, 1, d / 2, posenc::RopeLayout::Interleaved, f);
        const float* g = got.data() + (size_t(r) * cols + c) * d;
        for (int j = 0; j < d / 2; ++j) {
          e.add(g[j], lo[j], r * 100 + c);
          e.add(g[d / 2 + j], hi[j], r * 100 + c);
        }
      }
    }
    CAPTURE(base);
    CHECK(e.value <= 1e-6);
  }
}

TEST_CASE("axialRopeScores follows sum |pair|^2 cos(w (pos_q - pos_k)) and depends only on the offsets") {
  const int rows = 14, cols = 14, d = 64;
  posenc_test::Rng rng(5);
  std::vector<float> q(d);
  for (float& v : q) v = float(rng.uniform(-1, 1));
  const std::vector<double> w = posenc::gridFrequencies(d, 100);
  std::vector<double> s(rows * cols), cos(rows * cols);
  for (int r : {0, 6, 13}) {
    for (int c : {0, 3, 13}) {
      posenc::axialRopeScores(rows, cols, d, r, c, 100, q.data(), false, s.data());
      posenc::axialRopeScores(rows, cols, d, r, c, 100, q.data(), true, cos.data());
      double norm2 = 0;
      for (float v : q) norm2 += double(v) * v;
      posenc_test::MaxError e, ec;
      for (int r2 = 0; r2 < rows; ++r2) {
        for (int c2 = 0; c2 < cols; ++c2) {
          double want = 0;
          for (int p = 0; p < d / 2; ++p) {
            const double mag = double(q[2 * p]) * q[2 * p] + double(q[2 * p + 1]) * q[2 * p + 1];
            const bool col = p < d / 4;
            want += mag * std::cos(w[p % (d / 4)] * (col ? c - c2 : r - r2));
          }
          e.add(s[r2 * cols + c2], want, r2 * 100 + c2);
          ec.add(cos[r2 * cols + c2], want / norm2, r2 * 100 + c2);
        }
      }
      CHECK(e.value <= 1e-5);  // rotated vectors are float32: ~d * 6e-8 * |q|^2
      CHECK(ec.value <= 1e-6);
      CHECK(cos[r * cols + c] == doctest::Approx(1).epsilon(1e-6));
    }
  }
}

TEST_CASE("axialRopeScores with (0.6, 0.4) in every pair and sincos2d give the same cosines at the same base") {
  const int rows = 7, cols = 7, d = 32;
  std::vector<float> q(d);
  for (int j = 0; j < d; ++j) q[j] = j % 2 ? 0.4f : 0.6f;
  const std::vector<float> t = sincos(rows, cols, d, 10000);
  std::vector<double> rope(rows * cols), pe(rows * cols);
  posenc::axialRopeScores(rows, cols, d, 2, 5, 10000, q.data(), true, rope.data());
  posenc::gridSimilarity(t.data(), rows * cols, d, 2 * cols + 5, true, pe.data());
  posenc_test::MaxError e;
  for (int i = 0; i < rows * cols; ++i) e.add(rope[i], pe[i], i);
  CHECK(e.value <= 2e-6);
}

// [LEARNED GRID] -----------------------------------------------------------------------------

TEST_CASE("learnedGrid is deterministic per seed, about N(0, std^2), and smooth: neighbours are more alike than far patches") {
  const std::vector<float> a = learned(14, 14, 96), b = learned(14, 14, 96), c = learned(14, 14, 96, 4);
  CHECK(a == b);
  int same = 0;
  for (size_t i = 0; i < a.size(); ++i) same += a[i] == c[i];
  CHECK(same == 0);
  double sum = 0, sq = 0;
  for (float v : a) {
    sum += v;
    sq += double(v) * v;
  }
  const double n = double(a.size());
  CHECK(std::fabs(sum / n) < 0.004);                             // a wave's mean over a grid is not 0
  CHECK(std::sqrt(sq / n) == doctest::Approx(0.02).epsilon(0.25));  // 96 waves: a loose band
  // Mean cosine to the right-hand neighbour against the mean cosine to the patch 7 rows and
  // 7 columns away.
  double near = 0, far = 0;
  int count = 0;
  for (int r = 0; r < 7; ++r) {
    for (int cc = 0; cc < 7; ++cc) {
      const float* p = a.data() + (r * 14 + cc) * 96;
      near += cosine(p, p + 96, 96);
      far += cosine(p, a.data() + ((r + 7) * 14 + cc + 7) * 96, 96);
      ++count;
    }
  }
  CHECK(near / count > 0.8);
  CHECK(far / count < near / count - 0.3);
  // std scales every entry (the same waves and noise).
  const std::vector<float> big = learned(14, 14, 96, 3, 0.04);
  for (size_t i = 0; i < a.size(); i += 97) CHECK(big[i] == doctest::Approx(2 * a[i]).epsilon(1e-6));
}

// [RESIZING] ---------------------------------------------------------------------------------

TEST_CASE("interpolateGrid matches PyTorch bilinear on [[0, 1], [2, 3]] -> 4x4, align_corners False and True") {
  const std::vector<float> t = {0, 1, 2, 3};
  const std::vector<float> f = resize(t, 2, 2, 1, 4, 4, false);
  const double wantF[16] = {0, 0.25, 0.75, 1, 0.5, 0.75, 1.25, 1.5, 1.5, 1.75, 2.25, 2.5, 2, 2.25, 2.75, 3};
  for (int i = 0; i < 16; ++i) CHECK(f[i] == doctest::Approx(wantF[i]).epsilon(1e-7));
  const std::vector<float> tr = resize(t, 2, 2, 1, 4, 4, true);
  const double third = 1.0 / 3;
  const double wantT[16] = {0, third, 2 * third, 1, 2 * third, 1, 4 * third, 5 * third,
                            4 * third, 5 * third, 2, 7 * third, 2, 7 * third, 8 * third, 3};
  for (int i = 0; i < 16; ++i) CHECK(tr[i] == doctest::Approx(wantT[i]).epsilon(1e-6));
}

TEST_CASE("interpolateGrid equals the separable reference: 7x7 -> 14x14, 14x14 -> 24x24, 14x14 -> 16x16, 14x14 -> 7x7, 3x5 -> 1x2") {
  struct Case { int rows, cols, nr, nc, d; };
  posenc_test::Rng rng(9);
  for (const Case k : {Case{7, 7, 14, 14, 12}, Case{14, 14, 24, 24, 8}, Case{14, 14, 16, 16, 5},
                       Case{14, 14, 7, 7, 3}, Case{3, 5, 1, 2, 2}, Case{1, 1, 3, 3, 2}}) {
    std::vector<float> t(size_t(k.rows) * k.cols * k.d);
    for (float& v : t) v = float(rng.uniform(-2, 2));
    for (bool ac : {false, true}) {
      CAPTURE(k.rows);
      CAPTURE(k.nr);
      CAPTURE(ac);
      const std::vector<float> got = resize(t, k.rows, k.cols, k.d, k.nr, k.nc, ac);
      const std::vector<double> want = separable(t, k.rows, k.cols, k.d, k.nr, k.nc, ac);
      posenc_test::MaxError e;
      for (size_t i = 0; i < got.size(); ++i) e.add(got[i], want[i], double(i));
      CHECK(e.value <= 1e-6);
    }
  }
}

TEST_CASE("interpolateGrid to the same size is the identity; a constant grid stays constant; align_corners keeps the corners") {
  posenc_test::Rng rng(2);
  std::vector<float> t(7 * 7 * 4);
  for (float& v : t) v = float(rng.uniform(-1, 1));
  CHECK(resize(t, 7, 7, 4, 7, 7, false) == t);
  CHECK(resize(t, 7, 7, 4, 7, 7, true) == t);
  const std::vector<float> ones(5 * 5 * 3, 0.5f);
  for (float v : resize(ones, 5, 5, 3, 11, 8, false)) CHECK(v == doctest::Approx(0.5).epsilon(1e-7));
  const std::vector<float> big = resize(t, 7, 7, 4, 24, 24, true);
  for (int j = 0; j < 4; ++j) {
    CHECK(big[j] == t[j]);                                          // (0, 0)
    CHECK(big[(24 * 24 - 1) * 4 + j] == doctest::Approx(t[(49 - 1) * 4 + j]).epsilon(1e-6));  // (23, 23)
  }
  // Without align_corners the first output centre (0.5 * 7/24 - 0.5 < 0) clamps to cell 0 too.
  const std::vector<float> half = resize(t, 7, 7, 4, 24, 24, false);
  for (int j = 0; j < 4; ++j) CHECK(half[j] == t[j]);
}

// [SIMILARITY] -------------------------------------------------------------------------------

TEST_CASE("gridSimilarity gives dot products or cosines of one row against every row; a zero row gives 0") {
  const std::vector<float> t = {3, 4, 0, 0, -6, -8, 1, 0, 0, 2};
  std::vector<double> dot(5), cos(5);
  posenc::gridSimilarity(t.data(), 5, 2, 0, false, dot.data());
  posenc::gridSimilarity(t.data(), 5, 2, 0, true, cos.data());
  const double wantDot[5] = {25, 0, -50, 3, 8};
  const double wantCos[5] = {1, 0, -1, 0.6, 0.8};
  for (int i = 0; i < 5; ++i) {
    CHECK(dot[i] == doctest::Approx(wantDot[i]).epsilon(1e-15));
    CHECK(cos[i] == doctest::Approx(wantCos[i]).epsilon(1e-15));
  }
  posenc::gridSimilarity(t.data(), 5, 2, 1, true, cos.data());
  for (double v : cos) CHECK(v == 0);
}

// [ARGUMENTS] --------------------------------------------------------------------------------

TEST_CASE("vision functions reject bad arguments with errors naming them and their range") {
  float out[64];
  double outD[64];
  const float q4[4] = {1, 0, 1, 0};
  CHECK_THROWS_WITH_AS(posenc::checkSincos2d(0, 4, 8, 10000), "rows must be an integer in [1, 1024], got 0", RangeError);
  CHECK_THROWS_WITH_AS(posenc::checkSincos2d(4, 1025, 8, 10000), "cols must be an integer in [1, 1024], got 1025", RangeError);
  CHECK_THROWS_WITH_AS(posenc::checkSincos2d(4, 4.5, 8, 10000), "cols must be an integer in [1, 1024], got 4.5", RangeError);
  CHECK_THROWS_WITH_AS(posenc::checkSincos2d(4, 4, 6, 10000), doctest::Contains("d must be a multiple of 4"), RangeError);
  CHECK_THROWS_WITH_AS(posenc::checkSincos2d(4, 4, 0, 10000), "d must be an integer in [4, 8192], got 0", RangeError);
  CHECK_THROWS_WITH_AS(posenc::checkSincos2d(4, 4, 8, 1), "base must be a finite number in (1, 1000000000000], got 1", RangeError);
  CHECK_THROWS_WITH_AS(posenc::checkSincos2d(4, 4, 8, NAN), doctest::Contains("base must be a finite number"), RangeError);
  CHECK_THROWS_WITH_AS(posenc::checkSincos2d(1024, 1024, 32, 10000), "rows * cols * d must be at most 16777216, got 33554432", RangeError);
  CHECK_THROWS_AS(posenc::sincos2d(2, 2, 6, 10000, out), RangeError);

  CHECK_THROWS_WITH_AS(posenc::checkAxialRope(q4, 3, 2, 2, 100), doctest::Contains("x.length must be an integer in [4, 8192], got 3"), RangeError);
  const float nan4[4] = {1, NAN, 0, 0};
  CHECK_THROWS_WITH_AS(posenc::checkAxialRope(nan4, 4, 2, 2, 100), "x[1] must be a finite number, got NaN", RangeError);
  CHECK_THROWS_WITH_AS(posenc::checkAxialRopeScores(3, 3, 4, 3, 0, 100, q4, 4), "r must be an integer in [0, 2], got 3", RangeError);
  CHECK_THROWS_WITH_AS(posenc::checkAxialRopeScores(3, 3, 4, 0, -1, 100, q4, 4), "c must be an integer in [0, 2], got -1", RangeError);
  CHECK_THROWS_WITH_AS(posenc::checkAxialRopeScores(3, 3, 8, 0, 0, 100, q4, 4), "q must have length 8, got 4", TypeError);
  CHECK_THROWS_AS(posenc::axialRopeScores(3, 3, 4, 0, 0, 0.5, q4, true, outD), RangeError);

  CHECK_THROWS_WITH_AS(posenc::checkLearnedGrid(2, 2, 8, -1, 0.02), "seed must be an integer in [0, 4294967295], got -1", RangeError);
  CHECK_THROWS_WITH_AS(posenc::checkLearnedGrid(2, 2, 8, 0, -0.1), "std must be a finite number in [0, 1000], got -0.1", RangeError);
  CHECK_THROWS_WITH_AS(posenc::checkLearnedGrid(2, 2, 0, 0, 0.02), "d must be an integer in [1, 8192], got 0", RangeError);

  const float t8[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  CHECK_THROWS_WITH_AS(posenc::checkInterpolateGrid(t8, 8, 2, 2, 2, 0, 3), "newRows must be an integer in [1, 1024], got 0", RangeError);
  CHECK_THROWS_WITH_AS(posenc::checkInterpolateGrid(t8, 8, 2, 2, 3, 4, 4), "table must have length 12, got 8", TypeError);
  const std::vector<float> t32(32, 1.0f);
  CHECK_THROWS_WITH_AS(posenc::checkInterpolateGrid(t32.data(), 32, 1, 1, 32, 1024, 1024), "newRows * newCols * d must be at most 16777216, got 33554432", RangeError);
  CHECK_NOTHROW(posenc::checkInterpolateGrid(t32.data(), 32, 1, 1, 32, 512, 1024));
  CHECK_THROWS_AS(posenc::interpolateGrid(t8, 2, 2, 2, 0, 2, false, out), RangeError);

  CHECK_THROWS_WITH_AS(posenc::checkGridSimilarity(t8, 8, 3, 0), "table.length must be a positive multiple of d (3), got 8", RangeError);
  CHECK_THROWS_WITH_AS(posenc::checkGridSimilarity(t8, 0, 2, 0), "table.length must be a positive multiple of d (2), got 0", RangeError);
  CHECK_THROWS_WITH_AS(posenc::checkGridSimilarity(t8, 8, 2, 4), "index must be an integer in [0, 3], got 4", RangeError);
  const float inf2[2] = {INFINITY, 0};
  CHECK_THROWS_WITH_AS(posenc::checkGridSimilarity(inf2, 2, 2, 0), "table[0] must be a finite number, got Infinity", RangeError);
  CHECK_NOTHROW(posenc::checkGridSimilarity(t8, 8, 2, 3));
}

}  // namespace vision_test
