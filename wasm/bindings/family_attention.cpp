// Bindings: one attention head for a position family, reduced to what a figure draws.
#include <emscripten/bind.h>

#include <string>
#include <vector>

#include "core/families/registry.hpp"
#include "core/family_attention.hpp"
#include "core/limits.hpp"
#include "wasm/bindings/args.hpp"

namespace posenc::js {
namespace {

val familyAttentionJs(val familyArg, val nArg, val dimArg, val opts) {
  return guarded([&] {
    if (!familyArg.isString()) {
      throw TypeError("family must be a string (one of " + families::familyNames() + ")");
    }
    namespace f = api::familyAttention;
    FamilyAttentionParams p;
    p.family = positionFamilyFromName(familyArg.as<std::string>());
    p.n = number(nArg, f::n.name);
    p.dim = number(dimArg, f::dim.name);
    const val o = options(opts, "options");
    requireInt(f::n, p.n);  // before n serves as a default below
    p.columns = numberOption(o, f::opt::columns, p.n);
    p.query = numberOption(o, f::opt::query);
    p.causal = boolOption(o, f::opt::causal);
    p.seed = numberOption(o, f::opt::seed);
    p.base = numberOption(o, f::opt::base);
    p.heads = numberOption(o, f::opt::heads);
    p.head = numberOption(o, f::opt::head);
    p.numBuckets = numberOption(o, f::opt::numBuckets);
    p.maxDistance = numberOption(o, f::opt::maxDistance);
    std::vector<double> rows;
    if (has(o, f::opt::rows)) {
      rows = numbers(field(o, f::opt::rows), f::opt::rows.name, size_t(kFamilyMaxTokens) + 1);
    } else {
      rows.resize(size_t(p.n));
      for (size_t r = 0; r < rows.size(); ++r) rows[r] = double(r);
    }
    checkFamilyAttention(p, rows.data(), rows.size());
    const size_t n = size_t(p.n), cellCount = rows.size() * size_t(p.columns);
    auto cells = uninitialized<float>(cellCount);
    auto scores = uninitialized<float>(n);
    auto probs = uninitialized<float>(n);
    familyAttention(p, rows.data(), rows.size(), cells.get(), scores.get(), probs.get());
    val result = val::object();
    result.set("cells", toFloat32Array(cells.get(), cellCount));
    result.set("scores", toFloat32Array(scores.get(), n));
    result.set("probs", toFloat32Array(probs.get(), n));
    return result;
  });
}

}  // namespace
}  // namespace posenc::js

EMSCRIPTEN_BINDINGS(posenc_family_attention) {
  emscripten::function("familyAttention", &posenc::js::familyAttentionJs);
}
