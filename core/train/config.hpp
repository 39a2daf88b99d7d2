// One training run's configuration: the task, the lengths, the model, the optimiser, the family
// and the seed. Every field is named as in the JS API (wasm/posenc.d.ts, TrainConfig) and checked
// by checkTrainConfig before anything is allocated.
//
// Index
//   [FIELDS]   the config and its defaults (the "tiny" preset)
//   [LIMITS]   the ranges checkTrainConfig enforces
//   [PRESETS]  model sizes the page offers
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace posenc::train {

enum class Task { Copy, Reverse, Repeat, Retrieval, Offset };
constexpr Task kTasks[] = {Task::Copy, Task::Reverse, Task::Repeat, Task::Retrieval, Task::Offset};

// 'copy', 'reverse', 'repeat', 'retrieval', 'offset'; TypeError naming `field` otherwise.
Task taskFromName(const std::string& name, const char* field = "task");
const char* taskName(Task task);

// [FIELDS] ------------------------------------------------------------------------------------
// Counts are doubles, as they arrive from JavaScript: the check rejects a non-integer by name
// before anything converts them.
struct TrainConfig {
  Task task = Task::Repeat;
  int family = 0;                        // registry id (core/families/registry.hpp)
  std::vector<double> trainLengths = {1, 2, 3, 4, 5, 6, 7, 8};  // task lengths drawn uniformly
  std::vector<double> testLengths;       // empty: 1 .. 4 x the longest training length
  double symbols = 8;                    // alphabet of the task's content tokens
  double dModel = 32;
  double layers = 2;
  double heads = 2;
  double mlp = 128;                      // hidden width of the MLP
  double steps = 2000;
  double batch = 32;                     // sequences per step
  double learningRate = 3e-3;            // peak, after warm-up
  double warmup = 100;                   // steps of linear warm-up (at most `steps` of them)
  double weightDecay = 0.1;              // AdamW, decoupled; on matrices and tables only
  double clip = 1.0;                     // max global gradient norm; 0: no clipping
  double seed = 0;
  double testExamples = 64;              // sequences per test length
  double base = 10000;                   // sinusoidal and RoPE
  double t5Buckets = 32;                 // T5
  double t5MaxDistance = 128;            // T5
  double offset = 3;                     // the offset task's k: each answer token is the token k back
  double nopeEvery = 2;                  // 'rope-nope': layer l (from 1) has no RoPE when nopeEvery divides l
  // Randomised positions (Ruoss et al. 2023): 0 off; otherwise M, and every sequence's position
  // ids are a sorted draw without replacement from [0, M), in training and in testing.
  double randomPositions = 0;
  // Scalable-Softmax (Nakanishi 2025): every attention row's scores times s_h · ln(keys), s_h
  // learned per layer and head (model.hpp).
  bool scalableSoftmax = false;
};

// [LIMITS] ------------------------------------------------------------------------------------
constexpr int kMaxTaskLength = 256;
constexpr int kMaxLengthCount = 256;
constexpr int kMaxSymbols = 64;
constexpr int kMaxDModel = 512;
constexpr int kMaxLayers = 8;
constexpr int kMaxHeads = 16;
constexpr int kMaxMlp = 2048;
constexpr int kMaxSteps = 100000;
constexpr int kMaxBatch = 512;
constexpr int kMaxTestExamples = 10000;
constexpr double kMaxSeed = 4294967295.0;
constexpr int kMaxOffset = 16;
constexpr int kMaxRandomPositions = 4096;
// The memory a run may take for its activations (training batch, or one test sequence): far
// below the module's 1 GiB, so a run that would not fit is a RangeError, not an abort.
constexpr double kMaxActivationBytes = 256.0 * 1024 * 1024;

// The longest training length, and the test lengths in effect (the default when empty).
int maxTrainLength(const TrainConfig& c);
std::vector<int> testLengthsOf(const TrainConfig& c);
// Positions the longest train or test sequence reads (tasks.hpp's sequenceTokens of the longest
// length): the least M randomPositions may be.
int longestSequence(const TrainConfig& c);
// Rows of every position table: M with randomised positions, the longest sequence otherwise.
int positionCount(const TrainConfig& c);

// Bytes of activations for a batch of `sequences` sequences of `tokens` tokens each (what the
// backward pass keeps); the check compares it with kMaxActivationBytes.
double activationBytes(const TrainConfig& c, double sequences, double tokens);

// Checks every field and the memory the run needs; RangeError/TypeError names the field.
void checkTrainConfig(const TrainConfig& c);

// [PRESETS] -----------------------------------------------------------------------------------
// 'tiny' (the defaults above) and 'small' (twice as wide, three layers). TypeError otherwise.
TrainConfig trainPreset(const std::string& name);

}  // namespace posenc::train
