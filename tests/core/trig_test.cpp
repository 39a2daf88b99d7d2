// core/kernels/trig.hpp and trig_simd.hpp: sincos rows, the sinusoidal block, the RoPE pair
// rotation and the angle addition, and core/kernels/dispatch.hpp's choice of bodies.
// Random lengths run 0..67 so every SIMD body sees whole vectors, tails of 1..3 and nothing;
// guard values after each output catch writes past the end. Measured maxima are printed with
// MESSAGE so that a run documents them.
//
//   [SECTION] scalar references vs double libm     every build
//   [SECTION] SIMD bodies vs scalar references     only under __wasm_simd128__ (the node run)
//
// Tolerances (each the bound stated in the kernel's doc block unless noted):
//   sincos                   2e-7 abs vs double sin/cos                 trig.hpp
//   sinusoidal block         5e-7 abs vs double sin/cos of (p0 + k)·f   trig.hpp (three
//                            float sin/cos values plus two roundings)
//   rope rotate              4·2^-24·(|a| + |b|)·attn abs vs double       derived: the float
//                            (same float sin/cos inputs)                  products of the pair
//   angle addition           5e-7 abs vs double                         trig.hpp
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/kernels/dispatch.hpp"
#include "kernel_test_util.hpp"
#include "test_util.hpp"

