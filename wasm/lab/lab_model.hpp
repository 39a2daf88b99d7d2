// What the Lab shows, computed from a State by the core's functions (core/*.hpp) and nothing
// else: the encoding table, the attention weights, the per-dimension wavelengths and the raw
// scores of one query row. Plain C++ here only arranges what the core returns (adds the token
// vector to a position vector, picks a row, looks a bucket's bias up).
#pragma once

#include <string>
#include <vector>

#include "lab_state.hpp"

namespace posenc::lab {

struct Table {          // a row-major matrix of floats with axis names for the figure
  int rows = 0, cols = 0;
  std::vector<float> v;
  std::string title, rowLabel, colLabel;
  bool signedValues = true;   // diverging colours around 0, else sequential from the minimum
  float at(int r, int c) const { return v[size_t(r) * cols + c]; }
};

struct Model {
 public:
  // Inputs of the last computation, to skip work that did not change.
  State state;
  bool computed = false;

  Table encoding;          // the family's table: PE rows, rotated unit pairs, ALiBi heads, T5 buckets
  Table attention;         // len x len softmax weights
  std::vector<float> bias;  // len x len additive bias (ALiBi, T5), empty otherwise
  std::vector<double> scores;  // raw scores of query qpos against every key (no mask, no softmax)
  // Wavelengths 2*pi / frequency per pair (RoPE) or per sin/cos pair (sinusoidal).
  std::vector<double> wavelengthBase, wavelengthScaled;
  double attentionFactor = 1.0;
  std::vector<double> slopes;   // ALiBi
  std::vector<float> bucketBias;  // T5: the seeded stand-in for the learned bias of each bucket
  std::vector<int> bucketOfDistance;  // T5: bucket of key - query = k - (len - 1), k in [0, 2len-1)
  std::string error;       // the core's message when it refused the parameters
  double millis = 0;       // time of the last recomputation


  // Recomputes what depends on fields that changed; returns true when anything was redone.
  bool update(const State& s);

  // A number the Lab displays, by name (the test compares these with the JS API):
  //   "table" (row, col), "attention" (query, key), "score" (key), "bias" (query, key),
  //   "wavelength" (pair), "wavelengthBase" (pair), "attentionFactor", "slope" (head),
  //   "bucket" (query, key), "millis". NaN when out of range.
  double readout(const std::string& name, int a, int b) const;

 private:
  std::vector<float> q_, k_;  // the queries and keys behind the attention (no projections)
  void computeAll(const State& s);
  void computeScores(const State& s);
};

}  // namespace posenc::lab
