// Bindings: attention weights (or scores) for one head, and which kernels this module runs.
#include <emscripten/bind.h>

#include <cmath>

#include "core/attention.hpp"
#include "core/kernels/dispatch.hpp"
#include "core/limits.hpp"
#include "wasm/bindings/args.hpp"

namespace posenc::js {
namespace {

int rowsOf(size_t length, int dim, const char* name) {
  if (length % size_t(dim) != 0) {
    throw RangeError(std::string(name) + ".length must be a multiple of dim (" +
                     std::to_string(dim) + "), got " + std::to_string(length));
  }
  return int(length / size_t(dim));
}

val attentionJs(val qArg, val kArg, val dimArg, val opts) {
  return guarded([&] {
    const double dim = number(dimArg, "dim");
    const val o = options(opts, "options");
    requireInt("dim", dim, 1, kMaxDim);
    AttentionParams p;
    p.dim = int(dim);
    p.causal = boolOption(o, "causal", false, "options.causal");
    p.softmax = boolOption(o, "softmax", true, "options.softmax");
    p.scale = numberOption(o, "scale", 1.0 / std::sqrt(dim), "options.scale");
    const std::vector<float> q = floats(qArg, "q", size_t(kMaxElements));
    const std::vector<float> k = floats(kArg, "k", size_t(kMaxElements));
    p.qRows = rowsOf(q.size(), p.dim, "q");
    p.kRows = rowsOf(k.size(), p.dim, "k");
    std::vector<float> bias;
    if (has(o, "bias") && !o["bias"].isNull()) {
      bias = floats(o["bias"], "options.bias", size_t(kMaxElements));
      // Checked here: an empty vector's data() may be null, which would read as "no bias".
      requireLength("bias", bias.size(), size_t(p.qRows) * size_t(p.kRows));
      p.bias = bias.data();
    }
    checkAttention(p, q.data(), q.size(), k.data(), k.size(), bias.size());
    const size_t count = size_t(p.qRows) * p.kRows;
    auto out = uninitialized<float>(count);
    attention(p, q.data(), k.data(), out.get());
    return toFloat32Array(out.get(), count);
  });
}

val softmaxJs(val xArg, val colsArg) {
  return guarded([&] {
    const double cols = number(colsArg, "cols");
    requireInt("cols", cols, 1, kMaxRows);
    std::vector<float> x = floats(xArg, "x", size_t(kMaxElements));
    softmaxRows(x.data(), x.size(), int(cols));  // checks x (no allocation before it: in place)
    return toFloat32Array(x.data(), x.size());
  });
}

bool simdJs() { return kernels::kSimd; }

}  // namespace
}  // namespace posenc::js

EMSCRIPTEN_BINDINGS(posenc_attention) {
  emscripten::function("attention", &posenc::js::attentionJs);
  emscripten::function("softmax", &posenc::js::softmaxJs);
  emscripten::function("simd", &posenc::js::simdJs);
}
