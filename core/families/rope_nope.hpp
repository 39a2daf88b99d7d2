// A RoPE/NoPE hybrid: RoPE in most layers, no position at all in every nopeEvery-th one (layer l,
// counted from 1, has no RoPE when nopeEvery divides l). Llama 4's "iRoPE" does this with a NoPE
// layer every 4th (HF Llama4TextConfig: no_rope_layers[i] = int((i + 1) % no_rope_layer_interval
// != 0), interval 4), as do SmolLM3 (RoPE removed from every 4th layer) and Cohere's Command
// R7B/A (three sliding-window RoPE layers, then one global NoPE layer). Our models have 2 or 3
// layers, so the default interval is 2: layer 2 has no RoPE, layers 1 (and 3) do, the pattern
// Llama 4's rule gives for an interval of 2. The RoPE layers are RoPE's exactly (rope.hpp).
// checkTrainConfig refuses a hybrid without a NoPE layer (nopeEvery > layers); nopeEvery >= 2
// keeps layer 1 a RoPE layer.
#pragma once

#include "core/families/rope.hpp"

namespace posenc::families {

struct RopeNope : RotaryFamily<RopeNope> {
  static constexpr const char* kName = "rope-nope";
  static constexpr bool kFigure = false;  // a mix of layers: one head has nothing to show
  static int rotaryDims(const FamilyShape& s) { return s.headDim; }
  static bool rotatesLayer(const FamilyShape& s, int layer) { return (layer + 1) % s.nopeEvery != 0; }
};

}  // namespace posenc::families
