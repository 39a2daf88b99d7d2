// Learned absolute position table (GPT-2: 1024 rows, BERT: 512), standing in for a trained one.
//
// A real table is a trained parameter; here each row is drawn from N(0, std^2) by a seeded
// generator (GPT-2 initialises with std 0.02), so the same (seed, row) always gives the same
// vector and a row can be produced without storing the table. What matters for the explainer
// is the shape of the idea: the table has maxPositions rows and nothing past the last one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace posenc {

struct LearnedParams {
  int maxPositions = 1024;
  int dModel = 0;
  double seed = 0;        // integer in [0, 2^32)
  double stdDev = 0.02;
};

// Checks the parameters and every position (before anything is allocated).
void checkLearned(const LearnedParams& p, const double* positions, size_t rows);

// Row `positions[r]` of the table for each r, into out (rows * dModel floats). A position at or
// past maxPositions is a RangeError: the table has no such row.
void learned(const LearnedParams& p, const double* positions, size_t rows, float* out);

}  // namespace posenc
