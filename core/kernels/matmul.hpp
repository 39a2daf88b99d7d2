// Scalar reference for the attention score kernel: out = scale * Q * K^T.
//   q: rq x d, k: rk x d, out: rq x rk, all row-major float32; the sum runs in float32 over
//   t = 0..d-1 in order, as a plain PyTorch float32 matmul would (up to summation order).
#pragma once

#include <cstddef>

namespace posenc::kernels {

inline void qkScalar(const float* q, size_t rq, const float* k, size_t rk, size_t d, float scale,
                     float* out) noexcept {
  for (size_t i = 0; i < rq; ++i) {
    const float* qi = q + i * d;
    size_t j = 0;
    // Four keys at a time: four independent sums, each still over t = 0..d-1 in order (the
    // same bits as one key at a time), so the CPU overlaps their additions instead of waiting
    // on one chain (docs/benchmarks.md: what it measured).
    for (; j + 4 <= rk; j += 4) {
      const float *k0 = k + j * d, *k1 = k0 + d, *k2 = k1 + d, *k3 = k2 + d;
      float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
      for (size_t t = 0; t < d; ++t) {
        const float x = qi[t];
        a0 += x * k0[t];
        a1 += x * k1[t];
        a2 += x * k2[t];
        a3 += x * k3[t];
      }
      float* o = out + i * rk + j;
      o[0] = a0 * scale;
      o[1] = a1 * scale;
      o[2] = a2 * scale;
      o[3] = a3 * scale;
    }
    for (; j < rk; ++j) {
      const float* kj = k + j * d;
      float acc = 0.0f;
      for (size_t t = 0; t < d; ++t) acc += qi[t] * kj[t];
      out[i * rk + j] = acc * scale;
    }
  }
}

}  // namespace posenc::kernels
