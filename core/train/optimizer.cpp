#include "core/train/optimizer.hpp"

#include <algorithm>
#include <cmath>

namespace posenc::train {

double learningRateAt(const TrainConfig& c, int step) {
  const double peak = c.learningRate;
  const int steps = int(c.steps), warmup = std::min(int(c.warmup), steps);
  if (step < warmup) return peak * double(step + 1) / double(warmup);
  if (steps <= warmup) return peak;
  const double progress = double(step - warmup) / double(steps - warmup);
  const double low = kMinLearningRateRatio * peak;
  return low + 0.5 * (peak - low) * (1.0 + std::cos(M_PI * progress));
}

template <class T>
double clipGradients(T* g, size_t n, double maxNorm) {
  double sum = 0;
  for (size_t i = 0; i < n; ++i) sum += double(g[i]) * double(g[i]);
  const double norm = std::sqrt(sum);
  if (maxNorm > 0 && std::isfinite(norm)) {
    const double coef = maxNorm / (norm + 1e-6);
    if (coef < 1) {
      for (size_t i = 0; i < n; ++i) g[i] = T(double(g[i]) * coef);
    }
  }
  return norm;
}

template <class T>
void AdamW<T>::step(const Layout& layout, T* params, const T* grads, double lr, double weightDecay) {
  ++steps;
  // In torch's order and form: decay, the two moments, then p -= (lr / bc1) · m / (sqrt(v) / sqrt(bc2) + eps).
  const double bc1 = 1.0 - std::pow(kAdamBeta1, steps);
  const double bc2Sqrt = std::sqrt(1.0 - std::pow(kAdamBeta2, steps));
  const T stepSize = T(lr / bc1);
  const T b1 = T(kAdamBeta1), b2 = T(kAdamBeta2);
  for (const TensorInfo& t : layout.tensors) {
    const T keep = T(t.decay ? 1.0 - lr * weightDecay : 1.0);
    for (size_t i = t.offset; i < t.offset + t.size(); ++i) {
      const T g = grads[i];
      params[i] *= keep;
      m[i] += (g - m[i]) * (T(1) - b1);
      v[i] = v[i] * b2 + g * g * (T(1) - b2);
      const T denom = std::sqrt(v[i]) / T(bc2Sqrt) + T(kAdamEps);
      params[i] -= stepSize * m[i] / denom;
    }
  }
}

template double clipGradients<float>(float*, size_t, double);
template double clipGradients<double>(double*, size_t, double);
template struct AdamW<float>;
template struct AdamW<double>;

}  // namespace posenc::train
