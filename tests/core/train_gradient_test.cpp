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

// Four examples (lengths 3, 1, 2, 4), at positions drawn from [0, M) when the config randomises
// them.
Batch batchOf(const TrainConfig& c) {
  const Vocabulary v = vocabularyOf(c);
  posenc::SplitMix64 rng{11}, positions{12};
  std::vector<Example> ex;
  for (int n : {3, 1, 2, 4}) {
    ex.push_back(makeExample(c.task, n, v, rng));
    if (c.randomPositions > 0) drawPositions(ex.back(), int(c.randomPositions), positions);
  }
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

// Every parameter's analytic gradient against the central difference of the loss, in double.
void checkGradients(const TrainConfig& c) {
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

}  // namespace

TEST_CASE("train model: analytic gradients match central differences for every family and tensor") {
  for (int id = 0; id < posenc::families::kFamilyCount; ++id) {
    const std::string family = posenc::families::familyName(id);
    for (Task task : {Task::Copy, Task::Retrieval, Task::Offset}) {
      CAPTURE(family);
      CAPTURE(taskName(task));
      checkGradients(tinyConfig(family, task));
    }
  }
}

// The fixes: randomised positions for every family (the tables read at the drawn ids, RoPE turned
// by them, ALiBi, T5 and FIRE at the drawn distances); scalable softmax, whose factor multiplies
// the scores and a bias (ALiBi, T5, FIRE) alike; both at once; and FIRE's threshold on both sides
// of the query positions (L0 = 2 here: positions 0..2 are divided by ψ(L), the rest by ψ(i)).
TEST_CASE("train model: analytic gradients match central differences with randomised positions and scalable softmax") {
  for (int id = 0; id < posenc::families::kFamilyCount; ++id) {
    const std::string family = posenc::families::familyName(id);
    CAPTURE(family);
    TrainConfig random = tinyConfig(family, Task::Copy);
    random.randomPositions = 40;
    checkGradients(random);
    TrainConfig ssmax = tinyConfig(family, Task::Offset);
    ssmax.scalableSoftmax = true;
    checkGradients(ssmax);
    TrainConfig both = tinyConfig(family, Task::Retrieval);
    both.scalableSoftmax = true;
    both.randomPositions = 24;
    checkGradients(both);
  }
}

// FIRE's c and threshold gather a term from every query and key; in the last layer only answer
// rows reach the loss, and in the tiny model the threshold L0 = 2 lies below them. One layer
// trained on length 12 puts L0 at 26 / 4 = 6.5: the batch's answer rows (positions 4 .. 9) lie on
// both sides of L. Their gradients are small (~1e-5: the bias moves the loss a little), so they
// are held here to a tighter tolerance than the general check's absolute 1e-7: 1e-10 + 1e-6
// relative (the central difference's own error is ~1e-11 here).
TEST_CASE("train model: FIRE's c and threshold gradients, on both sides of the threshold") {
  TrainConfig c = tinyConfig("fire", Task::Copy);
  c.layers = 1;
  c.trainLengths = {12};
  checkGradients(c);
  const Model<double> model(shapeOf(c));
  const Layout& l = model.layout();
  const Batch b = batchOf(c);
  int below = 0, above = 0;
  for (int t : b.targetRows) (b.positions[size_t(t)] < 6.5 ? below : above) += 1;
  CHECK(below > 0);
  CHECK(above > 0);
  std::vector<double> p = perturbed<double>(l, c.seed), g(l.total);
  Activations<double> act;
  model.forward(p.data(), b, act);
  model.backward(p.data(), b, act, g.data());
  for (const TensorInfo& t : l.tensors) {
    if (t.name != "position.fire.0.c" && t.name != "position.fire.0.threshold") continue;
    CAPTURE(t.name);
    const double keep = p[t.offset], h = 1e-5;
    p[t.offset] = keep + h;
    const double up = model.forward(p.data(), b, act).loss;
    p[t.offset] = keep - h;
    const double down = model.forward(p.data(), b, act).loss;
    p[t.offset] = keep;
    const double numeric = (up - down) / (2 * h);
    CHECK(std::abs(numeric) > 1e-6);
    CHECK(std::abs(g[t.offset] - numeric) <= 1e-10 + 1e-6 * std::abs(numeric));
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