namespace trig_test {

using namespace posenc::kernels;
using namespace posenc_test;

namespace {

// Inputs of the block kernels as core/sinusoidal.cpp builds them: the exactly reduced base row
// sin/cos(p0·f_i) and the rotation rows sin/cos(k·f_i), k < rows, each ceil(d/2) wide.
struct BlockInputs {
  size_t d, rows, nf;
  double p0;
  std::vector<double> f;
  std::vector<float> s0, c0, rotS, rotC;
};

BlockInputs randomBlock(Rng& rng, size_t d, size_t rows) {
  BlockInputs b{d, rows, (d + 1) / 2, randomPosition(rng), {}, {}, {}, {}, {}};
  b.f = randomFrequencies(rng, b.nf);
  b.s0.resize(b.nf);
  b.c0.resize(b.nf);
  b.rotS.resize(rows * b.nf);
  b.rotC.resize(rows * b.nf);
  sincosRowScalar(b.p0, b.f.data(), b.nf, b.s0.data(), b.c0.data());
  for (size_t k = 0; k < rows; ++k)
    sincosRowScalar(double(k), b.f.data(), b.nf, b.rotS.data() + k * b.nf, b.rotC.data() + k * b.nf);
  return b;
}

// Max abs error of a block against double sin/cos((p0 + k)·f_i) in the table layout.
void blockError(const BlockInputs& b, const std::vector<float>& out, MaxError& err) {
  for (size_t k = 0; k < b.rows; ++k) {
    for (size_t col = 0; col < b.d; ++col) {
      const double a = (b.p0 + double(k)) * b.f[col / 2];
      err.add(out[k * b.d + col], col % 2 == 0 ? std::sin(a) : std::cos(a), a);
    }
  }
}

}  // namespace

// [SECTION] scalar references vs double libm ---------------------------------------------------

TEST_CASE("sincosRowScalar stays within 2e-7 of double sin/cos for positions up to 1e5 and random frequencies") {
  Rng rng(100);
  MaxError errSin, errCos;
  for (int trial = 0; trial < 3000; ++trial) {
    const size_t n = size_t(rng.below(68));
    const double pos = randomPosition(rng);
    const std::vector<double> f = randomFrequencies(rng, n);
    std::vector<float> s = guarded(n), c = guarded(n);
    setGuard(s, n);
    setGuard(c, n);
    sincosRowScalar(pos, f.data(), n, s.data(), c.data());
    REQUIRE(guardIntact(s, n));
    REQUIRE(guardIntact(c, n));
    for (size_t i = 0; i < n; ++i) {
      errSin.add(s[i], std::sin(pos * f[i]), pos * f[i]);
      errCos.add(c[i], std::cos(pos * f[i]), pos * f[i]);
    }
  }
  MESSAGE("sincosRowScalar max abs error: sin " << errSin.value << " (at angle " << errSin.where << "), cos "
                                                << errCos.value << " (at angle " << errCos.where << ")");
  CHECK(errSin.value <= 2e-7);  // trig.hpp contract
  CHECK(errCos.value <= 2e-7);
}

TEST_CASE("sincosReduced is exact at 0 and has the right sign in all four quadrants") {
  float s, c;
  sincosReduced(0.0, &s, &c);
  CHECK(s == 0.0f);
  CHECK(c == 1.0f);
  const double pi = 3.14159265358979323846;
  for (int q = 0; q < 8; ++q) {
    const double a = q * pi / 4 + 0.3;  // inside each octant, clear of zeros
    sincosReduced(a, &s, &c);
    CAPTURE(q);
    CHECK(double(s) == doctest::Approx(std::sin(a)).epsilon(2e-7));  // trig.hpp contract
    CHECK(double(c) == doctest::Approx(std::cos(a)).epsilon(2e-7));  // trig.hpp contract
    sincosReduced(-a, &s, &c);  // negative angles: sin odd, cos even
    CHECK(double(s) == doctest::Approx(-std::sin(a)).epsilon(2e-7));  // trig.hpp contract
    CHECK(double(c) == doctest::Approx(std::cos(a)).epsilon(2e-7));  // trig.hpp contract
  }
}

TEST_CASE("sincos kernel keeps 2e-7 over its documented valid range |pos·freq| <= kMaxAngle") {
  // trig.hpp states "Valid range: |a| <= kMaxAngle. Max abs error vs float64 sin/cos: 2e-7". A
  // single double pi/2 would lose that past ~1e9 (its rounding grows with k); the three-part
  // split keeps the reduction exact. The API reaches these angles: positions go to 2^31 − 1.
  Rng rng(101);
  bool within = true;
  for (int decade = 0; decade <= 9; ++decade) {
    MaxError err;
    const double hi = std::min(std::pow(10.0, decade + 1), kMaxAngle);
    for (int t = 0; t < 20000; ++t) {
      const double a = rng.uniform(std::pow(10.0, decade), hi);
      float s, c;
      sincosReduced(a, &s, &c);
      err.add(s, std::sin(a));
      err.add(c, std::cos(a));
    }
    MESSAGE("sincosReduced max abs error for |a| in [1e" << decade << ", " << hi << "): " << err.value);
    within = within && err.value <= 2e-7;
  }
  CHECK(within);  // trig.hpp contract over its stated range
}

TEST_CASE("sinusoidalBlockScalar rotates the base row into rows p0..p0+rows−1, ends an odd d with a sine, within 5e-7") {
  Rng rng(102);
  MaxError err;
  for (int trial = 0; trial < 1500; ++trial) {
    const size_t d = size_t(rng.below(68)), rows = size_t(rng.below(20));
    const BlockInputs b = randomBlock(rng, d, rows);
    std::vector<float> out = guarded(rows * d);
    setGuard(out, rows * d);
    sinusoidalBlockScalar(b.s0.data(), b.c0.data(), b.rotS.data(), b.rotC.data(), rows, d, out.data());
    REQUIRE(guardIntact(out, rows * d));
    blockError(b, out, err);
  }
  MESSAGE("sinusoidalBlockScalar max abs error: " << err.value << " (at angle " << err.where << ")");
  CHECK(err.value <= 5e-7);  // trig.hpp contract
}

TEST_CASE("sinusoidalBlockScalar row 0 of a block is the base row itself") {
  Rng rng(110);
  const BlockInputs b = randomBlock(rng, 9, 1);
  std::vector<float> out(9);
  sinusoidalBlockScalar(b.s0.data(), b.c0.data(), b.rotS.data(), b.rotC.data(), 1, 9, out.data());
  for (size_t i = 0; i < 4; ++i) {
    CHECK(out[2 * i] == b.s0[i]);  // rotation by k = 0 is (sin, cos) = (0, 1): exact
    CHECK(out[2 * i + 1] == b.c0[i]);
  }
  CHECK(out[8] == b.s0[4]);
}

TEST_CASE("ropeRotateRowScalar rotates pair (a, b) by the given sin/cos times attn, both layouts") {
  Rng rng(103);
  MaxError err;
  for (int trial = 0; trial < 2000; ++trial) {
    const size_t n = size_t(rng.below(68));
    const bool interleaved = trial % 2 == 1;
    const float attn = trial % 3 == 0 ? 1.0f : float(rng.uniform(0.5, 2));
    std::vector<float> s(n), c(n);
    for (size_t i = 0; i < n; ++i) {
      const double a = rng.uniform(-4, 4);
      s[i] = float(std::sin(a));
      c[i] = float(std::cos(a));
    }
    std::vector<float> x = guarded(2 * n);
    for (size_t i = 0; i < 2 * n; ++i) x[i] = float(rng.uniform(-1, 1));
    setGuard(x, 2 * n);
    const std::vector<float> before = x;
    ropeRotateRowScalar(s.data(), c.data(), attn, n, interleaved, x.data());
    REQUIRE(guardIntact(x, 2 * n));
    for (size_t i = 0; i < n; ++i) {
      const size_t ia = interleaved ? 2 * i : i, ib = interleaved ? 2 * i + 1 : i + n;
      const double a = before[ia], b = before[ib];
      const double wantA = (a * c[i] - b * s[i]) * attn, wantB = (b * c[i] + a * s[i]) * attn;
      const double bound = 4 * kU * (std::fabs(a) + std::fabs(b)) * attn;  // see tolerance table
      err.add(x[ia], wantA);
      err.add(x[ib], wantB);
      CHECK(std::fabs(x[ia] - wantA) <= bound);
      CHECK(std::fabs(x[ib] - wantB) <= bound);
    }
  }
  MESSAGE("ropeRotateRowScalar max abs error vs double from the same sin/cos: " << err.value);
}

TEST_CASE("angleAddRowScalar gives sin/cos of a + b within 5e-7 of double, from float sin/cos of a and b") {
  // The RoPE path for consecutive positions: base row at p0, rotation by k·f, k < 16.
  Rng rng(310);
  MaxError err;
  for (int trial = 0; trial < 3000; ++trial) {
    const size_t n = size_t(rng.below(68));
    const double p0 = randomPosition(rng);
    const int k = rng.below(16);
    const std::vector<double> f = randomFrequencies(rng, n);
    std::vector<float> s0(n), c0(n), rs(n), rc(n), s(n), c(n);
    sincosRowScalar(p0, f.data(), n, s0.data(), c0.data());
    sincosRowScalar(double(k), f.data(), n, rs.data(), rc.data());
    angleAddRowScalar(s0.data(), c0.data(), rs.data(), rc.data(), n, s.data(), c.data());
    for (size_t i = 0; i < n; ++i) {
      err.add(s[i], std::sin((p0 + k) * f[i]));
      err.add(c[i], std::cos((p0 + k) * f[i]));
    }
  }
  MESSAGE("angleAddRowScalar max abs error vs double: " << err.value);
  CHECK(err.value <= 5e-7);  // trig.hpp contract
}

// [SECTION] SIMD bodies vs scalar references ------------------------------------------------------

#ifdef __wasm_simd128__

TEST_CASE("dispatch picks the SIMD bodies in this build") { CHECK(kSimd); }

TEST_CASE("sincosRowSimd agrees with sincosRowScalar on random lengths 0..67 and stays within 2e-7 of double") {
  Rng rng(200);
  MaxError vsScalar, vsDouble;
  size_t differ = 0, total = 0;
  for (int trial = 0; trial < 5000; ++trial) {
    const size_t n = size_t(rng.below(68));
    const double pos = randomPosition(rng);
    const std::vector<double> f = randomFrequencies(rng, n);
    std::vector<float> s = guarded(n), c = guarded(n), s0(n), c0(n);
    setGuard(s, n);
    setGuard(c, n);
    sincosRowSimd(pos, f.data(), n, s.data(), c.data());
    sincosRowScalar(pos, f.data(), n, s0.data(), c0.data());
    REQUIRE(guardIntact(s, n));
    REQUIRE(guardIntact(c, n));
    for (size_t i = 0; i < n; ++i) {
      vsScalar.add(s[i], s0[i]);
      vsScalar.add(c[i], c0[i]);
      vsDouble.add(s[i], std::sin(pos * f[i]), pos * f[i]);
      vsDouble.add(c[i], std::cos(pos * f[i]), pos * f[i]);
      differ += (s[i] != s0[i]) + (c[i] != c0[i]);
      total += 2;
    }
  }
  MESSAGE("sincosRowSimd: max abs error vs double " << vsDouble.value << " (at angle " << vsDouble.where
                                                    << "); max |simd - scalar| " << vsScalar.value << ", "
                                                    << differ << " of " << total << " outputs differ in bits");
  CHECK(vsDouble.value <= 2e-7);  // trig_simd.hpp contract
  CHECK(vsScalar.value <= 4e-7);  // both within 2e-7 of double
}

TEST_CASE("sinusoidalBlockSimd agrees with sinusoidalBlockScalar on random d 0..67 (odd and even) and 0..19 rows, within 5e-7") {
  Rng rng(201);
  MaxError vsScalar, vsDouble;
  size_t differ = 0, total = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const size_t d = size_t(rng.below(68)), rows = size_t(rng.below(20));
    const BlockInputs b = randomBlock(rng, d, rows);
    // The base row as the SIMD build makes it.
    BlockInputs bs = b;
    sincosRowSimd(b.p0, b.f.data(), b.nf, bs.s0.data(), bs.c0.data());
    for (size_t k = 0; k < rows; ++k)
      sincosRowSimd(double(k), b.f.data(), b.nf, bs.rotS.data() + k * b.nf, bs.rotC.data() + k * b.nf);
    std::vector<float> out = guarded(rows * d), ref(rows * d);
    setGuard(out, rows * d);
    sinusoidalBlockSimd(bs.s0.data(), bs.c0.data(), bs.rotS.data(), bs.rotC.data(), rows, d, out.data());
    sinusoidalBlockScalar(b.s0.data(), b.c0.data(), b.rotS.data(), b.rotC.data(), rows, d, ref.data());
    REQUIRE(guardIntact(out, rows * d));
    blockError(bs, out, vsDouble);
    for (size_t i = 0; i < rows * d; ++i) {
      vsScalar.add(out[i], ref[i]);
      differ += out[i] != ref[i];
      ++total;
    }
  }
  MESSAGE("sinusoidalBlockSimd: max abs error vs double " << vsDouble.value << " (at angle " << vsDouble.where
                                                          << "); max |simd - scalar| " << vsScalar.value << ", "
                                                          << differ << " of " << total << " outputs differ in bits");
  CHECK(vsDouble.value <= 5e-7);  // trig.hpp contract
  CHECK(vsScalar.value <= 1e-6);  // both within 5e-7 of double
}

