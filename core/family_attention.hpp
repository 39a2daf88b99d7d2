// One attention head over one seeded token sequence, for every position family, computing only
// what a figure draws: chosen query rows, each row's keys summed into a number of column bins,
// and the exact score and probability row of one chosen query.
//
// Index
//   [MODEL]      what the queries, keys and biases are, per family
//   [PARAMS]     the parameters and their ranges
//   [FUNCTIONS]  check, compute
//
// [MODEL] -------------------------------------------------------------------------------------
// Every family sees the same tokens. Token t has a query content a_t and a key content b_t,
//   a_t = mu + G(3·seed,     t) · 0.5        b_t = mu + G(3·seed + 1, t) · 0.5
// where G(s, t) is row t of the seeded standard-normal stand-in of core/learned.hpp (SplitMix64
// + Box-Muller, std 1) and mu is a direction every query and key shares (trained models have
// one), mu_c = sqrt(1/2) · (-1)^floor(c/2). The contents stand for W_Q x_t and W_K x_t: two
// independent draws, so content alone favours no position. With scale = 1/sqrt(d):
//
//   none        s_ij = scale · a_i · b_j
//   sinusoidal  s_ij = scale · (a_i + PE(i)) · (b_j + PE(j))          PE: core/sinusoidal.hpp
//   learned     s_ij = scale · (a_i + L(i)) · (b_j + L(j))            L(t) = G(3·seed + 2, t) · sqrt(1/2)
//   rope        s_ij = scale · (R(i) a_i) · (R(j) b_j)                R: core/rope.hpp, default
//                                                                     frequencies, 'half' layout
//                                                                     unless ropeScaling and
//                                                                     ropeLayout say otherwise
// Each family's part comes from its hooks in core/families/ (the trainer uses the same ones):
// embed for sinusoidal and learned (here added to both contents), rotate for RoPE, bias for
// T5 and ALiBi; this file supplies the stand-in learned table and T5 biases.
//   t5          s_ij = scale · a_i · b_j + beta(bucket(j - i))        T5 bucket, core/t5.hpp
//   alibi       s_ij = scale · a_i · b_j - m_head · |i - j|           m: alibiSlopes(heads)[head]
//
// then, when causal, s_ij = -Infinity for j > i, and p_ij = softmax over j of s_ij.
// Scales: the learned table's std sqrt(1/2) gives E|L(t)|^2 = d/2 = |PE(t)|^2; the shared mu has
// one unit of squared length per RoPE pair, so mu's rotated self-product is
// sum_k cos((i - j) theta_k), the same band as PE(i)·PE(j).
// T5 stand-in biases (a real model learns one scalar per bucket and head; this is a documented
// deterministic replacement): buckets are bidirectional when not causal (an encoder) and
// one-directional when causal (a decoder), as in T5. With K buckets per direction (numBuckets/2
// bidirectional, numBuckets one-directional) and k the bucket's index within its direction
// (bucket mod K), beta = -4 · k / (K - 1): 0 at distance 0, falling linearly to -4 at the last,
// farthest bucket.
//
// Numbers are float32 (contents, encodings, and the attention of core/binned_attention.hpp,
// which also defines the bins).
//
// The core keeps no token contents between calls. The seeded rows cost 2·n·d normal draws (3
// with the learned table): a caller that redraws often (the attention step, the Lab) gets them
// once from familyContent, holds them, and hands them to each call (FamilyContents); a call
// without them draws what it reads. Results are the same either way. What it does keep, per
// thread, are each family's fixed tables (RoPE's cos and sin, ALiBi's slopes...) for the last four
// shapes it was asked for, which depend on the family and the shape alone and are used again only
// for the same family and shape: at most four tables per family, RoPE's and the sinusoid's the
// largest (2·n·dim and n·dim floats; 8 MiB each at n = 8192, dim = 256).
#pragma once

#include <cstddef>

#include "core/binned_attention.hpp"
#include "core/rope.hpp"

namespace posenc {

// [PARAMS] ------------------------------------------------------------------------------------
// A family is its id in the registry (core/families/registry.hpp: familyFromName, familyName),
// shared with the trainer and the Lab.
constexpr int kFamilyMaxTokens = kMaxAttentionTokens;
constexpr int kFamilyMaxDim = 256;
constexpr int kFamilyMaxHeads = 64;
constexpr double kFamilyMaxSeed = 1e9;
constexpr double kT5StandInDepth = 4.0;  // the farthest bucket's stand-in bias is -4
constexpr float kContentStd = 0.5f;
constexpr float kSharedAmplitude = 0.70710678118654752f;  // sqrt(1/2)
constexpr double kLearnedStd = 0.70710678118654752;       // sqrt(1/2)

// Counts are doubles, as they arrive from JavaScript: the check rejects a non-integer or an
// out-of-range value by name before anything converts them.
struct FamilyAttentionParams {
  int family = 0;            // registry id (NoPE)
  double n = 0;              // tokens 0..n-1: an integer in [1, 8192]
  double dim = 64;           // head dim: even, in [2, 256]
  double columns = 0;        // key bins, in [1, n]
  double query = 0;          // the query whose exact row is returned, in [0, n-1]
  bool causal = true;
  double seed = 0;           // integer in [0, 1e9]
  double base = 10000;       // sinusoidal and rope, in (1, 1e12]
  double heads = 8;          // alibi, in [1, 64]
  double head = 0;           // alibi, in [0, heads - 1]
  double numBuckets = 32;    // t5: even, in [4, 4096]
  double maxDistance = 128;  // t5: in [numBuckets/4 + 1 (numBuckets/2 + 1 when causal), 2^24]
  // rope: a frequency scaling (checked by checkRope; the default is none) and the layout. The
  // attention step keeps the defaults; the Lab shows every scaling through the same function.
  RopeScaling ropeScaling;
  RopeLayout ropeLayout = RopeLayout::Half;
};

// [FUNCTIONS] ---------------------------------------------------------------------------------
// Checks every parameter and every row index (integers in [0, n-1], at most n of them, and
// rowCount · n <= 2^24), before anything is allocated. RangeError names the argument.
void checkFamilyAttention(const FamilyAttentionParams& p, const double* rows, size_t rowCount);

// The seeded rows 0..n-1 that [MODEL] names, n x dim floats: the query contents a_t, the key
// contents b_t, or the learned stand-in table L(t). The same numbers familyAttention uses. Row t
// depends only on (dim, seed, t): the first n rows of a longer call are these.
enum class FamilyContent { Query, Key, Learned };
void familyContent(int dim, double seed, int n, FamilyContent which, float* out);

// The seeded rows a familyAttention call reads, as the caller holds them: each at least n x dim
// floats (rows 0..n-1 are read), the rows familyContent returns for the call's (dim, seed). A
// null one is drawn by the call (the learned table is read by 'learned' only).
struct FamilyContents {
  const float* query = nullptr;
  const float* key = nullptr;
  const float* learned = nullptr;
};

// The stand-in bias of T5 bucket `bucket` (see [MODEL]).
double t5StandInBias(int bucket, int numBuckets, bool bidirectional);

// cells:  rowCount x columns, row r: query rows[r]'s probabilities summed per key bin.
// scores: n floats, the scores of query p.query (-Infinity where masked).
// probs:  n floats, its probabilities.
void familyAttention(const FamilyAttentionParams& p, const FamilyContents& contents, const double* rows,
                     size_t rowCount, float* cells, float* scores, float* probs);
// The same, drawing the seeded rows it reads.
void familyAttention(const FamilyAttentionParams& p, const double* rows, size_t rowCount,
                     float* cells, float* scores, float* probs);

}  // namespace posenc
