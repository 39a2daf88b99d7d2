// One head of softmax attention for queries and keys the caller built, reduced to what a figure
// draws: chosen query rows, each row's keys summed into a number of column bins, and the exact
// score and probability row of one chosen query. familyAttention (core/family_attention.hpp)
// builds a family's queries and keys and calls it; the Lab and the tests call it directly.
//
//   s_ij = q_i · k_j / sqrt(dim) + bias(j - i)      (bias: by offset, or none)
//   s_ij = -Infinity for j > i when causal,          p_ij = softmax over j of s_ij
//
// Numbers are float32 (the dot products through kernels::qk, the softmax through
// kernels::softmaxRow); a bin's value is the float32 sum of its probabilities. Bins: column c
// covers keys [floor(c·n/columns), floor((c+1)·n/columns)); with columns <= n no bin is empty,
// and each drawn row sums to 1 up to float32 rounding. Scores are computed in blocks of 64 rows
// (and, when causal, only up to the block's last query), never as the n x n square.
#pragma once

#include <cstddef>

namespace posenc {

constexpr int kMaxAttentionTokens = 8192;

struct BinnedAttentionParams {
  int n = 0;        // keys (and query positions) 0..n-1, in [1, 8192]
  int dim = 0;      // in [1, 8192]
  int columns = 0;  // key bins, in [1, n]
  int query = 0;    // the query whose exact row is returned, in [0, n - 1]
  bool causal = false;
  const float* biasByOffset = nullptr;  // 2n - 1 floats, entry j - i + n - 1 added to s_ij; or none
};

// Checks the counts and every row index (integers in [0, n-1], at most n of them). RangeError
// names the argument.
void checkBinnedAttention(const BinnedAttentionParams& p, const double* rows, size_t rowCount);

// q and k: n x dim rows for positions 0..n-1 (of q only the rows asked for and `query` are read).
// cells:  rowCount x columns, row r: query rows[r]'s probabilities summed per key bin.
// scores: n floats, the scores of query p.query (-Infinity where masked).
// probs:  n floats, its probabilities.
void binnedAttention(const BinnedAttentionParams& p, const float* q, const float* k, const double* rows,
                     size_t rowCount, float* cells, float* scores, float* probs);

// The same when the caller holds only the query rows asked for: q is rowCount + 1 rows of dim,
// row r the query at position rows[r] and the last one the query at p.query.
void binnedAttentionOfRows(const BinnedAttentionParams& p, const float* q, const float* k, const double* rows,
                           size_t rowCount, float* cells, float* scores, float* probs);

}  // namespace posenc
