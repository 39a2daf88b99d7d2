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
    namespace f = api::attention;
    const double dim = number(dimArg, f::dim.name);
    const val o = options(opts, "options");
    requireInt(f::dim, dim);
    AttentionParams p;
    p.dim = int(dim);
    p.causal = boolOption(o, f::opt::causal);
    p.softmax = boolOption(o, f::opt::softmax);
    p.scale = numberOption(o, f::opt::scale, 1.0 / std::sqrt(dim));
    const std::vector<float> q = floats(qArg, f::q.name, size_t(kMaxElements));
    const std::vector<float> k = floats(kArg, f::k.name, size_t(kMaxElements));
    p.qRows = rowsOf(q.size(), p.dim, "q");
    p.kRows = rowsOf(k.size(), p.dim, "k");
    std::vector<float> bias;
    if (has(o, f::opt::bias) && !field(o, f::opt::bias).isNull()) {
      bias = floats(field(o, f::opt::bias), f::opt::bias.name, size_t(kMaxElements));
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
    namespace f = api::softmax;
    const double cols = number(colsArg, f::cols.name);
    requireInt(f::cols, cols);
    std::vector<float> x = floats(xArg, f::x.name, size_t(kMaxElements));
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
