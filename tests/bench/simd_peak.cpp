// One core's 4-lane float peak without fused multiply-add, measured (npm run bench): the rate at
// which this CPU retires independent 4-lane multiplies and 4-lane adds, the two instructions
// WebAssembly SIMD's products compile to (it has no FMA). SSE, the x86-64 baseline, is built
// with no -march flags, so nothing is fused or widened. Train_bench reports the trainer's FLOP
// rate against it: the nominal clock of /proc/cpuinfo says nothing of a virtual machine's turbo
// clock or of how many multiply and add pipes a core has (a Zen 4 core has two of each).
// Prints the peak in FLOP/s on one line.
#include <immintrin.h>

#include <chrono>
#include <cstdio>

namespace {
// Six chains of each kind, named rather than in an array so they stay in registers: latency ×
// pipes (3 cycles × 2) per kind, and 12 chains + 4 constants fill the 16 xmm registers.
#define POSENC_STEP(m, a)                 \
  m##0 = _mm_mul_ps(m##0, up); a##0 = _mm_add_ps(a##0, plus); \
  m##1 = _mm_mul_ps(m##1, up); a##1 = _mm_add_ps(a##1, plus); \
  m##2 = _mm_mul_ps(m##2, up); a##2 = _mm_add_ps(a##2, plus); \
  m##3 = _mm_mul_ps(m##3, up); a##3 = _mm_add_ps(a##3, plus); \
  m##4 = _mm_mul_ps(m##4, up); a##4 = _mm_add_ps(a##4, plus); \
  m##5 = _mm_mul_ps(m##5, up); a##5 = _mm_add_ps(a##5, plus);
constexpr int kChains = 6;

// Read through a volatile, so the compiler cannot evaluate the chains ahead of time.
volatile float gOne = 1.0f;

double measure(long iterations) {
  const float one = gOne;
  __m128 m0 = _mm_set1_ps(one), m1 = _mm_set1_ps(1.001f), m2 = _mm_set1_ps(1.002f);
  __m128 m3 = _mm_set1_ps(1.003f), m4 = _mm_set1_ps(1.004f), m5 = _mm_set1_ps(1.005f);
  __m128 a0 = _mm_set1_ps(0.0f), a1 = _mm_set1_ps(0.001f), a2 = _mm_set1_ps(0.002f);
  __m128 a3 = _mm_set1_ps(0.003f), a4 = _mm_set1_ps(0.004f), a5 = _mm_set1_ps(0.005f);
  // Steps in pairs that undo each other (×1.0001 then ×1/1.0001, +1e-4 then −1e-4), so no value
  // drifts to a denormal or to infinity however long it runs (either would slow the pipes).
  __m128 up = _mm_set1_ps(1.0001f * one), plus = _mm_set1_ps(1e-4f * one);
  const __m128 upBack = _mm_set1_ps(one / 1.0001f), plusBack = _mm_set1_ps(-1e-4f * one);
  const __m128 upOut = up, plusOut = plus;
  const auto t0 = std::chrono::steady_clock::now();
  for (long i = 0; i < iterations; ++i) {
    up = upOut; plus = plusOut;
    POSENC_STEP(m, a)
    up = upBack; plus = plusBack;
    POSENC_STEP(m, a)
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // Keep every chain's result alive, or the compiler could drop the loop.
  const __m128 sum = _mm_add_ps(_mm_add_ps(_mm_add_ps(m0, m1), _mm_add_ps(m2, m3)), _mm_add_ps(_mm_add_ps(m4, m5),
    _mm_add_ps(_mm_add_ps(a0, a1), _mm_add_ps(_mm_add_ps(a2, a3), _mm_add_ps(a4, a5)))));
  float out[4];
  _mm_storeu_ps(out, sum);
  if (out[0] == 12345.0f) std::puts("");
  return static_cast<double>(iterations) * 2 * kChains * 2 * 4 / seconds;  // 2 steps × chains × (mul + add) × 4 lanes
}
#undef POSENC_STEP
}  // namespace

int main() {
  measure(2'000'000);  // warm-up: let the clock rise
  double best = 0;
  for (int round = 0; round < 5; ++round) {
    const double flops = measure(20'000'000);
    if (flops > best) best = flops;
  }
  std::printf("%.6e\n", best);
}
