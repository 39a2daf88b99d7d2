// What every position family is told about the model it sits in, and the hooks it may fill.
//
// A family puts position into attention in at most four places, and each place is a hook:
//   embed    adds a vector P(pos) to the input x of the first layer   (sinusoidal, learned)
//   rotate   turns each query and key of a head by its position        (RoPE; in some layers only:
//                                                                      the RoPE/NoPE hybrid)
//   bias     adds a scalar b_h(j - i) to the score of query i, key j  (ALiBi, T5)
//   pairBias adds a scalar b_h(i, j) that depends on both positions,  (FIRE)
//            each layer its own
// NoPE fills none of them: the causal mask alone carries order. "Position" is a row's position
// id: 0, 1, 2, ... or, with randomised positions, the sorted ids drawn for the sequence, so the
// offsets j - i a bias sees are the drawn distances. A family may own trainable tensors (the
// learned table, T5's bucket biases, FIRE's MLPs), which the model allocates, initialises,
// updates and hands back to the hooks; everything else a hook needs is a fixed table it builds
// once per shape (`prepare`).
//
// A family is a struct with static members (see families/*.hpp), listed once in registry.hpp:
//   kName                    its name in the API ('none', 'sinusoidal', ...)
//   kEmbeds, kRotates, kBiases, kPairBiases   which hooks it fills
//   kFigure                  false for a family only the trainer runs (familyAttention and the
//                            Lab draw one head with stand-in weights: nothing to draw for a
//                            per-layer mix, or for a bias that is all trained weights)
//   kFigurePerHead           true when the drawn head's map depends on which head it is (ALiBi)
//   kFigureReadsTable        true when familyAttention reads the stand-in table (learned)
// These facts reach JavaScript through wasm/families.gen.js (wasm/tools/gen-families.mjs).
//   tensors(shape)           the trainable tensors it owns (name, rows, cols, init std)
//   prepare<T>(shape, fixed) fixed tables (T = float for training, double for gradient checks)
//   embed<T>(shape, params, fixed, positions, rows, x)            x[r] += P(positions[r])
//   embedBackward<T>(shape, dx, positions, rows, dParams)         dParams += dP
//   rotate<T>(shape, fixed, positions, rows, x, stride, inverse)  x: rows x headDim, row stride
//   rotatesLayer(shape, layer)   whether the rotation applies in that layer (default: every one)
//   bias<T>(shape, params, fixed, head, length, out)              out[o + length - 1] = b(o),
//                                                                 o = j - i in [-(length-1), length-1]
//   biasBackward<T>(shape, fixed, dOut, head, length, dParams)    dParams += db (same layout)
//   pairBias<T>(shape, params, layer, qpos, kpos, count, out)     out[h·count + k] = b_h(qpos[k], kpos[k])
//                                                                 for `count` pairs, kpos[k] <= qpos[k]
//   pairBiasBackward<T>(shape, params, layer, qpos, kpos, count, dOut, dParams)   dParams += db
// Hooks a family does not fill are never called. Families hold no state of their own.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/rope.hpp"

namespace posenc::families {

// The model a family serves. Positions are 0..maxPositions-1.
struct FamilyShape {
  int dModel = 0;
  int heads = 1;
  int headDim = 0;          // dModel / heads (even)
  int maxPositions = 0;     // rows of any position table
  double base = 10000;      // sinusoidal and RoPE
  int numBuckets = 32;      // T5
  int maxDistance = 128;    // T5
  int layers = 1;           // the hybrid and FIRE (FIRE's tensors are per layer)
  int nopeEvery = 2;        // the hybrid: layer l (from 1) has no RoPE when nopeEvery divides l
  double fireThreshold = 512;  // FIRE: the initial threshold L (fire.hpp)
  bool causal = true;       // T5 buckets: one direction (a decoder) or both (an encoder)
  // RoPE: a Hugging Face frequency scaling (default: none) and the pairing of dimensions. The
  // trainer keeps the defaults; the Lab sets them to show a scaled or interleaved RoPE.
  RopeScaling ropeScaling;
  RopeLayout ropeLayout = RopeLayout::Half;
};

// A trainable tensor a family owns, rows x cols, row-major, initialised from N(0, initStd^2).
struct TensorSpec {
  std::string name;
  int rows = 0;
  int cols = 0;
  double initStd = 0;    // 0: every entry is initValue
  double initValue = 0;
};

// The defaults of the hooks; a family overrides what it fills.
struct FamilyBase {
  static constexpr bool kEmbeds = false;
  static constexpr bool kRotates = false;
  static constexpr bool kBiases = false;
  static constexpr bool kPairBiases = false;
  static constexpr bool kFigure = true;
  static constexpr bool kFigurePerHead = false;
  static constexpr bool kFigureReadsTable = false;
  static std::vector<TensorSpec> tensors(const FamilyShape&) { return {}; }
  static bool rotatesLayer(const FamilyShape&, int) { return true; }
  template <class T>
  static void prepare(const FamilyShape&, std::vector<T>& fixed) { fixed.clear(); }
};

}  // namespace posenc::families
