// core/sinusoidal.hpp against Vaswani et al. 2017 §3.5 as the PyTorch tutorial writes it
// (beginner_source/transformer_tutorial.py, PositionalEncoding), transcribed below in double.
//
// Tolerances (float32 table vs the double reference):
//   1e-6  small positions: REFERENCES.md asks ~1e-6 for float32 outputs; the kernel contract
//         (trig.hpp, sinusoidalBlock: rows rotated from an exactly reduced base row) is 5e-7.
//   2e-6  positions up to 100000: the brief's bound for float outputs at large positions; the
//         angle is formed in double, so there is no 5e-3 float32 drift to allow for.
//   1e-12 double paths (frequencies, sinusoidalDot) vs the double reference.
//   Readout literals use the number of digits REFERENCES.md prints (epsilon 1e-5 or 5e-5).

#include "core/sinusoidal.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "core/errors.hpp"
#include "core/limits.hpp"
#include "test_util.hpp"

namespace sinusoidal_test {

using posenc::RangeError;
using posenc_test::MaxError;
using posenc_test::relApprox;

namespace {

constexpr double kPi = 3.14159265358979323846;

// The tutorial: div_term = exp(arange(0, d, 2) * (-log(10000) / d)),
// pe[:, 0::2] = sin(position * div_term), pe[:, 1::2] = cos(position * div_term).
// Odd d is the core's documented choice (paper formula at every index): column d - 1 = 2i is
// sin(pos * div_i).
std::vector<double> referenceRow(double pos, int d, double base = 10000.0) {
  std::vector<double> row(d);
  for (int col = 0; col < d; ++col) {
    const int twoI = col - col % 2;
    const double divTerm = std::exp(twoI * (-std::log(base) / d));
    row[col] = col % 2 == 0 ? std::sin(pos * divTerm) : std::cos(pos * divTerm);
  }
  return row;
}

std::vector<float> table(int positions, int d, double offset = 0, double base = 10000.0) {
  posenc::SinusoidalParams p;
  p.positions = positions;
  p.dModel = d;
  p.offset = offset;
  p.base = base;
  std::vector<float> out(size_t(positions) * d);
  posenc::sinusoidal(p, out.data());
  return out;
}

double maxErrorAgainstReference(const std::vector<float>& t, int positions, int d, double offset,
                                double base = 10000.0) {
  MaxError err;
  for (int r = 0; r < positions; ++r) {
    const std::vector<double> want = referenceRow(offset + r, d, base);
    for (int c = 0; c < d; ++c) err.add(t[size_t(r) * d + c], want[c]);
  }
  return err.value;
}

}  // namespace

TEST_CASE("sinusoidal matches the PyTorch tutorial formula for d = 4, 16, 64, 512 at positions 0..127") {
  for (int d : {4, 16, 64, 512}) {
    CAPTURE(d);
    const std::vector<float> t = table(128, d);
    CHECK(maxErrorAgainstReference(t, 128, d, 0) <= 1e-6);  // float32 output, see file header
  }
}

TEST_CASE("sinusoidal position 0 is [0, 1, 0, 1, ...]") {
  const std::vector<float> t = table(1, 10);
  for (int c = 0; c < 10; ++c) CHECK(t[c] == (c % 2 == 0 ? 0.0f : 1.0f));  // sin 0, cos 0: exact
}

TEST_CASE("sinusoidal d = 2 gives [sin pos, cos pos]") {
  const std::vector<float> t = table(50, 2);
  for (int pos = 0; pos < 50; ++pos) {
    CAPTURE(pos);
    // div_0 = 1, so the row is exactly (sin pos, cos pos); 1e-6 float32 output tolerance.
    CHECK(t[2 * pos] == doctest::Approx(std::sin(double(pos))).epsilon(1e-6));
    CHECK(t[2 * pos + 1] == doctest::Approx(std::cos(double(pos))).epsilon(1e-6));
  }
}

TEST_CASE("sinusoidal with odd d ends with a sine column at the next frequency") {
  for (int d : {1, 3, 5, 7, 33}) {
    CAPTURE(d);
    const std::vector<float> t = table(40, d);
    CHECK(maxErrorAgainstReference(t, 40, d, 0) <= 1e-6);  // see file header
    // The last column (index d - 1, even) is a sine: it is 0 at position 0.
    CHECK(t[d - 1] == 0.0f);
    // d = 5: the last column is sin(pos * 10000^(-4/5)).
    if (d == 5) {
      const double f2 = std::pow(10000.0, -4.0 / 5.0);
      CHECK(t[size_t(39) * 5 + 4] == doctest::Approx(std::sin(39 * f2)).epsilon(1e-6));  // float32 output
    }
  }
}

TEST_CASE("sinusoidal stays within 2e-6 of double sin/cos at positions up to 100000") {
  posenc_test::Rng rng(11);
  double worst = 0;
  // The last 64 positions below 100000, plus random windows over the whole range.
  worst = std::max(worst, maxErrorAgainstReference(table(64, 512, 99936), 64, 512, 99936));
  for (int trial = 0; trial < 40; ++trial) {
    const int d = 1 + rng.below(300);
    const double offset = std::floor(rng.uniform(0, 99990));
    worst = std::max(worst, maxErrorAgainstReference(table(8, d, offset), 8, d, offset));
  }
  MESSAGE("sinusoidal max abs error vs double, positions <= 1e5: " << worst);
  CHECK(worst <= 2e-6);  // the brief's bound for float outputs at large positions
}

TEST_CASE("sinusoidal stays within 2e-6 of double sin/cos at the last int32 positions (offset 2^31 − 41, 40 rows)") {
  const double offset = posenc::kMaxPosition - 41;
  const double worst = maxErrorAgainstReference(table(40, 128, offset), 40, 128, offset);
  MESSAGE("sinusoidal max abs error vs double, positions near 2^31: " << worst);
  CHECK(worst <= 2e-6);  // the brief's bound for float outputs (angles in double, no drift)
}

TEST_CASE("sinusoidal offset shifts the rows: rows of (offset 37, 3 rows) are rows 37..39 of the table") {
  const std::vector<float> whole = table(40, 24);
  const std::vector<float> part = table(3, 24, 37);
  for (size_t i = 0; i < part.size(); ++i) {
    // The two calls start their blocks at different rows, so the bits may differ; both are
    // within the kernel's 5e-7 of the double value, hence within 1e-6 of each other.
    CHECK(part[i] == doctest::Approx(whole[37 * 24 + i]).epsilon(1e-6));
  }
  CHECK(maxErrorAgainstReference(part, 3, 24, 37) <= 1e-6);  // see file header
}

TEST_CASE("sinusoidal rows past the first block (16 rows) are as accurate as the first ones") {
  // 100 rows from offset 99900: several blocks, each rotated from its own reduced base row.
  const std::vector<float> t = table(100, 64, 99900);
  for (int r : {0, 15, 16, 17, 31, 32, 99}) {
    CAPTURE(r);
    const std::vector<double> want = referenceRow(99900 + r, 64);
    MaxError err;
    for (int c = 0; c < 64; ++c) err.add(t[size_t(r) * 64 + c], want[c]);
    CHECK(err.value <= 1e-6);  // see file header
  }
}

TEST_CASE("sinusoidal honours another base (100) in the frequencies") {
  const std::vector<float> t = table(30, 6, 0, 100.0);
  CHECK(maxErrorAgainstReference(t, 30, 6, 0, 100.0) <= 1e-6);  // see file header
  const std::vector<double> f = posenc::sinusoidalFrequencies(6, 100.0);
  REQUIRE(f.size() == 3);
  // 100^(-2i/6): 1, 100^(-1/3), 100^(-2/3); double path, 1e-12 relative.
  CHECK(f[0] == relApprox(1.0, 1e-12));
  CHECK(f[1] == relApprox(std::pow(100.0, -1.0 / 3.0), 1e-12));
  CHECK(f[2] == relApprox(std::pow(100.0, -2.0 / 3.0), 1e-12));
}

TEST_CASE("sinusoidalFrequencies returns ceil(d/2) terms exp(2i * (-ln base / d))") {
  for (int d : {1, 2, 7, 16, 128}) {
    CAPTURE(d);
    const std::vector<double> f = posenc::sinusoidalFrequencies(d, 10000.0);
    REQUIRE(f.size() == size_t((d + 1) / 2));
    for (size_t i = 0; i < f.size(); ++i) {
      CHECK(f[i] == relApprox(std::pow(10000.0, -double(2 * i) / d), 1e-12));  // double path
    }
  }
}

TEST_CASE("readout (b): d = 20, position 10, dim 4 has angle 1.58489 and value 0.99990") {
  const std::vector<double> f = posenc::sinusoidalFrequencies(20, 10000.0);
  const double angle = 10 * f[2];  // dim 4 = 2i with i = 2
  CHECK(angle == doctest::Approx(1.58489).epsilon(1e-5));   // 6 significant digits as printed
  const std::vector<float> t = table(11, 20);
  CHECK(t[10 * 20 + 4] == doctest::Approx(0.99990).epsilon(1e-5));  // 5 decimals as printed
}

TEST_CASE("readout (c): d = 16 wavelengths 2π·10000^(2i/16) are 6.283 (dim 0) and 198.69 (dim 6)") {
  const std::vector<double> f = posenc::sinusoidalFrequencies(16, 10000.0);
  CHECK(2 * kPi / f[0] == doctest::Approx(6.283).epsilon(1e-4));    // 4 significant digits
  CHECK(2 * kPi / f[3] == doctest::Approx(198.69).epsilon(5e-5));   // 5 significant digits
  for (int i = 0; i < 8; ++i) {
    CHECK(2 * kPi / f[i] == relApprox(2 * kPi * std::pow(10000.0, 2.0 * i / 16), 1e-12));  // double path
  }
}

TEST_CASE("readout (d): sinusoidalDot d = 16, PE(3)·PE(8) = 6.13704 and the maximum d/2 = 8 is at m = n") {
  CHECK(posenc::sinusoidalDot(3, 8, 16, 10000.0) == doctest::Approx(6.13704).epsilon(1e-6));  // 6 digits as printed
  // The same number from the float32 table rows (float products summed in double: 16 terms of
  // at most 2e-7 error each, so 1e-5 absolute).
  const std::vector<float> t = table(9, 16);
  double dot = 0;
  for (int c = 0; c < 16; ++c) dot += double(t[3 * 16 + c]) * t[8 * 16 + c];
  CHECK(dot == doctest::Approx(6.13704).epsilon(1e-5));
  double best = -1e300;
  for (int m = 0; m < 60; ++m)
    for (int n = 0; n < 60; ++n) best = std::max(best, posenc::sinusoidalDot(m, n, 16, 10000.0));
  CHECK(best == relApprox(8.0, 1e-12));  // double path
  CHECK(posenc::sinusoidalDot(17, 17, 16, 10000.0) == relApprox(8.0, 1e-12));  // double path
}

TEST_CASE("readout (f): sinusoidalDot d = 8, m = 2, n = 8 is 3.78369") {
  CHECK(posenc::sinusoidalDot(2, 8, 8, 10000.0) == doctest::Approx(3.78369).epsilon(1e-6));  // 6 digits as printed
}

TEST_CASE("sinusoidalDot is Σ cos((m − n)·div_i) and depends only on m − n for even d") {
  posenc_test::Rng rng(5);
  for (int trial = 0; trial < 50; ++trial) {
    const int d = 2 * (1 + rng.below(64));
    const double m = std::floor(rng.uniform(0, 5000)), n = std::floor(rng.uniform(0, 5000));
    const double shift = std::floor(rng.uniform(0, 5000));
    double want = 0;
    for (int i = 0; i < d / 2; ++i) want += std::cos((m - n) * std::exp(2 * i * (-std::log(10000.0) / d)));
    CAPTURE(d);
    CAPTURE(m);
    CAPTURE(n);
    // 1e-9 absolute: the sum of d/2 cosines whose arguments reach 5e3 (ulp ~1e-12 each).
    CHECK(posenc::sinusoidalDot(m, n, d, 10000.0) == doctest::Approx(want).epsilon(1e-9));
    CHECK(posenc::sinusoidalDot(m + shift, n + shift, d, 10000.0) == doctest::Approx(want).epsilon(1e-9));
  }
}

TEST_CASE("sinusoidalDot for odd d equals the dot product of the two reference rows") {
  for (int d : {1, 3, 5, 9}) {
    for (double m : {0.0, 3.0, 41.0}) {
      for (double n : {0.0, 7.0, 100.0}) {
        const std::vector<double> a = referenceRow(m, d), b = referenceRow(n, d);
        double want = 0;
        for (int c = 0; c < d; ++c) want += a[c] * b[c];
        CAPTURE(d);
        CAPTURE(m);
        CAPTURE(n);
        CHECK(posenc::sinusoidalDot(m, n, d, 10000.0) == doctest::Approx(want).epsilon(1e-12));  // double path
      }
    }
  }
}

// [SECTION] argument checks -------------------------------------------------------------------

TEST_CASE("sinusoidal rejects a NaN, infinite, negative or fractional offset and names it") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (double bad : {nan, inf, -inf, -1.0, 2.5}) {
    CAPTURE(bad);
    posenc::SinusoidalParams p;
    p.positions = 2;
    p.dModel = 4;
    p.offset = bad;
    CHECK_THROWS_WITH_AS(posenc::checkSinusoidal(p), doctest::Contains("offset must be an integer"),
                         RangeError);
  }
}

