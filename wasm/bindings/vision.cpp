// Bindings: positions on a 2-D patch grid (core/vision.hpp): 2-D sin-cos, axial 2-D RoPE, the
// learned-grid stand-in, its bilinear resize, and one patch's similarity to every patch.
#include <emscripten/bind.h>

#include "core/limits.hpp"
#include "core/vision.hpp"
#include "wasm/bindings/args.hpp"

namespace posenc::js {
namespace {

val sincos2dJs(val rowsArg, val colsArg, val dArg, val opts) {
  return guarded([&] {
    namespace f = api::sincos2d;
    const double rows = number(rowsArg, f::rows.name), cols = number(colsArg, f::cols.name);
    const double d = number(dArg, f::d.name);
    const val o = options(opts, "options");
    const double base = numberOption(o, f::opt::base);
    checkSincos2d(rows, cols, d, base);
    const size_t count = size_t(rows) * size_t(cols) * size_t(d);
    auto out = uninitialized<float>(count);
    sincos2d(int(rows), int(cols), int(d), base, out.get());
    return toFloat32Array(out.get(), count);
  });
}

val axialRopeJs(val xArg, val rowsArg, val colsArg, val opts) {
  return guarded([&] {
    namespace f = api::axialRope;
    const double rows = number(rowsArg, f::rows.name), cols = number(colsArg, f::cols.name);
    const val o = options(opts, "options");
    const double base = numberOption(o, f::opt::base);
    const std::vector<float> x = floats(xArg, f::x.name, size_t(kMaxDim));
    checkAxialRope(x.data(), x.size(), rows, cols, base);
    const size_t count = size_t(rows) * size_t(cols) * x.size();
    auto out = uninitialized<float>(count);
    axialRope(x.data(), int(rows), int(cols), int(x.size()), base, out.get());
    return toFloat32Array(out.get(), count);
  });
}

val axialRopeScoresJs(val rowsArg, val colsArg, val dArg, val rArg, val cArg, val opts) {
  return guarded([&] {
    namespace f = api::axialRopeScores;
    const double rows = number(rowsArg, f::rows.name), cols = number(colsArg, f::cols.name);
    const double d = number(dArg, f::d.name);
    const double r = number(rArg, f::r.name), c = number(cArg, f::c.name);
    const val o = options(opts, "options");
    const double base = numberOption(o, f::opt::base);
    const bool cosine = boolOption(o, f::opt::cosine);
    requireInt(f::d, d);  // before the default q of d ones is made
    std::vector<float> q;
    if (has(o, f::opt::q) && !field(o, f::opt::q).isNull()) q = floats(field(o, f::opt::q), f::opt::q.name, size_t(kMaxDim));
    else q.assign(size_t(d), 1.0f);
    checkAxialRopeScores(rows, cols, d, r, c, base, q.data(), q.size());
    const size_t count = size_t(rows) * size_t(cols);
    auto out = uninitialized<double>(count);
    axialRopeScores(int(rows), int(cols), int(d), int(r), int(c), base, q.data(), cosine, out.get());
    return toFloat64Array(out.get(), count);
  });
}

val learnedGridJs(val rowsArg, val colsArg, val dArg, val opts) {
  return guarded([&] {
    namespace f = api::learnedGrid;
    const double rows = number(rowsArg, f::rows.name), cols = number(colsArg, f::cols.name);
    const double d = number(dArg, f::d.name);
    const val o = options(opts, "options");
    const double seed = numberOption(o, f::opt::seed);
    const double stdDev = numberOption(o, f::opt::std);
    checkLearnedGrid(rows, cols, d, seed, stdDev);
    const size_t count = size_t(rows) * size_t(cols) * size_t(d);
    auto out = uninitialized<float>(count);
    learnedGrid(int(rows), int(cols), int(d), seed, stdDev, out.get());
    return toFloat32Array(out.get(), count);
  });
}

val interpolateGridJs(val tableArg, val rowsArg, val colsArg, val dArg, val newRowsArg,
                      val newColsArg, val opts) {
  return guarded([&] {
    namespace f = api::interpolateGrid;
    const double rows = number(rowsArg, f::rows.name), cols = number(colsArg, f::cols.name);
    const double d = number(dArg, f::d.name);
    const double newRows = number(newRowsArg, f::newRows.name), newCols = number(newColsArg, f::newCols.name);
    const val o = options(opts, "options");
    const bool alignCorners = boolOption(o, f::opt::alignCorners);
    const std::vector<float> table = floats(tableArg, f::table.name, size_t(kMaxElements));
    checkInterpolateGrid(table.data(), table.size(), rows, cols, d, newRows, newCols);
    const size_t count = size_t(newRows) * size_t(newCols) * size_t(d);
    auto out = uninitialized<float>(count);
    interpolateGrid(table.data(), int(rows), int(cols), int(d), int(newRows), int(newCols),
                    alignCorners, out.get());
    return toFloat32Array(out.get(), count);
  });
}

val gridSimilarityJs(val tableArg, val dArg, val indexArg, val opts) {
  return guarded([&] {
    namespace f = api::gridSimilarity;
    const double d = number(dArg, f::d.name), index = number(indexArg, f::index.name);
    const val o = options(opts, "options");
    const bool cosine = boolOption(o, f::opt::cosine);
    const std::vector<float> table = floats(tableArg, f::table.name, size_t(kMaxElements));
    checkGridSimilarity(table.data(), table.size(), d, index);
    const size_t n = table.size() / size_t(d);
    auto out = uninitialized<double>(n);
    gridSimilarity(table.data(), n, int(d), int(index), cosine, out.get());
    return toFloat64Array(out.get(), n);
  });
}

}  // namespace
}  // namespace posenc::js

EMSCRIPTEN_BINDINGS(posenc_vision) {
  emscripten::function("sincos2d", &posenc::js::sincos2dJs);
  emscripten::function("axialRope", &posenc::js::axialRopeJs);
  emscripten::function("axialRopeScores", &posenc::js::axialRopeScoresJs);
  emscripten::function("learnedGrid", &posenc::js::learnedGridJs);
  emscripten::function("interpolateGrid", &posenc::js::interpolateGridJs);
  emscripten::function("gridSimilarity", &posenc::js::gridSimilarityJs);
}
