// A diagnostic for `npm run bench`: the trainer's matrix product through the project's SIMD
// kernel and through Eigen, in this module, on one shape. Not part of the documented API.
#include <emscripten/bind.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/kernels/gemm.hpp"
#include "wasm/bindings/args.hpp"

namespace posenc::js {
namespace {

// Milliseconds per product C = A·B (m x k times k x n, float), the fastest of `repeats` timed
// batches of products (each batch long enough to time).
val gemmBenchJs(val mArg, val nArg, val kArg, val kernelArg, val repeatsArg) {
  return guarded([&] {
    const double m = number(mArg, "m"), n = number(nArg, "n"), k = number(kArg, "k");
    const double repeats = number(repeatsArg, "repeats");
    for (auto [name, v] : {std::pair{"m", m}, {"n", n}, {"k", k}}) requireInt(name, v, 1, 4096);
    requireInt("repeats", repeats, 1, 1000);
    if (!kernelArg.isString()) throw TypeError("kernel must be 'simd' or 'eigen'");
    const std::string kernel = kernelArg.as<std::string>();
    if (kernel != "simd" && kernel != "eigen") throw TypeError("kernel must be 'simd' or 'eigen', got '" + kernel + "'");
#ifndef __wasm_simd128__
    if (kernel == "simd") throw RangeError("kernel 'simd' needs the SIMD module");
#endif
    const size_t M = size_t(m), N = size_t(n), K = size_t(k);
    std::vector<float> a(M * K), b(K * N), c(M * N);
    for (size_t i = 0; i < a.size(); ++i) a[i] = float(i % 7) * 0.1f - 0.3f;
    for (size_t i = 0; i < b.size(); ++i) b[i] = float(i % 5) * 0.1f - 0.2f;
    const int inner = std::max(1, int(2e7 / double(M * N * K)));
    double best = 1e30;
    for (int r = 0; r < int(repeats); ++r) {
      const auto start = std::chrono::steady_clock::now();
      for (int i = 0; i < inner; ++i) {
#ifdef __wasm_simd128__
        if (kernel == "simd") {
          kernels::gemmSimd(false, false, M, N, K, a.data(), K, b.data(), N, 0.0f, c.data(), N);
          continue;
        }
#endif
        kernels::gemmEigen<float>(false, false, M, N, K, a.data(), K, b.data(), N, 0.0f, c.data(), N);
      }
      best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() / inner);
    }
    return val(best);
  });
}

}  // namespace
}  // namespace posenc::js

EMSCRIPTEN_BINDINGS(posenc_train_bench) { emscripten::function("gemmBench", &posenc::js::gemmBenchJs); }