TEST_CASE("sinusoidal rejects base <= 1, NaN and ±Infinity and names it") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (double bad : {nan, inf, -inf, 1.0, 0.5, -10000.0, 2e12}) {
    CAPTURE(bad);
    posenc::SinusoidalParams p;
    p.positions = 2;
    p.dModel = 4;
    p.base = bad;
    CHECK_THROWS_WITH_AS(posenc::checkSinusoidal(p), doctest::Contains("base must be a finite number"),
                         RangeError);
    CHECK_THROWS_WITH_AS(posenc::sinusoidalFrequencies(4, bad), doctest::Contains("base"), RangeError);
    CHECK_THROWS_WITH_AS(posenc::sinusoidalDot(1, 2, 4, bad), doctest::Contains("base"), RangeError);
  }
}

TEST_CASE("sinusoidal rejects dModel 0, negative, or over kMaxDim and positions negative or over kMaxRows") {
  for (int d : {0, -2, posenc::kMaxDim + 1}) {
    CAPTURE(d);
    posenc::SinusoidalParams p;
    p.positions = 1;
    p.dModel = d;
    CHECK_THROWS_WITH_AS(posenc::checkSinusoidal(p), doctest::Contains("dModel must be an integer in [1, 8192]"),
                         RangeError);
    CHECK_THROWS_WITH_AS(posenc::sinusoidalFrequencies(d, 10000.0), doctest::Contains("dModel"), RangeError);
  }
  for (int n : {-1, posenc::kMaxRows + 1}) {
    CAPTURE(n);
    posenc::SinusoidalParams p;
    p.positions = n;
    p.dModel = 2;
    CHECK_THROWS_WITH_AS(posenc::checkSinusoidal(p), doctest::Contains("positions must be an integer"),
                         RangeError);
  }
}