TEST_CASE("ropeRotateRowSimd agrees with ropeRotateRowScalar on random n 0..67, both layouts, any attn") {
  Rng rng(202);
  MaxError vsScalar, vsDouble;
  size_t differ = 0, total = 0;
  bool withinBound = true;
  for (int trial = 0; trial < 4000; ++trial) {
    const size_t n = size_t(rng.below(68));
    const bool interleaved = trial % 2 == 1;
    const float attn = trial % 3 == 0 ? 1.0f : float(rng.uniform(0.5, 2));
    std::vector<float> s(n), c(n);
    sincosRowScalar(randomPosition(rng), randomFrequencies(rng, n).data(), n, s.data(), c.data());
    std::vector<float> x = guarded(2 * n);
    for (size_t i = 0; i < 2 * n; ++i) x[i] = float(rng.uniform(-1, 1));
    setGuard(x, 2 * n);
    std::vector<float> ref = x;
    const std::vector<float> before = x;
    ropeRotateRowSimd(s.data(), c.data(), attn, n, interleaved, x.data());
    ropeRotateRowScalar(s.data(), c.data(), attn, n, interleaved, ref.data());
    REQUIRE(guardIntact(x, 2 * n));
    for (size_t i = 0; i < n; ++i) {
      const size_t ia = interleaved ? 2 * i : i, ib = interleaved ? 2 * i + 1 : i + n;
      const double a = before[ia], b = before[ib];
      const double wantA = (a * c[i] - b * s[i]) * attn, wantB = (b * c[i] + a * s[i]) * attn;
      const double bound = 4 * kU * (std::fabs(a) + std::fabs(b)) * attn;  // see tolerance table
      withinBound = withinBound && std::fabs(x[ia] - wantA) <= bound && std::fabs(x[ib] - wantB) <= bound;
      vsDouble.add(x[ia], wantA);
      vsDouble.add(x[ib], wantB);
    }
    for (size_t i = 0; i < 2 * n; ++i) {
      vsScalar.add(x[i], ref[i]);
      differ += x[i] != ref[i];
      ++total;
    }
  }
  MESSAGE("ropeRotateRowSimd: max abs error vs double " << vsDouble.value << "; max |simd - scalar| "
                                                        << vsScalar.value << ", " << differ << " of " << total
                                                        << " outputs differ in bits");
  CHECK(withinBound);
  CHECK(vsScalar.value <= 8 * kU * 2 * 2);  // both within the pair bound of double: |a| + |b| <= 2, attn <= 2
}

