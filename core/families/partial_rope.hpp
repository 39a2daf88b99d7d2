// Partial RoPE: only the first quarter of each head's dimensions rotate; the other three
// quarters carry no position at all, so a query and a key meet there on content alone. GPT-NeoX
// rotates 25 % of each head (rotary_pct = 0.25, the 'half' pairing within that part, as HF's
// rotate_half) and GPT-J 64 of its 256 (rotary_dim = 64, pairs (2i, 2i + 1): the interleaved
// layout). The rotated part's frequencies are those of a head of that width:
// base^(-2i/rotaryDims), as HF computes them (GPT-NeoX from head_dim * partial_rotary_factor, its
// rotary_pct; GPT-J from create_sinusoidal_positions(..., rotary_dim)).
#pragma once

#include <algorithm>

#include "core/families/rope.hpp"

namespace posenc::families {

struct PartialRope : RotaryFamily<PartialRope> {
  static constexpr const char* kName = "partial-rope";
  // A quarter of the head, rounded down to whole pairs; at least one pair, so a head of 2 or 6
  // still rotates something (GPT-NeoX and GPT-J heads are multiples of 8: exactly a quarter).
  static int rotaryDims(const FamilyShape& s) { return std::max(2, s.headDim / 8 * 2); }
};

}  // namespace posenc::families
