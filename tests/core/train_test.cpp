// core/train/: the tasks, the optimiser, the schedule, clipping, the table analysis, the
// config checks, and the run's guarantees (same config -> same bits however the steps are
// sliced; a non-finite step stops the run and keeps what it had). The gradients themselves are
// in train_gradient_test.cpp.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/families/registry.hpp"
#include "core/train/analysis.hpp"
#include "core/train/optimizer.hpp"
#include "core/train/trainer.hpp"

namespace train_test {

using namespace posenc::train;
using posenc::RangeError;
using posenc::TypeError;

namespace {

TrainConfig small(const char* family = "rope", Task task = Task::Copy) {
  TrainConfig c;
  c.task = task;
  c.family = posenc::families::familyFromName(family);
  c.trainLengths = {1, 2, 3, 4};
  c.dModel = 16;
  c.heads = 2;
  c.layers = std::string(family) == "rope-nope" ? 2 : 1;  // the hybrid needs a NoPE layer beside a RoPE one
  c.mlp = 32;
  c.batch = 8;
  c.steps = 40;
  c.warmup = 5;
  c.testExamples = 8;
  return c;
}

}  // namespace

TEST_CASE("tasks: each task's sequence is BOS, the input, SEP, then the answer and EOS") {
  posenc::SplitMix64 rng{5};
  const Vocabulary v = vocabularyOf(Task::Copy, 6, 0);
  const Example copy = makeExample(Task::Copy, 4, v, rng);
  REQUIRE(copy.tokens.size() == 11u);
  CHECK(copy.tokens[0] == v.bos());
  CHECK(copy.tokens[5] == v.sep());
  CHECK(copy.answerStart == 6);
  for (int i = 0; i < 4; ++i) CHECK(copy.tokens[size_t(6 + i)] == copy.tokens[size_t(1 + i)]);
  CHECK(copy.tokens.back() == v.eos());
  const Example rev = makeExample(Task::Reverse, 5, v, rng);
  for (int i = 0; i < 5; ++i) CHECK(rev.tokens[size_t(7 + i)] == rev.tokens[size_t(5 - i)]);
  const Example rep = makeExample(Task::Repeat, 3, v, rng);
  for (int i : {1, 2, 3, 5, 6, 7}) CHECK(rep.tokens[size_t(i)] == rep.tokens[1]);
  CHECK(rep.tokens[1] < 6);

  const Vocabulary rv = vocabularyOf(Task::Retrieval, 6, 0);
  CHECK(rv.size() == 6 + 6 * kRetrievalValues + kRetrievalValues + 3);
  for (int trial = 0; trial < 50; ++trial) {
    const int n = 1 + trial % 6;
    const Example e = makeExample(Task::Retrieval, n, rv, rng);
    REQUIRE(int(e.tokens.size()) == n + 5);
    CHECK(int(e.tokens.size()) - 1 == sequenceTokens(Task::Retrieval, rv, n));
    std::vector<int> seen;
    int want = -1;
    const int query = e.tokens[size_t(n + 2)];
    CHECK(query < 6);
    for (int i = 0; i < n; ++i) {
      const int pair = e.tokens[size_t(1 + i)] - 6;  // key * R + value
      REQUIRE(pair >= 0);
      REQUIRE(pair < 6 * kRetrievalValues);
      const int key = pair / kRetrievalValues, value = pair % kRetrievalValues;
      for (int s : seen) CHECK(s != key);  // distinct keys
      seen.push_back(key);
      if (key == query) want = value;
    }
    CHECK(e.tokens[size_t(n + 1)] == rv.sep());
    CHECK(e.answerStart == n + 3);
    CHECK(e.tokens[size_t(e.answerStart)] == rv.value(want));
  }
}

TEST_CASE("tasks: the offset task continues a pattern of period k in which a symbol recurs") {
  posenc::SplitMix64 rng{3};
  for (int k : {2, 3, 5}) {
    const Vocabulary v = vocabularyOf(Task::Offset, 8, k);
    CHECK(v.size() == 8 + 3);
    for (int trial = 0; trial < 40; ++trial) {
      const int n = 1 + trial % 9;
      const Example e = makeExample(Task::Offset, n, v, rng);
      REQUIRE(int(e.tokens.size()) == 1 + k + n);  // no SEP, no EOS
      CHECK(int(e.tokens.size()) - 1 == sequenceTokens(Task::Offset, v, n));
      CHECK(e.tokens[0] == v.bos());
      CHECK(e.answerStart == 1 + k);
      bool recurs = false;
      for (int i = 1; i <= k; ++i) {
        CHECK(e.tokens[size_t(i)] < 8);
        for (int j = 1; j < i; ++j) recurs = recurs || e.tokens[size_t(i)] == e.tokens[size_t(j)];
      }
      CHECK(recurs);
      for (int t = e.answerStart; t < int(e.tokens.size()); ++t) CHECK(e.tokens[size_t(t)] == e.tokens[size_t(t - k)]);
    }
  }
  CHECK(answerTokens(Task::Offset, 7) == 7);
  // The packed batch predicts y1 .. yn: n targets, the first from the last prompt token's row.
  const Vocabulary v = vocabularyOf(Task::Offset, 4, 3);
  const Batch b = pack({makeExample(Task::Offset, 5, v, rng)});
  CHECK(b.rows() == 8);
  CHECK(b.targetRows == std::vector<int>{3, 4, 5, 6, 7});
}

TEST_CASE("tasks: randomised positions are sorted, distinct ids below M, the same for the same stream") {
  const Vocabulary v = vocabularyOf(Task::Copy, 6, 0);
  posenc::SplitMix64 rng{1}, a{77}, b{77};
  std::vector<int> seen(20, 0);
  for (int trial = 0; trial < 200; ++trial) {
    Example e = makeExample(Task::Copy, 1 + trial % 9, v, rng), f = e;
    drawPositions(e, 20, a);
    drawPositions(f, 20, b);
    CHECK(e.positions == f.positions);
    REQUIRE(e.positions.size() == e.tokens.size() - 1);
    for (size_t i = 0; i < e.positions.size(); ++i) {
      CHECK(e.positions[i] >= 0);
      CHECK(e.positions[i] < 20);
      if (i) CHECK(e.positions[i] > e.positions[i - 1]);
      seen[size_t(e.positions[i])] += 1;
    }
    const Batch packed = pack({e});
    CHECK(packed.positions == e.positions);
  }
  // Every id gets drawn: the draw covers [0, M), not the first T ids.
  for (int id = 0; id < 20; ++id) CHECK(seen[size_t(id)] > 0);
  // A sequence of M rows takes every id.
  Example full = makeExample(Task::Copy, 9, v, rng);
  drawPositions(full, 20, a);
  for (int i = 0; i < 20; ++i) CHECK(full.positions[size_t(i)] == i);
}

TEST_CASE("randomised positions: the test set's ids are fixed by task, alphabet, length and M, not by family or seed") {
  TrainConfig c = small("rope");
  c.randomPositions = 40;
  TrainConfig d = small("alibi");
  d.randomPositions = 40;
  d.seed = 5;
  const std::vector<Example> x = testExamples(c, 7, 8), y = testExamples(d, 7, 8);
  for (size_t i = 0; i < x.size(); ++i) {
    CHECK(x[i].tokens == y[i].tokens);
    CHECK(x[i].positions == y[i].positions);
    CHECK(x[i].positions.back() < 40);
  }
  CHECK(x[0].positions != x[1].positions);
  // Training draws differ from step to step and from seed to seed.
  const Vocabulary v = vocabularyOf(c);
  CHECK(trainingExamples(c, v, 0)[0].positions != trainingExamples(c, v, 1)[0].positions);
  CHECK(trainingExamples(c, v, 0)[0].positions != trainingExamples(d, v, 0)[0].positions);
  // Without them, positions are 0, 1, ...: the packed batch says so.
  const Batch plain = pack(testExamples(small("rope"), 3, 1));
  for (int r = 0; r < plain.rows(); ++r) CHECK(plain.positions[size_t(r)] == r);
}

TEST_CASE("tasks: a packed batch reads every token but the last and targets each answer token") {
  posenc::SplitMix64 rng{8};
  const Vocabulary v = vocabularyOf(Task::Copy, 4, 0);
  const std::vector<Example> ex = {makeExample(Task::Copy, 2, v, rng), makeExample(Task::Copy, 3, v, rng)};
  const Batch b = pack(ex);
  CHECK(b.rows() == 6 + 8);
  CHECK(b.starts == std::vector<int>{0, 6, 14});
  CHECK(b.positions[6] == 0);
  CHECK(b.positions[13] == 7);
  CHECK(b.targetStarts == std::vector<int>{0, 3, 7});
  CHECK(b.longest() == 8);
  for (size_t t = 0; t < b.targetRows.size(); ++t) {
    const int row = b.targetRows[t];
    const int s = row >= 6 ? 1 : 0;
    CHECK(b.targetTokens[t] == ex[size_t(s)].tokens[size_t(row - b.starts[size_t(s)] + 1)]);
  }
  CHECK(answerTokens(Task::Copy, 3) == 4);
  CHECK(answerTokens(Task::Retrieval, 9) == 2);
}

TEST_CASE("schedule: linear warm-up to the peak, then cosine down to a tenth of it") {
  TrainConfig c;
  c.steps = 110;
  c.warmup = 10;
  c.learningRate = 0.01;
  CHECK(learningRateAt(c, 0) == doctest::Approx(0.001));
  CHECK(learningRateAt(c, 9) == doctest::Approx(0.01));
  CHECK(learningRateAt(c, 10) == doctest::Approx(0.01));
  CHECK(learningRateAt(c, 60) == doctest::Approx(0.001 + 0.5 * 0.009));
  CHECK(learningRateAt(c, 109) == doctest::Approx(0.001 + 0.5 * 0.009 * (1 + std::cos(M_PI * 99 / 100))));
  c.warmup = 500;  // longer than the run: it warms up throughout
  CHECK(learningRateAt(c, 54) == doctest::Approx(0.01 * 55 / 110));
}

TEST_CASE("clipping scales by max/(norm + 1e-6) only above the limit and reports the norm before") {
  std::vector<double> g = {3, 4};
  CHECK(clipGradients(g.data(), g.size(), 10.0) == doctest::Approx(5));
  CHECK(g[0] == 3);
  CHECK(clipGradients(g.data(), g.size(), 1.0) == doctest::Approx(5));
  CHECK(g[0] == doctest::Approx(3 / (5 + 1e-6)));
  CHECK(g[1] == doctest::Approx(4 / (5 + 1e-6)));
  std::vector<double> h = {3, 4};
  clipGradients(h.data(), h.size(), 0.0);  // 0: no clipping
  CHECK(h[1] == 4);
}

TEST_CASE("AdamW: two steps equal the bias-corrected paper form with decoupled decay on matrices only") {
  Layout l;
  l.tensors = {{"w", 2, 2, 0, 0.02, 0, true}, {"g", 1, 2, 4, 0, 1, false}};
  l.total = 6;
  std::vector<double> p = {0.5, -1, 2, 0.25, 1, 1}, grad1 = {0.1, -0.2, 0.3, 0, 1e-3, -2}, grad2 = {-0.1, 0.4, 0, 5, 1, 1};
  AdamW<double> opt(6);
  const double lr = 0.01, wd = 0.1;
  std::vector<double> want(p), m(6, 0), v(6, 0);
  int t = 0;
  for (const auto* g : {&grad1, &grad2}) {
    opt.step(l, p.data(), g->data(), lr, wd);
    ++t;
    for (size_t i = 0; i < 6; ++i) {
      if (i < 4) want[i] -= lr * wd * want[i];
      m[i] = 0.9 * m[i] + 0.1 * (*g)[i];
      v[i] = 0.999 * v[i] + 0.001 * (*g)[i] * (*g)[i];
      const double mh = m[i] / (1 - std::pow(0.9, t)), vh = v[i] / (1 - std::pow(0.999, t));
      want[i] -= lr * mh / (std::sqrt(vh) + 1e-8);
    }
    for (size_t i = 0; i < 6; ++i) CHECK(p[i] == doctest::Approx(want[i]).epsilon(1e-12));
  }
}

TEST_CASE("a run gives the same bits for the same config, however its steps are sliced") {
  for (int id = 0; id < posenc::families::kFamilyCount; ++id) {
    const std::string family = posenc::families::familyName(id);
    CAPTURE(family);
    Trainer a(small(family.c_str())), b(small(family.c_str()));
    CHECK(a.run(40) == 40);
    b.run(7);
    b.run(1);
    b.run(100);
    CHECK(b.stepsDone() == 40);
    CHECK(a.finished());
    CHECK(a.run(5) == 0);
    CHECK(a.parameters() == b.parameters());
    for (size_t s = 0; s < 40; ++s) CHECK(a.log()[s].loss == b.log()[s].loss);
    const std::vector<LengthScore> ea = a.evaluate(), eb = b.evaluate();
    REQUIRE(ea.size() == 16u);  // default test lengths: 1 .. 4 x 4
    for (size_t k = 0; k < ea.size(); ++k) CHECK(ea[k].loss == eb[k].loss);
    // Another seed is another run.
    TrainConfig other = small(family.c_str());
    other.seed = 1;
    Trainer c(other);
    c.run(2);
    CHECK(c.log()[0].loss != a.log()[0].loss);
  }
}

TEST_CASE("a run with randomised positions and scalable softmax gives the same bits however its steps are sliced") {
  for (const char* family : {"learned", "t5", "fire", "rope-nope"}) {
    CAPTURE(family);
    TrainConfig c = small(family, Task::Offset);
    c.randomPositions = 48;
    c.scalableSoftmax = true;
    c.steps = 12;
    Trainer a(c), b(c);
    a.run(12);
    b.run(5);
    b.run(100);
    CHECK(a.parameters() == b.parameters());
    const std::vector<LengthScore> ea = a.evaluate(), eb = b.evaluate();
    for (size_t k = 0; k < ea.size(); ++k) CHECK(ea[k].loss == eb[k].loss);
    // The switches change the run: without them the first loss differs.
    TrainConfig plainConfig = small(family, Task::Offset);
    plainConfig.steps = 12;
    Trainer plain(plainConfig);
    plain.run(1);
    CHECK(plain.log()[0].loss != a.log()[0].loss);
  }
}

TEST_CASE("the hybrid turns queries and keys in its RoPE layers only; FIRE and the temperature add their tensors") {
  // One layer with nopeEvery 2 is refused (no NoPE layer); two layers: layer 1 RoPE, layer 2 NoPE.
  TrainConfig c = small("rope-nope");
  c.layers = 2;
  const ModelShape s = shapeOf(c);
  CHECK(posenc::families::RopeNope::rotatesLayer(s.familyShape, 0));
  CHECK_FALSE(posenc::families::RopeNope::rotatesLayer(s.familyShape, 1));
  c.layers = 4;
  c.nopeEvery = 4;
  const ModelShape four = shapeOf(c);
  for (int l = 0; l < 4; ++l) CHECK(posenc::families::RopeNope::rotatesLayer(four.familyShape, l) == (l != 3));
  // FIRE: one MLP, c and threshold per layer; c starts at 0.1 and the threshold's multiplier at 1.
  TrainConfig f = small("fire");
  f.layers = 2;
  f.scalableSoftmax = true;
  Trainer t(f);
  int fire = 0, temperature = 0;
  for (const TensorInfo& x : t.layout().tensors) {
    if (x.name.rfind("position.fire.", 0) == 0) ++fire;
    if (x.name.find("attn.temperature") != std::string::npos) {
      ++temperature;
      CHECK(x.cols == 2);
      // 1 / ln(the rows of the longest training sequence): copy of length 4 reads 10.
      CHECK(t.parameters()[x.offset] == doctest::Approx(1 / std::log(10.0)));
    }
    if (x.name == "position.fire.1.c") CHECK(t.parameters()[x.offset] == doctest::Approx(0.1));
    if (x.name == "position.fire.1.threshold") CHECK(t.parameters()[x.offset] == 1.0f);
    if (x.name == "position.fire.0.out.weight") CHECK(x.decay);
    if (x.name == "position.fire.0.in.weight") CHECK_FALSE(x.decay);
  }
  CHECK(fire == 10);
  CHECK(temperature == 2);
}

TEST_CASE("families that share a tensor start it from the same draws for the same seed") {
  Trainer rope(small("rope")), learned(small("learned"));
  const Layout& a = rope.layout();
  const Layout& b = learned.layout();
  REQUIRE(a.family == b.family);  // the shared tensors come first, in the same order
  for (size_t i = 0; i < a.family; ++i) REQUIRE(rope.parameters()[i] == learned.parameters()[i]);
  CHECK(b.familySize == size_t(sequenceTokens(learned.config(), 16)) * 16);
  CHECK(a.familySize == 0);
}

TEST_CASE("a step whose loss is not finite is not applied: the run stops as diverged and keeps its parameters") {
  Trainer t(small("alibi"));
  t.run(3);
  // Finite but huge weights overflow float32 in the first product.
  std::vector<float> huge(t.parameters().size(), 3e38f);
  t.setParameters(huge.data(), huge.size());
  CHECK(t.run(10) == 0);
  CHECK(t.diverged());
  CHECK(t.finished());
  CHECK(t.stepsDone() == 3);
  CHECK(t.divergence().find("step 4: the ") == 0);
  CHECK(t.divergence().find("kept the parameters of step 3") != std::string::npos);
  CHECK(t.parameters() == huge);
  CHECK(t.run(1) == 0);
  const std::string lengthMessage = "parameters must have length " + std::to_string(huge.size()) + ", got 3";
  CHECK_THROWS_WITH_AS(t.setParameters(huge.data(), 3), lengthMessage.c_str(), TypeError);
  huge[5] = NAN;
  CHECK_THROWS_WITH_AS(t.setParameters(huge.data(), huge.size()), "parameters[5] must be a finite number, got NaN", RangeError);
}

TEST_CASE("inspect returns the test example's tokens, the model's choices and every head's causal attention rows") {
  Trainer t(small("t5", Task::Reverse));
  t.run(5);
  const Inspection in = t.inspect(3, 2);
  const Example e = testExamples(t.config(), 3, 3).back();
  CHECK(in.tokens == e.tokens);
  CHECK(in.rows == 8);
  CHECK(in.predicted.size() == 4u);
  REQUIRE(in.attention.size() == size_t(1 * 2 * 8 * 8));
  for (int h = 0; h < 2; ++h) {
    for (int i = 0; i < 8; ++i) {
      double sum = 0;
      for (int j = 0; j < 8; ++j) {
        const float p = in.attention[size_t((h * 8 + i) * 8 + j)];
        if (j > i) CHECK(p == 0.0f);
        sum += p;
      }
      CHECK(sum == doctest::Approx(1).epsilon(1e-5));
    }
  }
  CHECK_THROWS_WITH_AS(t.inspect(17, 0), "length must be at most the longest train or test length of the run, got 17", RangeError);
  CHECK_THROWS_WITH_AS(t.inspect(2, 8), "index must be an integer in [0, 7], got 8", RangeError);
}

TEST_CASE("config checks name the field and its range") {
  auto bad = [](auto change) {
    TrainConfig c;
    change(c);
    checkTrainConfig(c);
  };
  CHECK_THROWS_WITH_AS(bad([](TrainConfig& c) { c.layers = 0; }), "layers must be an integer in [1, 8], got 0", RangeError);
  CHECK_THROWS_WITH_AS(bad([](TrainConfig& c) { c.heads = 3; }), "dModel must be divisible by heads, got dModel 32 and heads 3", RangeError);
  CHECK_THROWS_WITH_AS(bad([](TrainConfig& c) { c.dModel = 36; c.heads = 4; }),
                       "dModel / heads must be even (RoPE turns pairs of a head's dimensions), got 9", RangeError);
  CHECK_THROWS_WITH_AS(bad([](TrainConfig& c) { c.learningRate = NAN; }), "learningRate must be a finite number in (0, 1], got NaN", RangeError);
  CHECK_THROWS_WITH_AS(bad([](TrainConfig& c) { c.trainLengths = {}; }), "trainLengths must hold at least one length", RangeError);
  CHECK_THROWS_WITH_AS(bad([](TrainConfig& c) { c.testLengths = {4, 0.5}; }), "testLengths[1] must be an integer in [1, 256], got 0.5", RangeError);
  CHECK_THROWS_WITH_AS(bad([](TrainConfig& c) { c.warmup = -1; }), "warmup must be an integer in [0, 100000], got -1", RangeError);
  CHECK_THROWS_WITH_AS(bad([](TrainConfig& c) { c.task = Task::Retrieval; }),
                       "retrieval draws distinct keys: every train and test length must be at most symbols (8), got 32", RangeError);
  CHECK_THROWS_WITH_AS(bad([](TrainConfig& c) { c.batch = 512; c.trainLengths = {256}; }),
                       doctest::Contains("MiB of activations"), RangeError);
  CHECK_THROWS_WITH_AS(taskFromName("sort"), "task must be one of 'copy', 'reverse', 'repeat', 'retrieval', 'offset', got 'sort'", TypeError);
  CHECK_THROWS_WITH_AS(bad([](TrainConfig& c) { c.offset = 1; }), "offset must be an integer in [2, 16], got 1", RangeError);
  // Randomised positions need an id for every position of the longest test sequence: repeat of
  // length 32 reads 66 tokens.
  CHECK_THROWS_WITH_AS(bad([](TrainConfig& c) { c.randomPositions = 65; }),
                       "randomPositions must be 0 (off) or an integer in [66, 4096] (at least the 66 positions of the "
                       "longest test sequence), got 65", RangeError);
  CHECK_THROWS_WITH_AS(bad([](TrainConfig& c) { c.randomPositions = -1; }), doctest::Contains("randomPositions must be 0 (off)"), RangeError);
  CHECK_THROWS_WITH_AS(bad([](TrainConfig& c) { c.randomPositions = 70.5; }), doctest::Contains("got 70.5"), RangeError);
  CHECK_NOTHROW(bad([](TrainConfig& c) { c.randomPositions = 66; }));
  // A hybrid must keep a RoPE layer (nopeEvery >= 2: layer 1 rotates) and have a NoPE one.
  CHECK_THROWS_WITH_AS(bad([](TrainConfig& c) { c.nopeEvery = 1; }), "nopeEvery must be an integer in [2, 8], got 1", RangeError);
  CHECK_THROWS_WITH_AS(bad([](TrainConfig& c) {
                         c.family = posenc::families::familyFromName("rope-nope");
                         c.layers = 1;
                       }),
                       "the 'rope-nope' hybrid needs a layer without RoPE: nopeEvery must be at most layers (1), got 2",
                       RangeError);
  CHECK_NOTHROW(bad([](TrainConfig& c) { c.layers = 1; }));  // other families ignore nopeEvery
  CHECK_THROWS_WITH_AS(trainPreset("huge"), "preset must be 'tiny' or 'small', got 'huge'", TypeError);
  CHECK_NOTHROW(checkTrainConfig(trainPreset("small")));
  CHECK(testLengthsOf(TrainConfig()).size() == 32u);
}

TEST_CASE("table analysis: rows on a circle give cosines of angle differences and two components that hold it all") {
  const int rows = 12, cols = 5;
  std::vector<float> t(size_t(rows) * cols, 0.0f);
  for (int i = 0; i < rows; ++i) {
    const double a = 2 * M_PI * i / rows;
    t[size_t(i) * cols + 1] = float(3 * std::cos(a));
    t[size_t(i) * cols + 3] = float(3 * std::sin(a));
  }
  const TableAnalysis r = analyseTable(t.data(), rows, cols);
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < rows; ++j) {
      CHECK(r.similarity[size_t(i) * rows + size_t(j)] == doctest::Approx(std::cos(2 * M_PI * (i - j) / rows)).epsilon(1e-6));
    }
    const double x = r.components[size_t(i) * 2], y = r.components[size_t(i) * 2 + 1];
    CHECK(x * x + y * y == doctest::Approx(9).epsilon(1e-5));
  }
  CHECK(r.explained[0] + r.explained[1] == doctest::Approx(1).epsilon(1e-9));
  CHECK_THROWS_WITH_AS(analyseTable(t.data(), 1, cols), "rows must be an integer in [2, 4096], got 1", RangeError);
}

}  // namespace train_test