TEST_CASE("angleAddRowSimd matches angleAddRowScalar on random lengths 0..67, bit for bit") {
  Rng rng(311);
  size_t differ = 0, total = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const size_t n = size_t(rng.below(68));
    std::vector<float> s0(n), c0(n), rs(n), rc(n), a(n + 4, 7.0f), b(n + 4, 7.0f), sa(n), sb(n);
    for (size_t i = 0; i < n; ++i) {
      s0[i] = float(rng.uniform(-1, 1)); c0[i] = float(rng.uniform(-1, 1));
      rs[i] = float(rng.uniform(-1, 1)); rc[i] = float(rng.uniform(-1, 1));
    }
    angleAddRowSimd(s0.data(), c0.data(), rs.data(), rc.data(), n, a.data(), b.data());
    angleAddRowScalar(s0.data(), c0.data(), rs.data(), rc.data(), n, sa.data(), sb.data());
    for (size_t i = 0; i < n; ++i) {
      differ += (a[i] != sa[i]) + (b[i] != sb[i]);
      total += 2;
    }
    for (size_t i = n; i < n + 4; ++i) CHECK((a[i] == 7.0f && b[i] == 7.0f));  // nothing past the end
  }
  MESSAGE("angleAddRowSimd: " << differ << " of " << total << " values differ from the scalar body");
  CHECK(differ == 0);
}

#else

TEST_CASE("dispatch picks the scalar references in this build") { CHECK_FALSE(kSimd); }

#endif  // __wasm_simd128__

}  // namespace trig_test
