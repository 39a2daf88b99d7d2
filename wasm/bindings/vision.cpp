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
    const double rows = number(rowsArg, "rows"), cols = number(colsArg, "cols");
    const double d = number(dArg, "d");
    const val o = options(opts, "options");
    const double base = numberOption(o, "base", 10000.0, "options.base");
    checkSincos2d(rows, cols, d, base);
    const size_t count = size_t(rows) * size_t(cols) * size_t(d);
    auto out = uninitialized<float>(count);
    sincos2d(int(rows), int(cols), int(d), base, out.get());
    return toFloat32Array(out.get(), count);
  });
}

val axialRopeJs(val xArg, val rowsArg, val colsArg, val opts) {
  return guarded([&] {
    const double rows = number(rowsArg, "rows"), cols = number(colsArg, "cols");
    const val o = options(opts, "options");
    const double base = numberOption(o, "base", 10000.0, "options.base");
    const std::vector<float> x = floats(xArg, "x", size_t(kMaxDim));
    checkAxialRope(x.data(), x.size(), rows, cols, base);
    const size_t count = size_t(rows) * size_t(cols) * x.size();
    auto out = uninitialized<float>(count);
    axialRope(x.data(), int(rows), int(cols), int(x.size()), base, out.get());
    return toFloat32Array(out.get(), count);
  });
}

val axialRopeScoresJs(val rowsArg, val colsArg, val dArg, val rArg, val cArg, val opts) {
  return guarded([&] {
    const double rows = number(rowsArg, "rows"), cols = number(colsArg, "cols");
    const double d = number(dArg, "d");
    const double r = number(rArg, "r"), c = number(cArg, "c");
    const val o = options(opts, "options");
    const double base = numberOption(o, "base", 10000.0, "options.base");
    const bool cosine = boolOption(o, "cosine", false, "options.cosine");
    requireInt("d", d, 4, kMaxDim);  // before the default q of d ones is made
    std::vector<float> q;
    if (has(o, "q") && !o["q"].isNull()) q = floats(o["q"], "options.q", size_t(kMaxDim));
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
    const double rows = number(rowsArg, "rows"), cols = number(colsArg, "cols");
    const double d = number(dArg, "d");
    const val o = options(opts, "options");
    const double seed = numberOption(o, "seed", 0, "options.seed");
    const double stdDev = numberOption(o, "std", 0.02, "options.std");
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
    const double rows = number(rowsArg, "rows"), cols = number(colsArg, "cols");
    const double d = number(dArg, "d");
    const double newRows = number(newRowsArg, "newRows"), newCols = number(newColsArg, "newCols");
    const val o = options(opts, "options");
    const bool alignCorners = boolOption(o, "alignCorners", false, "options.alignCorners");
    const std::vector<float> table = floats(tableArg, "table", size_t(kMaxElements));
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
    const double d = number(dArg, "d"), index = number(indexArg, "index");
    const val o = options(opts, "options");
    const bool cosine = boolOption(o, "cosine", false, "options.cosine");
    const std::vector<float> table = floats(tableArg, "table", size_t(kMaxElements));
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
