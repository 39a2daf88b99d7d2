// Bindings: one attention head for a position family, reduced to what a figure draws, and the
// seeded rows it reads (for a caller to hold between calls: the core keeps none).
#include <emscripten/bind.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/families/registry.hpp"
#include "core/family_attention.hpp"
#include "core/limits.hpp"
#include "wasm/bindings/args.hpp"

namespace posenc::js {
namespace {

// options.<key>: n · dim finite values the caller holds (familyContent's), or absent (nullptr:
// the core draws them). The vector keeps the copy alive for the call.
template <class Field>
const float* heldRows(const val& o, const Field& f, size_t count, std::vector<float>& into) {
  if (!has(o, f)) return nullptr;
  into = floats(field(o, f), f.name, size_t(kFamilyMaxTokens) * size_t(kFamilyMaxDim));
  if (into.size() != count) {
    throw RangeError(std::string(f.name) + ".length must be n * dim = " + std::to_string(count) + ", got " +
                     std::to_string(into.size()));
  }
  for (size_t x = 0; x < into.size(); ++x) {
    if (!std::isfinite(into[x])) {
      throw RangeError(std::string(f.name) + "[" + std::to_string(x) + "] must be finite, got " +
                       detail::fmt(into[x]));
    }
  }
  return into.data();
}

val familyAttentionJs(val familyArg, val nArg, val dimArg, val opts) {
  return guarded([&] {
    if (!familyArg.isString()) {
      throw TypeError("family must be a string (one of " + families::figureFamilyNames() + ")");
    }
    namespace f = api::familyAttention;
    FamilyAttentionParams p;
    p.family = families::figureFamilyFromName(familyArg.as<std::string>());
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
    std::vector<float> query, key, table;
    FamilyContents held;
    held.query = heldRows(o, f::opt::queryContent, n * size_t(p.dim), query);
    held.key = heldRows(o, f::opt::keyContent, n * size_t(p.dim), key);
    held.learned = heldRows(o, f::opt::learnedTable, n * size_t(p.dim), table);
    auto cells = uninitialized<float>(cellCount);
    auto scores = uninitialized<float>(n);
    auto probs = uninitialized<float>(n);
    familyAttention(p, held, rows.data(), rows.size(), cells.get(), scores.get(), probs.get());
    val result = val::object();
    result.set("cells", toFloat32Array(cells.get(), cellCount));
    result.set("scores", toFloat32Array(scores.get(), n));
    result.set("probs", toFloat32Array(probs.get(), n));
    return result;
  });
}

val familyContentJs(val whichArg, val nArg, val dimArg, val opts) {
  return guarded([&] {
    namespace f = api::familyContent;
    if (!whichArg.isString()) throw TypeError("which must be a string ('query', 'key' or 'learned')");
    const std::string which = whichArg.as<std::string>();
    FamilyContent content;
    if (which == "query") content = FamilyContent::Query;
    else if (which == "key") content = FamilyContent::Key;
    else if (which == "learned") content = FamilyContent::Learned;
    else throw TypeError("which must be one of 'query', 'key', 'learned', got '" + which + "'");
    const double n = number(nArg, f::n.name), dim = number(dimArg, f::dim.name);
    const val o = options(opts, "options");
    const double seed = numberOption(o, f::opt::seed);
    requireInt(f::n, n);
    requireInt(f::dim, dim);
    requireIntOption(f::opt::seed, seed);
    const size_t count = size_t(n) * size_t(dim);
    auto out = uninitialized<float>(count);
    familyContent(int(dim), seed, int(n), content, out.get());
    return toFloat32Array(out.get(), count);
  });
}

}  // namespace
}  // namespace posenc::js

EMSCRIPTEN_BINDINGS(posenc_family_attention) {
  emscripten::function("familyAttention", &posenc::js::familyAttentionJs);
  emscripten::function("familyContent", &posenc::js::familyContentJs);
}
