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
    FamilyAttentionParams p;
    p.family = positionFamilyFromName(familyArg.as<std::string>());
    p.n = number(nArg, "n");
    p.dim = number(dimArg, "dim");
    const val o = options(opts, "options");
    requireInt("n", p.n, 1, kFamilyMaxTokens);  // before n serves as a default below
    p.columns = numberOption(o, "columns", p.n, "options.columns");
    p.query = numberOption(o, "query", 0, "options.query");
    p.causal = boolOption(o, "causal", true, "options.causal");
    p.seed = numberOption(o, "seed", 0, "options.seed");
    p.base = numberOption(o, "base", 10000, "options.base");
    p.heads = numberOption(o, "heads", 8, "options.heads");
    p.head = numberOption(o, "head", 0, "options.head");
    p.numBuckets = numberOption(o, "numBuckets", 32, "options.numBuckets");
    p.maxDistance = numberOption(o, "maxDistance", 128, "options.maxDistance");
    std::vector<double> rows;
    if (has(o, "rows")) {
      rows = numbers(o["rows"], "options.rows", size_t(kFamilyMaxTokens) + 1);
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
