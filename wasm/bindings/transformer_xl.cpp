// Bindings: the four Transformer-XL score terms (core/transformer_xl.hpp) and their seeded inputs.
#include <emscripten/bind.h>

#include <cmath>

#include "core/limits.hpp"
#include "core/transformer_xl.hpp"
#include "wasm/bindings/args.hpp"

namespace posenc::js {
namespace {

// The three functions share their dim and options (wasm/schema.js: xlDim, xlOptions).
namespace f = api::transformerXlTerms;

XlParams xlOptions(val dimArg, val opts) {
  const double dim = number(dimArg, f::dim.name);
  const val o = options(opts, "options");
  XlParams p;
  p.seed = numberOption(o, f::opt::seed);
  p.base = numberOption(o, f::opt::base);
  requireInt(f::dim, dim);
  p.dim = int(dim);
  checkXl(p);
  return p;
}

int position(val arg, const char* name) {
  const double v = number(arg, name);
  checkXlPosition(name, v);
  return int(v);
}

val transformerXlTermsJs(val iArg, val jArg, val dimArg, val opts) {
  return guarded([&] {
    const int i = position(iArg, f::i.name);
    const int j = position(jArg, f::j.name);
    const XlParams p = xlOptions(dimArg, opts);
    const XlTerms t = transformerXlTerms(i, j, p);
    val result = val::object();
    result.set("contentContent", t.contentContent);
    result.set("contentPosition", t.contentPosition);
    result.set("globalContent", t.globalContent);
    result.set("globalPosition", t.globalPosition);
    result.set("score", t.score);
    return result;
  });
}

val transformerXlRowJs(val iArg, val keysArg, val dimArg, val opts) {
  return guarded([&] {
    const int i = position(iArg, api::transformerXlRow::i.name);
    const XlParams p = xlOptions(dimArg, opts);
    const std::vector<double> keys = positions(keysArg, api::transformerXlRow::keys.name);
    if (keys.size() * size_t(p.dim) > size_t(kMaxElements)) {
      throw RangeError("keys.length * dim must be at most " + std::to_string(kMaxElements));
    }
    // Every key before the result is allocated (up to 32 MiB, which the wasm heap would keep
    // after a bad call); the message is the core's, built only for a bad key.
    for (size_t t = 0; t < keys.size(); ++t) {
      const double j = keys[t];
      if (!(j >= 0 && j <= kMaxRows && j == std::floor(j))) {
        checkXlPosition(("keys[" + std::to_string(t) + "]").c_str(), j);
      }
    }
    const size_t count = 4 * keys.size();
    auto out = uninitialized<double>(count);
    transformerXlRow(i, keys.data(), keys.size(), p, out.get());
    return toFloat64Array(out.get(), count);
  });
}

val transformerXlInputsJs(val iArg, val jArg, val dimArg, val opts) {
  return guarded([&] {
    const int i = position(iArg, api::transformerXlInputs::i.name);
    const int j = position(jArg, api::transformerXlInputs::j.name);
    const XlParams p = xlOptions(dimArg, opts);
    const XlInputs in = transformerXlInputs(i, j, p);
    val result = val::object();
    result.set("query", toFloat64Array(in.query.data(), in.query.size()));
    result.set("key", toFloat64Array(in.key.data(), in.key.size()));
    result.set("u", toFloat64Array(in.u.data(), in.u.size()));
    result.set("v", toFloat64Array(in.v.data(), in.v.size()));
    result.set("r", toFloat64Array(in.r.data(), in.r.size()));
    result.set("wr", toFloat64Array(in.wr.data(), in.wr.size()));
    return result;
  });
}

}  // namespace
}  // namespace posenc::js

EMSCRIPTEN_BINDINGS(posenc_transformer_xl) {
  emscripten::function("transformerXlTerms", &posenc::js::transformerXlTermsJs);
  emscripten::function("transformerXlRow", &posenc::js::transformerXlRowJs);
  emscripten::function("transformerXlInputs", &posenc::js::transformerXlInputsJs);
}
