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
    for (size_t j = 0; j < rk; ++j) {
      const float* kj = k + j * d;
      float acc = 0.0f;
      for (size_t t = 0; t < d; ++t) acc += qi[t] * kj[t];
      out[i * rk + j] = acc * scale;
    }
  }
}

}  // namespace posenc::kernels
