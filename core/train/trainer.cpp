#include "core/train/trainer.hpp"

#include <algorithm>
#include <cmath>

#include "core/errors.hpp"

namespace posenc::train {
namespace {

// Test sequences per forward pass: enough to fill the products, few enough to bound memory.
constexpr int kEvalTokensPerPass = 4096;

TrainConfig checked(const TrainConfig& c) {
  checkTrainConfig(c);
  return c;
}

}  // namespace

std::vector<Example> testExamples(const TrainConfig& config, int length, int count) {
  const Vocabulary v = vocabularyOf(config);
  SplitMix64 rng{testStream(config.task, int(config.symbols), length)};
  const int M = int(config.randomPositions);
  SplitMix64 positions{testPositionStream(config.task, int(config.symbols), length, M)};
  std::vector<Example> out;
  out.reserve(size_t(count));
  for (int i = 0; i < count; ++i) {
    out.push_back(makeExample(config.task, length, v, rng));
    if (M > 0) drawPositions(out.back(), M, positions);
  }
  return out;
}

std::vector<Example> trainingExamples(const TrainConfig& config, const Vocabulary& v, int step) {
  SplitMix64 rng{trainStream(config.seed, step)};
  const int M = int(config.randomPositions);
  SplitMix64 positions{trainPositionStream(config.seed, step)};
  const size_t lengths = config.trainLengths.size();
  std::vector<Example> out;
  out.reserve(size_t(config.batch));
  for (int i = 0; i < int(config.batch); ++i) {
    const int n = int(config.trainLengths[size_t(rng.uniform() * double(lengths))]);
    out.push_back(makeExample(config.task, n, v, rng));
    if (M > 0) drawPositions(out.back(), M, positions);
  }
  return out;
}

Trainer::Trainer(const TrainConfig& config)
    : config_(checked(config)),
      vocab_(vocabularyOf(config)),
      model_(shapeOf(config)),
      params_(model_.layout().total),
      grads_(model_.layout().total),
      opt_(model_.layout().total) {
  initParameters(model_.layout(), config_.seed, params_.data());
  log_.reserve(size_t(config_.steps));
}

int Trainer::run(int count) {
  int taken = 0;
  while (taken < count && !finished()) {
    const int step = stepsDone();
    const Batch batch = pack(trainingExamples(config_, vocab_, step));
    const ForwardResult f = model_.forward(params_.data(), batch, act_);
    model_.backward(params_.data(), batch, act_, grads_.data());
    StepLog entry;
    entry.loss = float(f.loss);
    entry.exact = float(f.exactSequences) / float(batch.sequences());
    const double norm = clipGradients(grads_.data(), grads_.size(), config_.clip);
    entry.gradNorm = float(norm);
    const double lr = learningRateAt(config_, step);
    entry.learningRate = float(lr);
    if (!std::isfinite(f.loss) || !std::isfinite(norm)) {
      diverged_ = true;
      const bool lossBad = !std::isfinite(f.loss);
      divergence_ = "step " + std::to_string(step + 1) + ": the " + (lossBad ? "loss" : "gradient norm") + " is " +
                    detail::fmt(lossBad ? f.loss : norm) + "; the run stopped and kept the parameters of step " +
                    std::to_string(step);
      break;
    }
    opt_.step(model_.layout(), params_.data(), grads_.data(), lr, config_.weightDecay);
    log_.push_back(entry);
    ++taken;
  }
  return taken;
}

LengthScore Trainer::evaluateLength(int length) const {
  requireInt("length", length, 1, kMaxTaskLength);
  if (sequenceTokens(config_, length) > longestSequence(config_)) {
    throw RangeError("length must be at most the longest train or test length of the run, got " +
                     std::to_string(length));
  }
  const std::vector<Example> all = testExamples(config_, length, int(config_.testExamples));
  const int perPass = std::max(1, kEvalTokensPerPass / sequenceTokens(config_, length));
  LengthScore score;
  score.length = length;
  score.examples = int(all.size());
  Activations<float> act;
  int exact = 0, correct = 0, answers = 0;
  double loss = 0;
  for (size_t from = 0; from < all.size(); from += size_t(perPass)) {
    const size_t to = std::min(all.size(), from + size_t(perPass));
    const Batch b = pack(std::vector<Example>(all.begin() + ptrdiff_t(from), all.begin() + ptrdiff_t(to)));
    const ForwardResult f = model_.forward(params_.data(), b, act);
    exact += f.exactSequences;
    correct += f.correctTokens;
    answers += int(b.targetRows.size());
    loss += f.loss * double(b.targetRows.size());
  }
  score.exact = double(exact) / double(all.size());
  score.tokens = double(correct) / double(answers);
  score.loss = loss / double(answers);
  return score;
}

std::vector<LengthScore> Trainer::evaluate() const {
  std::vector<LengthScore> out;
  for (int n : testLengthsOf(config_)) out.push_back(evaluateLength(n));
  return out;
}

Inspection Trainer::inspect(int length, int index) const {
  requireInt("length", length, 1, kMaxTaskLength);
  if (sequenceTokens(config_, length) > longestSequence(config_)) {
    throw RangeError("length must be at most the longest train or test length of the run, got " +
                     std::to_string(length));
  }
  requireInt("index", index, 0, config_.testExamples - 1);
  const Example e = testExamples(config_, length, index + 1).back();
  const Batch b = pack({e});
  Activations<float> act;
  model_.forward(params_.data(), b, act);
  Inspection out;
  out.length = length;
  out.tokens = e.tokens;
  out.answerStart = e.answerStart;
  out.positions = b.positions;
  out.rows = b.rows();
  const size_t V = size_t(model_.shape().vocab);
  for (size_t t = 0; t < b.targetRows.size(); ++t) {
    const float* p = act.softmax.data() + t * V;
    out.predicted.push_back(int(std::max_element(p, p + V) - p));
  }
  for (const auto& layer : act.layers) out.attention.insert(out.attention.end(), layer.probs.begin(), layer.probs.end());
  return out;
}

void Trainer::setParameters(const float* values, size_t count) {
  requireLength("parameters", count, params_.size());
  requireFinite("parameters", values, count);
  std::copy_n(values, count, params_.data());
}

}  // namespace posenc::train
