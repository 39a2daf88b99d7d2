// AdamW as torch.optim.AdamW (betas 0.9, 0.999, eps 1e-8, decoupled weight decay), the
// learning-rate schedule (linear warm-up, then cosine decay to a tenth of the peak, as nanoGPT)
// and clipping by one global norm (torch.nn.utils.clip_grad_norm_).
#pragma once

#include <cstddef>
#include <vector>

#include "core/train/config.hpp"
#include "core/train/model.hpp"

namespace posenc::train {

constexpr double kAdamBeta1 = 0.9;
constexpr double kAdamBeta2 = 0.999;
constexpr double kAdamEps = 1e-8;
constexpr double kMinLearningRateRatio = 0.1;

// The learning rate of update number step + 1 (step counts from 0).
double learningRateAt(const TrainConfig& c, int step);

// The global L2 norm of g (summed in double); when maxNorm > 0 and the norm exceeds it, g is
// scaled by maxNorm / (norm + 1e-6) as clip_grad_norm_ does. Returns the norm before clipping.
template <class T>
double clipGradients(T* g, size_t n, double maxNorm);

template <class T>
struct AdamW {
  std::vector<T> m, v;
  int steps = 0;
  explicit AdamW(size_t n = 0) : m(n, T(0)), v(n, T(0)) {}
  // One update of every tensor of the layout: weight decay (tensors with decay only), then Adam.
  void step(const Layout& layout, T* params, const T* grads, double lr, double weightDecay);
};

}  // namespace posenc::train