TEST_CASE("sinusoidal rejects positions * dModel over kMaxElements") {
  posenc::SinusoidalParams p;
  p.positions = posenc::kMaxRows;  // 2^20 rows
  p.dModel = 17;                   // 17 * 2^20 > 2^24
  CHECK_THROWS_WITH_AS(posenc::checkSinusoidal(p), doctest::Contains("positions * dModel must be at most"),
                       RangeError);
  p.dModel = 16;  // exactly 2^24: allowed
  CHECK_NOTHROW(posenc::checkSinusoidal(p));
}

TEST_CASE("sinusoidal keeps every row inside the int32 positions (offset + positions - 1 <= 2^31 - 1)") {
  posenc::SinusoidalParams p;
  p.positions = 4;
  p.dModel = 2;
  p.offset = posenc::kMaxPosition - 4;  // last row 2^31 - 2
  CHECK_NOTHROW(posenc::checkSinusoidal(p));
  p.offset = posenc::kMaxPosition - 2;  // last row 2^31: past int32
  CHECK_THROWS_WITH_AS(posenc::checkSinusoidal(p), doctest::Contains("offset"), RangeError);
}

TEST_CASE("sinusoidalDot rejects NaN or infinite positions and names them") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  CHECK_THROWS_WITH_AS(posenc::sinusoidalDot(nan, 1, 8, 10000.0), doctest::Contains("m must be a finite number"),
                       RangeError);
  CHECK_THROWS_WITH_AS(posenc::sinusoidalDot(1, inf, 8, 10000.0), doctest::Contains("n must be a finite number"),
                       RangeError);
  CHECK_THROWS_WITH_AS(posenc::sinusoidalDot(1, -inf, 8, 10000.0), doctest::Contains("n must be"), RangeError);
}

TEST_CASE("sinusoidal checks before it writes: a rejected call leaves the output untouched") {
  posenc::SinusoidalParams p;
  p.positions = 2;
  p.dModel = 4;
  p.offset = -3;
  std::vector<float> out(8, 42.0f);
  CHECK_THROWS_AS(posenc::sinusoidal(p, out.data()), RangeError);
  for (float v : out) CHECK(v == 42.0f);
}

}  // namespace sinusoidal_test
