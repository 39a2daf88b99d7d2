// core/families/partial_rope.hpp against the two models that use it, transcribed here in double:
//   GPT-NeoX (HF modeling_gpt_neox.py): rotary_ndims = head_size * rotary_pct (0.25); the first
//     rotary_ndims of q and k go through apply_rotary_pos_emb (rotate_half: pairs (i, i + r/2)),
//     inv_freq = 1 / base^(2i/r); the rest is concatenated back unchanged.
//   GPT-J (HF modeling_gptj.py): rotary_dim = 64 of a 256-wide head; the first 64 go through
//     apply_rotary_pos_emb with rotate_every_two (pairs (2i, 2i + 1), sin and cos repeated per
//     pair), the frequencies of create_sinusoidal_positions(…, rotary_dim).
// The family runs in double here (T = double, as the trainer's gradient checks), so the
// comparison is to 1e-12.

#include "core/families/partial_rope.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/families/registry.hpp"
#include "core/splitmix64.hpp"

namespace partial_rope_test {

using posenc::RopeLayout;
using posenc::families::FamilyShape;
using posenc::families::PartialRope;

namespace {

FamilyShape shapeOf(int headDim, int positions, RopeLayout layout) {
  FamilyShape s;
  s.dModel = s.headDim = headDim;
  s.maxPositions = positions;
  s.base = 10000;
  s.ropeLayout = layout;
  return s;
}

std::vector<double> seeded(size_t n, uint64_t seed) {
  posenc::SplitMix64 g{seed};
  std::vector<double> x(n);
  for (double& v : x) v = g.uniform() * 2 - 1;  // in [-1, 1)
  return x;
}

// One row at position pos, as GPT-NeoX (interleaved = false) or GPT-J (true) turns it.
std::vector<double> reference(const std::vector<double>& x, int r, int pos, bool interleaved) {
  std::vector<double> out = x;  // x[r:] passes through
  for (int i = 0; i < r / 2; ++i) {
    const double angle = pos * (1.0 / std::pow(10000.0, double(2 * i) / r));
    const int a = interleaved ? 2 * i : i, b = interleaved ? 2 * i + 1 : i + r / 2;
    // rotate_half puts -x[b] at a and x[a] at b; rotate_every_two the same within each pair.
    out[size_t(a)] = x[size_t(a)] * std::cos(angle) - x[size_t(b)] * std::sin(angle);
    out[size_t(b)] = x[size_t(b)] * std::cos(angle) + x[size_t(a)] * std::sin(angle);
  }
  return out;
}

}  // namespace

TEST_CASE("partial RoPE turns a quarter of the head: 64 of GPT-J's 256, 16 of 64, at least one pair") {
  CHECK(PartialRope::rotaryDims(shapeOf(256, 1, RopeLayout::Half)) == 64);
  CHECK(PartialRope::rotaryDims(shapeOf(64, 1, RopeLayout::Half)) == 16);
  CHECK(PartialRope::rotaryDims(shapeOf(16, 1, RopeLayout::Half)) == 4);
  CHECK(PartialRope::rotaryDims(shapeOf(8, 1, RopeLayout::Half)) == 2);
  CHECK(PartialRope::rotaryDims(shapeOf(6, 1, RopeLayout::Half)) == 2);
  CHECK(PartialRope::rotaryDims(shapeOf(2, 1, RopeLayout::Half)) == 2);
  CHECK(posenc::families::familyName(posenc::families::familyFromName("partial-rope")) == "partial-rope");
}

TEST_CASE("partial RoPE equals GPT-NeoX's rotate_half and GPT-J's rotate_every_two on the first quarter") {
  const int d = 256, r = 64;
  const std::vector<int> positions = {0, 1, 7, 300, 2047};
  for (bool interleaved : {false, true}) {
    CAPTURE(interleaved);
    const FamilyShape s = shapeOf(d, 2048, interleaved ? RopeLayout::Interleaved : RopeLayout::Half);
    std::vector<double> fixed;
    PartialRope::prepare(s, fixed);
    const std::vector<double> x = seeded(positions.size() * d, interleaved ? 11 : 12);
    std::vector<double> turned = x;
    PartialRope::rotate(s, fixed, positions.data(), positions.size(), turned.data(), size_t(d), false);
    double worst = 0;
    for (size_t row = 0; row < positions.size(); ++row) {
      const std::vector<double> in(x.begin() + ptrdiff_t(row * d), x.begin() + ptrdiff_t((row + 1) * d));
      const std::vector<double> want = reference(in, r, positions[row], interleaved);
      for (int c = 0; c < d; ++c) {
        const double got = turned[row * d + size_t(c)];
        if (c >= r) REQUIRE(got == in[size_t(c)]);  // no position past the first quarter, bit for bit
        worst = std::max(worst, std::abs(got - want[size_t(c)]));
      }
    }
    CHECK(worst <= 1e-12);
    // The inverse turn (the backward pass) brings every row back.
    PartialRope::rotate(s, fixed, positions.data(), positions.size(), turned.data(), size_t(d), true);
    for (size_t k = 0; k < x.size(); ++k) REQUIRE(std::abs(turned[k] - x[k]) <= 1e-12);
  }
}

TEST_CASE("partial RoPE: q·k depends on the offset through the quarter that turns, on content alone elsewhere") {
  const int d = 64;
  const FamilyShape s = shapeOf(d, 64, RopeLayout::Half);
  std::vector<double> fixed;
  PartialRope::prepare(s, fixed);
  const std::vector<double> q0 = seeded(d, 3), k0 = seeded(d, 4);
  auto score = [&](int i, int j) {
    std::vector<double> q = q0, k = k0;
    PartialRope::rotate(s, fixed, &i, 1, q.data(), size_t(d), false);
    PartialRope::rotate(s, fixed, &j, 1, k.data(), size_t(d), false);
    double dot = 0;
    for (int c = 0; c < d; ++c) dot += q[size_t(c)] * k[size_t(c)];
    return dot;
  };
  // Shifting both positions keeps the score (the rotated part sees only i - j) ...
  CHECK(score(10, 3) == doctest::Approx(score(40, 33)).epsilon(1e-12));
  // ... and another offset changes it.
  CHECK(std::abs(score(10, 3) - score(10, 9)) > 1e-3);
}

}  // namespace partial_rope_test
