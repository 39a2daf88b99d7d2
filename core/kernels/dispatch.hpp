// Picks the SIMD body when the translation unit is compiled with -msimd128, the scalar
// reference otherwise. The choice is made at compile time: the browser cannot even validate a
// module that contains SIMD opcodes without SIMD support, so there are two modules, not a
// run-time branch (see wasm/posenc.js for the probe that picks one).
#pragma once

#include <vector>

#include "matmul.hpp"
#include "matmul_simd.hpp"
#include "softmax.hpp"
#include "softmax_simd.hpp"
#include "trig.hpp"
#include "trig_simd.hpp"

namespace posenc::kernels {

#ifdef __wasm_simd128__
constexpr bool kSimd = true;
inline void sincosRow(double p, const double* f, size_t n, float* s, float* c) noexcept {
  sincosRowSimd(p, f, n, s, c);
}
inline void sinusoidalBlock(const float* s0, const float* c0, const float* rs, const float* rc,
                            size_t rows, size_t d, float* out) noexcept {
  sinusoidalBlockSimd(s0, c0, rs, rc, rows, d, out);
}
inline void ropeRotateRow(const float* s, const float* c, float a, size_t n, bool il,
                          float* x) noexcept {
  ropeRotateRowSimd(s, c, a, n, il, x);
}
inline void angleAddRow(const float* s0, const float* c0, const float* rs, const float* rc, size_t n,
                        float* s, float* c) noexcept {
  angleAddRowSimd(s0, c0, rs, rc, n, s, c);
}
inline void softmaxRow(float* row, size_t n) noexcept { softmaxRowSimd(row, n); }
inline void qk(const float* q, size_t rq, const float* k, size_t rk, size_t d, float scale,
               float* out) {
  std::vector<float> scratch(qkSimdScratch(rk, d));
  qkSimd(q, rq, k, rk, d, scale, out, scratch.data());
}
#else
constexpr bool kSimd = false;
inline void sincosRow(double p, const double* f, size_t n, float* s, float* c) noexcept {
  sincosRowScalar(p, f, n, s, c);
}
inline void sinusoidalBlock(const float* s0, const float* c0, const float* rs, const float* rc,
                            size_t rows, size_t d, float* out) noexcept {
  sinusoidalBlockScalar(s0, c0, rs, rc, rows, d, out);
}
inline void ropeRotateRow(const float* s, const float* c, float a, size_t n, bool il,
                          float* x) noexcept {
  ropeRotateRowScalar(s, c, a, n, il, x);
}
inline void angleAddRow(const float* s0, const float* c0, const float* rs, const float* rc, size_t n,
                        float* s, float* c) noexcept {
  angleAddRowScalar(s0, c0, rs, rc, n, s, c);
}
inline void softmaxRow(float* row, size_t n) noexcept { softmaxRowScalar(row, n); }
inline void qk(const float* q, size_t rq, const float* k, size_t rk, size_t d, float scale,
               float* out) {
  qkScalar(q, rq, k, rk, d, scale, out);
}
#endif

}  // namespace posenc::kernels
