// Native benchmark of the core's scalar kernels (g++ -O3 on this CPU, no -march flags), run by
// tests/bench/bench.mjs. Same four kernels and sizes as the JS/wasm/NumPy columns:
//
//   sinusoidal   4096 x 1024 table                          posenc::sinusoidal
//   rope         4096 x 128, half layout, positions 0..4095  ropeFrequencies + ropeApply on a
//                                                            fresh copy of x (the JS API copies)
//   qk           1024 x 1024 scores, d = 64, scale 1/8       posenc::attention, softmax = false
//   softmax      1024 x 1024 rows                            copy of the scores +
//                                                            kernels::softmaxRow per row
//
// kernels::softmaxRow is softmaxRowScalar in a native build. The file also compiles with em++
// (-msimd128 or not, -sENVIRONMENT=node): it then gives kernel-only wasm times, without the
// JS <-> wasm copies the API pays for. "simd" in the output says which kernels ran.
// Usage: posenc-bench-native [--runs N] [--warmup W]
// Prints one JSON object: per kernel the median in ms and every timed sample.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "core/kernels/dispatch.hpp"
#include "core/posenc.hpp"

namespace {

constexpr int kSinRows = 4096, kSinDim = 1024;
constexpr int kRopeRows = 4096, kRopeDim = 128;
constexpr int kQkRows = 1024, kQkDim = 64;
constexpr int kSoftRows = 1024, kSoftCols = 1024;

struct Result {
  std::string name;
  std::vector<double> samples;
  double checksum = 0;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  if (n == 0) return NAN;
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Times `run` (which returns a value derived from its output, so nothing is optimised away).
Result timeKernel(const std::string& name, int warmup, int runs, const std::function<double()>& run) {
  Result r{name, {}, 0};
  for (int i = 0; i < warmup; ++i) r.checksum += run();
  for (int i = 0; i < runs; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    const double c = run();
    const auto t1 = std::chrono::steady_clock::now();
    r.checksum += c;
    r.samples.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  return r;
}

std::vector<float> uniform(size_t n, float lo, float hi, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = d(gen);
  return v;
}

int argInt(int argc, char** argv, const char* flag, int fallback) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], flag) == 0) return std::atoi(argv[i + 1]);
  }
  return fallback;
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = std::max(1, argInt(argc, argv, "--runs", 15));
  const int warmup = std::max(0, argInt(argc, argv, "--warmup", 2));

  std::vector<Result> results;

  {  // sinusoidal
    std::vector<float> out(size_t(kSinRows) * kSinDim);
    posenc::SinusoidalParams p;
    p.positions = kSinRows;
    p.dModel = kSinDim;
    results.push_back(timeKernel("sinusoidal", warmup, runs, [&] {
      posenc::sinusoidal(p, out.data());
      return double(out[out.size() - 1]);
    }));
  }

  {  // RoPE, half layout
    const std::vector<float> x = uniform(size_t(kRopeRows) * kRopeDim, -1.0f, 1.0f, 1);
    std::vector<double> positions(kRopeRows);
    for (int i = 0; i < kRopeRows; ++i) positions[i] = i;
    std::vector<float> y(x.size());
    results.push_back(timeKernel("rope", warmup, runs, [&] {
      const posenc::RopeFrequencies f = posenc::ropeFrequencies(kRopeDim, 10000.0);
      std::memcpy(y.data(), x.data(), x.size() * sizeof(float));
      posenc::ropeApply(y.data(), positions.data(), kRopeRows, kRopeDim, posenc::RopeLayout::Half, f);
      return double(y[y.size() - 1]);
    }));
  }

  {  // Q K^T * 1/sqrt(d)
    const std::vector<float> q = uniform(size_t(kQkRows) * kQkDim, -1.0f, 1.0f, 2);
    const std::vector<float> k = uniform(size_t(kQkRows) * kQkDim, -1.0f, 1.0f, 3);
    std::vector<float> out(size_t(kQkRows) * kQkRows);
    posenc::AttentionParams p;
    p.qRows = kQkRows;
    p.kRows = kQkRows;
    p.dim = kQkDim;
    p.scale = 1.0 / std::sqrt(double(kQkDim));
    p.softmax = false;
    results.push_back(timeKernel("qk", warmup, runs, [&] {
      posenc::attention(p, q.data(), k.data(), out.data());
      return double(out[out.size() - 1]);
    }));
  }

  {  // row softmax
    const std::vector<float> scores = uniform(size_t(kSoftRows) * kSoftCols, -8.0f, 8.0f, 4);
    std::vector<float> out(scores.size());
    results.push_back(timeKernel("softmax", warmup, runs, [&] {
      std::memcpy(out.data(), scores.data(), scores.size() * sizeof(float));
      for (int r = 0; r < kSoftRows; ++r) {
        posenc::kernels::softmaxRow(out.data() + size_t(r) * kSoftCols, kSoftCols);
      }
      return double(out[out.size() - 1]);
    }));
  }

  std::printf("{\"implementation\":\"%s\",\"simd\":%s,\"compiler\":\"%s\",\"runs\":%d,\"warmup\":%d,",
#ifdef __EMSCRIPTEN__
              "wasm",
#else
              "native",
#endif
              posenc::kernels::kSimd ? "true" : "false",
#if defined(__clang__)
              "clang " __clang_version__,
#elif defined(__GNUC__)
              "g++ " __VERSION__,
#else
              "unknown",
#endif
              runs, warmup);
  std::printf("\"kernels\":{");
  for (size_t i = 0; i < results.size(); ++i) {
    const Result& r = results[i];
    std::printf("%s\"%s\":{\"median_ms\":%.6f,\"samples_ms\":[", i ? "," : "", r.name.c_str(),
                median(r.samples));
    for (size_t j = 0; j < r.samples.size(); ++j) {
      std::printf("%s%.6f", j ? "," : "", r.samples[j]);
    }
    std::printf("],\"checksum\":%.9g}", std::isfinite(r.checksum) ? r.checksum : 0.0);
  }
  std::printf("}}\n");
  return 0;
}
