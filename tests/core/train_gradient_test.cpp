// core/train/model.hpp: every parameter's analytic gradient against central finite differences
// of the loss, in the double build of the same code, for every position family.
//
// Tolerance: |analytic - numeric| <= 1e-7 + 1e-5 · max(|analytic|, |numeric|). With h = 1e-5 the
// central difference is off by h² · |f'''| / 6 (~1e-11 here) plus rounding eps · |f| / h
// (~2e-11); a wrong term of the backward pass shows up as an error of the order of the gradient
// itself (1e-4 and up), far above both.
//
// The float model must give the same gradients as the double one up to float rounding (the
// training runs in float): relative 2e-3 of the largest gradient of each tensor.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/families/registry.hpp"
#include "core/train/model.hpp"

namespace train_gradient_test {

using namespace posenc::train;

namespace {

TrainConfig tinyConfig(const std::string& family, Task task) {
  TrainConfig c;
  c.task = task;
  c.family = posenc::families::familyFromName(family);
  c.trainLengths = {1, 2, 3};
  c.testLengths = {1, 2, 3, 4};
  c.symbols = 5;
  c.dModel = 8;
  c.layers = 2;
  c.heads = 2;
  c.mlp = 12;
  c.batch = 3;
  c.t5Buckets = 8;  // four exact buckets, then log-spaced: distances 0..7 reach several buckets
  c.t5MaxDistance = 6;
  c.seed = 7;
  return c;
}

Batch batchOf(const TrainConfig& c) {
  const Vocabulary v = vocabularyOf(c.task, int(c.symbols));
  posenc::SplitMix64 rng{11};
  std::vector<Example> ex;
  for (int n : {3, 1, 2, 4}) ex.push_back(makeExample(c.task, n, v, rng));
  return pack(ex);
}

// Parameters away from their initial symmetries: LayerNorm gains and biases of 1 and 0, and a
// zero gradient everywhere a table starts symmetric, would hide mistakes.
template <class T>
std::vector<T> perturbed(const Layout& l, double seed) {
  std::vector<T> p(l.total);
  initParameters(l, seed, p.data());
  posenc::SplitMix64 rng{99};
  for (T& v : p) v += T(0.3 * (rng.uniform() - 0.5));
  return p;
}

}  // namespace

TEST_CASE("train model: analytic gradients match central differences for every family and tensor") {
  for (int id = 0; id < posenc::families::kFamilyCount; ++id) {
    const std::string family = posenc::families::familyName(id);
    for (Task task : {Task::Copy, Task::Retrieval}) {
      CAPTURE(family);
      CAPTURE(taskName(task));
      const TrainConfig c = tinyConfig(family, task);
      const Model<double> model(shapeOf(c));
      const Layout& l = model.layout();
      const Batch b = batchOf(c);
      std::vector<double> p = perturbed<double>(l, c.seed), g(l.total);
      Activations<double> act;
      model.forward(p.data(), b, act);
      model.backward(p.data(), b, act, g.data());
      const double h = 1e-5;
      for (const TensorInfo& t : l.tensors) {
        CAPTURE(t.name);
        double worst = 0, scale = 0;
        size_t worstAt = 0;
        for (size_t i = t.offset; i < t.offset + t.size(); ++i) {
          const double keep = p[i];
          p[i] = keep + h;
          const double up = model.forward(p.data(), b, act).loss;
          p[i] = keep - h;
          const double down = model.forward(p.data(), b, act).loss;
          p[i] = keep;
          const double numeric = (up - down) / (2 * h);
          const double excess = std::abs(g[i] - numeric) - (1e-7 + 1e-5 * std::max(std::abs(g[i]), std::abs(numeric)));
          if (excess > worst) {
            worst = excess;
            worstAt = i - t.offset;
          }
          scale = std::max(scale, std::abs(numeric));
        }
        CAPTURE(worstAt);
        CHECK(worst == 0.0);
        // A tensor that reaches the loss must have a gradient to check (except rows and buckets
        // this batch never uses, which are zero on both sides).
        if (t.name.rfind("position.", 0) != 0) CHECK(scale > 1e-6);
      }
    }
  }
}

TEST_CASE("train model: the float model's gradients equal the double model's up to float rounding") {
  for (int id = 0; id < posenc::families::kFamilyCount; ++id) {
    const std::string family = posenc::families::familyName(id);
    CAPTURE(family);
    const TrainConfig c = tinyConfig(family, Task::Reverse);
    const Model<double> md(shapeOf(c));
    const Model<float> mf(shapeOf(c));
    const Layout& l = md.layout();
    const Batch b = batchOf(c);
    const std::vector<double> pd = perturbed<double>(l, c.seed);
    const std::vector<float> pf(pd.begin(), pd.end());
    std::vector<double> gd(l.total);
    std::vector<float> gf(l.total);
    Activations<double> ad;
    Activations<float> af;
    const double lossD = md.forward(pd.data(), b, ad).loss;
    const double lossF = mf.forward(pf.data(), b, af).loss;
    CHECK(std::abs(lossD - lossF) <= 1e-5 * lossD);
    md.backward(pd.data(), b, ad, gd.data());
    mf.backward(pf.data(), b, af, gf.data());
    for (const TensorInfo& t : l.tensors) {
      CAPTURE(t.name);
      double top = 0, diff = 0;
      for (size_t i = t.offset; i < t.offset + t.size(); ++i) {
        top = std::max(top, std::abs(gd[i]));
        diff = std::max(diff, std::abs(gd[i] - double(gf[i])));
      }
      CHECK(diff <= 2e-3 * top + 1e-9);
    }
  }
}

}  // namespace train_gradient_test
