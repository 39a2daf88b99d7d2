#include "core/train/config.hpp"

#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "core/families/registry.hpp"
#include "core/train/tasks.hpp"

namespace posenc::train {

Task taskFromName(const std::string& name, const char* field) {
  std::string names;
  for (Task t : kTasks) {
    if (name == taskName(t)) return t;
    names += std::string(names.empty() ? "'" : ", '") + taskName(t) + "'";
  }
  throw TypeError(std::string(field) + " must be one of " + names + ", got '" + name + "'");
}

const char* taskName(Task task) {
  switch (task) {
    case Task::Copy: return "copy";
    case Task::Reverse: return "reverse";
    case Task::Repeat: return "repeat";
    case Task::Retrieval: return "retrieval";
    case Task::Offset: return "offset";
  }
  return "";
}

int maxTrainLength(const TrainConfig& c) {
  double most = 0;
  for (double n : c.trainLengths) most = std::max(most, n);
  return int(most);
}

std::vector<int> testLengthsOf(const TrainConfig& c) {
  std::vector<int> out;
  if (c.testLengths.empty()) {
    for (int n = 1; n <= 4 * maxTrainLength(c); ++n) out.push_back(n);
  } else {
    for (double n : c.testLengths) out.push_back(int(n));
  }
  return out;
}

int longestSequence(const TrainConfig& c) {
  int longest = maxTrainLength(c);
  for (int n : testLengthsOf(c)) longest = std::max(longest, n);
  return sequenceTokens(c, longest);
}

int positionCount(const TrainConfig& c) { return c.randomPositions > 0 ? int(c.randomPositions) : longestSequence(c); }

double activationBytes(const TrainConfig& c, double sequences, double tokens) {
  // Per layer and row: the residual input, two normalised inputs and their outputs, q/k/v, the
  // heads' outputs, the residual after attention, the MLP's input and output (model.hpp keeps
  // these); per layer, sequence and head: a tokens x tokens probability matrix, and one more
  // for the scores when scalable softmax or FIRE keeps them. Plus the logits of every row and
  // a workspace of the same order.
  const double rows = sequences * tokens;
  const double perRow = c.layers * (10 * c.dModel + 2 * c.mlp) + 4 * c.dModel + 2.0 * vocabularyOf(c).size();
  const bool scores = c.scalableSoftmax || families::keepsScores(c.family);
  const double attention = c.layers * sequences * c.heads * tokens * tokens * (scores ? 3 : 2);
  return 4.0 * (rows * perRow + attention);
}

namespace {

void checkLengths(const char* name, const std::vector<double>& lengths, bool mayBeEmpty) {
  if (lengths.empty() && !mayBeEmpty) throw RangeError(std::string(name) + " must hold at least one length");
  requireInt((std::string(name) + ".length").c_str(), double(lengths.size()), mayBeEmpty ? 0 : 1, kMaxLengthCount);
  for (size_t i = 0; i < lengths.size(); ++i) {
    requireInt((std::string(name) + "[" + std::to_string(i) + "]").c_str(), lengths[i], 1, kMaxTaskLength);
  }
}

}  // namespace

void checkTrainConfig(const TrainConfig& c) {
  requireInt("family", c.family, 0, families::kFamilyCount - 1);
  checkLengths("trainLengths", c.trainLengths, false);
  checkLengths("testLengths", c.testLengths, true);
  requireInt("symbols", c.symbols, 2, kMaxSymbols);
  requireInt("dModel", c.dModel, 2, kMaxDModel);
  requireInt("layers", c.layers, 1, kMaxLayers);
  requireInt("heads", c.heads, 1, kMaxHeads);
  if (std::fmod(c.dModel, c.heads) != 0) {
    throw RangeError("dModel must be divisible by heads, got dModel " + detail::fmt(c.dModel) + " and heads " +
                     detail::fmt(c.heads));
  }
  if (int64_t(c.dModel / c.heads) % 2 != 0) {
    throw RangeError("dModel / heads must be even (RoPE turns pairs of a head's dimensions), got " +
                     detail::fmt(c.dModel / c.heads));
  }
  requireInt("mlp", c.mlp, 1, kMaxMlp);
  requireInt("steps", c.steps, 1, kMaxSteps);
  requireInt("batch", c.batch, 1, kMaxBatch);
  requireRealAbove("learningRate", c.learningRate, 0, 1);
  requireInt("warmup", c.warmup, 0, kMaxSteps);  // a run shorter than its warm-up warms up throughout
  requireReal("weightDecay", c.weightDecay, 0, 1);
  requireReal("clip", c.clip, 0, 1e6);
  requireInt("seed", c.seed, 0, kMaxSeed);
  requireInt("testExamples", c.testExamples, 1, kMaxTestExamples);
  requireRealAbove("base", c.base, 1, 1e12);
  requireInt("t5Buckets", c.t5Buckets, 4, 4096);
  requireEven("t5Buckets", int64_t(c.t5Buckets));
  // A decoder's buckets run one way: half of them exact, the rest log-spaced up to maxDistance.
  requireInt("t5MaxDistance", c.t5MaxDistance, c.t5Buckets / 2 + 1, 1 << 24);
  requireInt("offset", c.offset, 2, kMaxOffset);
  // A hybrid keeps RoPE in at least one layer (layer 1: nopeEvery >= 2) and drops it in at
  // least one (nopeEvery <= layers); otherwise it would be plain RoPE or plain NoPE.
  requireInt("nopeEvery", c.nopeEvery, 2, kMaxLayers);
  if (families::familyName(c.family) == "rope-nope" && c.nopeEvery > c.layers) {
    throw RangeError("the 'rope-nope' hybrid needs a layer without RoPE: nopeEvery must be at most layers (" +
                     detail::fmt(c.layers) + "), got " + detail::fmt(c.nopeEvery));
  }

  const std::vector<int> tests = testLengthsOf(c);
  int longestTest = 0;
  for (int n : tests) longestTest = std::max(longestTest, n);
  if (c.task == Task::Retrieval) {
    // Distinct keys: no length may exceed the number of keys.
    const int longest = std::max(maxTrainLength(c), longestTest);
    if (longest > int(c.symbols)) {
      throw RangeError("retrieval draws distinct keys: every train and test length must be at most symbols (" +
                       detail::fmt(c.symbols) + "), got " + std::to_string(longest));
    }
  }
  if (c.randomPositions != 0) {
    // M must cover the longest sequence: its rows need that many distinct ids.
    const int least = longestSequence(c);
    if (!(c.randomPositions >= least && c.randomPositions <= kMaxRandomPositions && std::floor(c.randomPositions) == c.randomPositions)) {
      throw RangeError("randomPositions must be 0 (off) or an integer in [" + std::to_string(least) + ", " +
                       std::to_string(kMaxRandomPositions) + "] (at least the " + std::to_string(least) +
                       " positions of the longest test sequence), got " + detail::fmt(c.randomPositions));
    }
  }
  const double trainBytes = activationBytes(c, c.batch, sequenceTokens(c, maxTrainLength(c)));
  if (trainBytes > kMaxActivationBytes) {
    throw RangeError("batch x the longest training sequence needs " + detail::fmt(std::ceil(trainBytes / 1048576)) +
                     " MiB of activations, more than the " + detail::fmt(kMaxActivationBytes / 1048576) +
                     " MiB a run may use: lower batch, trainLengths or the model size");
  }
  const double testBytes = activationBytes(c, 1, sequenceTokens(c, longestTest));
  if (testBytes > kMaxActivationBytes) {
    throw RangeError("testLengths: a sequence of length " + std::to_string(longestTest) + " needs " +
                     detail::fmt(std::ceil(testBytes / 1048576)) + " MiB of activations, more than the " +
                     detail::fmt(kMaxActivationBytes / 1048576) + " MiB a run may use");
  }
}

TrainConfig trainPreset(const std::string& name) {
  TrainConfig c;
  if (name == "tiny") return c;
  if (name == "small") {
    c.dModel = 64;
    c.heads = 4;
    c.layers = 3;
    c.mlp = 256;
    return c;
  }
  throw TypeError("preset must be 'tiny' or 'small', got '" + name + "'");
}

}  // namespace posenc::train
