// One training run: the model, its parameters and optimiser, the steps taken so far, and what
// the run reports (loss per step, accuracy by test length, attention maps of one example).
// A run advances in slices (run(count)), so a caller can report progress, pause or stop
// between them; stopping early keeps everything done so far.
//
// Each step draws a fresh batch (tasks.hpp's trainStream(seed, step), and trainPositionStream for
// randomised positions), computes the loss and
// gradients, and — unless the loss or the gradient norm is not finite — clips and applies
// AdamW. A non-finite step is not applied: the run stops as diverged and keeps the parameters
// of the last good step. Same config, same bits: nothing depends on time or on how the steps
// were sliced.
#pragma once

#include <string>
#include <vector>

#include "core/train/config.hpp"
#include "core/train/model.hpp"
#include "core/train/optimizer.hpp"

namespace posenc::train {

struct StepLog {
  float loss = 0;          // mean cross-entropy of the step's batch, before its update
  float exact = 0;         // share of the batch's sequences the model got exactly right
  float gradNorm = 0;      // before clipping
  float learningRate = 0;
};

struct LengthScore {
  int length = 0;
  int examples = 0;
  double exact = 0;    // share of examples whose whole answer is right
  double tokens = 0;   // share of answer tokens that are right
  double loss = 0;     // mean cross-entropy over answer tokens
};

// One test example run through the model, kept for the figures.
struct Inspection {
  int length = 0;
  std::vector<int> tokens;       // the whole sequence, EOS included
  int answerStart = 0;
  std::vector<int> positions;    // each row's position id (0, 1, ... unless randomised)
  std::vector<int> predicted;    // the model's top choice after each answer position
  std::vector<float> attention;  // layers x heads x rows x rows (rows = tokens.size() - 1)
  int rows = 0;
};

class Trainer {
 public:
  explicit Trainer(const TrainConfig& config);  // checks the config first

  const TrainConfig& config() const { return config_; }
  const Layout& layout() const { return model_.layout(); }
  const ModelShape& shape() const { return model_.shape(); }

  // Takes up to `count` more steps; returns how many were taken (0 once finished or diverged).
  int run(int count);
  int stepsDone() const { return int(log_.size()); }
  bool finished() const { return diverged_ || stepsDone() >= int(config_.steps); }
  bool diverged() const { return diverged_; }
  const std::string& divergence() const { return divergence_; }
  const std::vector<StepLog>& log() const { return log_; }

  // Accuracy on the fixed test set of every test length (or one), with the current parameters.
  std::vector<LengthScore> evaluate() const;
  LengthScore evaluateLength(int length) const;

  // Test example `index` of a length (the same sequences evaluate() scores).
  Inspection inspect(int length, int index) const;

  const std::vector<float>& parameters() const { return params_; }
  // Replaces the parameters (e.g. a saved run's), keeping the step count and the log. TypeError
  // when the count differs from layout().total, RangeError when a value is not finite.
  void setParameters(const float* values, size_t count);

 private:
  std::vector<Example> testSet(int length) const;

  TrainConfig config_;
  Vocabulary vocab_;
  Model<float> model_;
  std::vector<float> params_, grads_;
  AdamW<float> opt_;
  std::vector<StepLog> log_;
  bool diverged_ = false;
  std::string divergence_;
  Activations<float> act_;  // reused from step to step
};

// Examples of one test length, as evaluate() scores them (also for display), positions drawn
// when the config randomises them.
std::vector<Example> testExamples(const TrainConfig& config, int length, int count);
// The examples of training step `step`, as run() draws them.
std::vector<Example> trainingExamples(const TrainConfig& config, const Vocabulary& v, int step);

}  // namespace posenc::train
