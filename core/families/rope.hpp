// RoPE (Su et al., RoFormer): each query and key of a head turned pair by pair by its position,
// frequencies from core/rope.hpp (base^(-2i/headDim) unless the shape names a scaling, whose
// attention factor then multiplies cos and sin as in HF), pairs (i, i + headDim/2) as in HF's
// rotate_half or (2i, 2i + 1) when the shape asks for the interleaved layout. The angles
// pos * inv_freq_i are formed and their cos/sin taken in double, once per shape; the rotation
// runs in T. Every family that rotates says how many dimensions it turns (rotaryDims).
#pragma once

#include <cmath>
#include <vector>

#include "core/families/family.hpp"
#include "core/rope.hpp"

namespace posenc::families {

// The rotation of the first `dims` dimensions of each head (dims even, <= headDim); the rest
// pass through untouched. RoPE turns them all; partial RoPE (partial_rope.hpp) a quarter. The
// frequencies are those of a head of width `dims`, base^(-2i/dims), as HF computes them (GPT-NeoX
// from head_dim * partial_rotary_factor, GPT-J from rotary_dim).
namespace rotary {

// fixed: cos then sin, each maxPositions x dims/2.
template <class T>
void prepare(const FamilyShape& s, int dims, std::vector<T>& fixed) {
  const RopeFrequencies f = ropeFrequencies(dims, s.base, s.ropeScaling);
  const size_t half = size_t(dims / 2), n = size_t(s.maxPositions);
  fixed.resize(2 * n * half);
  const double m = f.attentionFactor;  // 1 unless a scaling sets it
  for (size_t p = 0; p < n; ++p) {
    for (size_t i = 0; i < half; ++i) {
      const double angle = double(p) * f.invFreq[i];
      fixed[p * half + i] = T(m == 1.0 ? std::cos(angle) : std::cos(angle) * m);
      fixed[n * half + p * half + i] = T(m == 1.0 ? std::sin(angle) : std::sin(angle) * m);
    }
  }
}

// (a, b) -> (a cos - b sin, b cos + a sin) for the pairs (i, i + dims/2), or (2i, 2i + 1) in the
// interleaved layout; inverse turns by -angle (the transpose), which is how a gradient flows
// back through the rotation.
template <class T>
void turn(const FamilyShape& s, int dims, const std::vector<T>& fixed, const int* positions, size_t rows, T* x,
          size_t stride, bool inverse) {
  const size_t half = size_t(dims / 2), n = size_t(s.maxPositions);
  const T* cosT = fixed.data();
  const T* sinT = fixed.data() + n * half;
  const bool interleaved = s.ropeLayout == RopeLayout::Interleaved;
  for (size_t r = 0; r < rows; ++r) {
    const T* c = cosT + size_t(positions[r]) * half;
    const T* sn = sinT + size_t(positions[r]) * half;
    T* row = x + r * stride;
    for (size_t i = 0; i < half; ++i) {
      const size_t ia = interleaved ? 2 * i : i, ib = interleaved ? 2 * i + 1 : i + half;
      const T a = row[ia], b = row[ib];
      const T si = inverse ? -sn[i] : sn[i];
      row[ia] = a * c[i] - b * si;
      row[ib] = b * c[i] + a * si;
    }
  }
}

}  // namespace rotary

// The hooks of a family that rotates Family::rotaryDims(shape) dimensions of each head.
template <class Family>
struct RotaryFamily : FamilyBase {
  static constexpr bool kRotates = true;

  template <class T>
  static void prepare(const FamilyShape& s, std::vector<T>& fixed) {
    rotary::prepare(s, Family::rotaryDims(s), fixed);
  }
  template <class T>
  static void rotate(const FamilyShape& s, const std::vector<T>& fixed, const int* positions, size_t rows,
                     T* x, size_t stride, bool inverse) {
    rotary::turn(s, Family::rotaryDims(s), fixed, positions, rows, x, stride, inverse);
  }
};

struct Rope : RotaryFamily<Rope> {
  static constexpr const char* kName = "rope";
  static int rotaryDims(const FamilyShape& s) { return s.headDim; }
};

}  // namespace posenc::families
