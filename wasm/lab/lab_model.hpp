// What the Lab shows, computed from a State by the core's functions (core/*.hpp) and nothing
// else: the encoding table, the attention weights, the per-dimension wavelengths and the scores
// of one query row. The attention is core/family_attention.hpp's familyAttention, the function
// the attention step calls: the same family registry, seeded token contents and stand-ins, so
// the same family, length and parameters give the same numbers in both. Plain C++ here only
// arranges what the core returns (picks a row, looks a bucket's bias up).
#pragma once

#include <string>
#include <vector>

#include "core/family_attention.hpp"
#include "lab_state.hpp"

namespace posenc::lab {

struct Table {          // a row-major matrix of floats with axis names for the figure
  int rows = 0, cols = 0;
  std::vector<float> v;
  std::string title, rowLabel, colLabel;  // catalog keys (lab_text.hpp), not text
  bool signedValues = true;   // diverging colours around 0, else sequential from the minimum
  float at(int r, int c) const { return v[size_t(r) * cols + c]; }
};

struct Model {
 public:
  // Inputs of the last computation, to skip work that did not change.
  State state;
  bool computed = false;

  Table encoding;          // the family's table: PE rows, rotated unit pairs, ALiBi heads, T5 buckets
  // The attention weights as drawn: the query rows attentionQueries (every attentionStep-th
  // query, at most kAttentionSide of them), each row's weights summed over the keys of
  // attention.cols bins (bin c: keys attentionEdges[c] .. attentionEdges[c + 1] - 1). With
  // len <= kAttentionSide every query and key has its own cell, so the table is the exact matrix.
  // The core (posenc::binnedAttention) computes only these rows, never the len x len square.
  static constexpr int kAttentionSide = 512;
  Table attention;
  int attentionStep = 1;
  std::vector<int> attentionQueries, attentionEdges;
  std::vector<float> probs;    // the exact weights of query qpos against every key
  std::vector<double> scores;  // scores of query qpos against every key before the softmax (-inf where masked)
  // Wavelengths 2*pi / frequency per pair (RoPE) or per sin/cos pair (sinusoidal).
  std::vector<double> wavelengthBase, wavelengthScaled;
  double attentionFactor = 1.0;
  std::vector<double> slopes;   // ALiBi
  std::vector<float> bucketBias;  // T5: familyAttention's stand-in for the learned bias of each bucket
  std::vector<int> bucketOfDistance;  // T5: bucket of key - query = k - (len - 1), k in [0, 2len-1)
  std::string error;       // the core's message when it refused the parameters
  double millis = 0;       // time of the last recomputation


  // Recomputes what depends on fields that changed; returns true when anything was redone.
  bool update(const State& s);

  // A number the Lab displays, by name (the test compares these with the JS API):
  //   "table" (row, col), "attention" (query, key), "score" (key), "bias" (query, key),
  //   "wavelength" (pair), "wavelengthBase" (pair), "attentionFactor", "slope" (head),
  //   "bucket" (query, key), "bucketBias" (bucket), "millis", "attentionCell" (drawn row, bin): a drawn cell's sum of
  //   weights, "attentionQuery" (drawn row), "attentionEdge" (bin): its first key,
  //   "attentionRows", "attentionColumns". NaN when out of range. "attention" is exact for any
  //   query: rows other than qpos are computed by the core on demand (one row, kept until the
  //   next one is asked for).
  double readout(const std::string& name, int a, int b) const;

  // The exact weights of query i against every key (empty when the core refused the state).
  const std::vector<float>& weightsOf(int i) const;
  // The drawn row of query i (the nearest drawn query at or below it), the bin holding key j.
  int drawnRowOf(int i) const;
  int binOf(int j) const;
  // The bias added to the score of key j for query i (the causal mask: -Infinity past i);
  // NaN when the family adds none.
  double biasAt(int i, int j) const;

 private:
  // The seeded token contents familyAttention reads (familyContent's rows), drawn once per
  // (d, seed) for the longest length asked so far: a change of anything else, and every exact row
  // asked on demand, reuses them (a row depends only on (d, seed, position)). The core keeps none.
  struct Contents {
    int d = 0, rows = 0, learnedRows = 0;
    double seed = -1;
    std::vector<float> query, key, learned;
  };
  Contents contents_;
  // The held rows for state s, drawn first where missing (the learned table only when asked).
  FamilyContents contentsFor(const State& s, bool learned);

  bool attends_ = false;  // familyAttention accepted the state
  mutable int cachedQuery_ = -1;
  mutable std::vector<float> cachedProbs_;
  void computeAll(const State& s);
  void computeRow(const State& s);
  // One exact row from the core: the scores (masked) and the weights of query i.
  void exactRow(int i, std::vector<float>& weights, std::vector<float>* scoresOut) const;
};

}  // namespace posenc::lab
