// Transformer-XL relative attention score (Dai et al. 2019, eq. for A^rel), split into its four
// terms for one query position i and key position j:
//
//   (a) content · content     q_i · k_j
//   (b) content · position    q_i · (W_R R_{i-j})
//   (c) global content bias   u · k_j
//   (d) global position bias  v · (W_R R_{i-j})
//
// R_r is the relative sinusoid of the official code (kimiyoung/transformer-xl, PositionalEmbedding):
// the sines then the cosines, R_r = [sin(r w_0) .. sin(r w_{d/2-1}), cos(r w_0) .. cos(r w_{d/2-1})],
// w_k = base^(-2k/d). The score is the sum of the four, before the 1/sqrt(d) scale.
//
// A worked example, NOT trained weights: q_i, k_j, u, v and W_R are drawn by a seeded generator so
// that the same (seed, position) always gives the same vector and anyone can redraw them.
//   SplitMix64 (Steele, Lea & Flood 2014):
//     state += 0x9E3779B97F4A7C15; z = state;
//     z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9; z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
//     return z ^ (z >> 31)                                   (all mod 2^64)
//   one draw -> uniform in [-1, 1): (z >> 11) * 2^-53 * 2 - 1
//   every vector is its own stream, started at state = seed * 2^32 + tag, with
//     tag 0: u   tag 1: v   tag 2: W_R (d*d draws, row-major, each divided by sqrt(d))
//     tag 3 + 2p: q at position p   tag 4 + 2p: k at position p        (p <= 2^20)
//   each vector takes its d draws in order from its stream.
#pragma once

#include <cstddef>
#include <vector>

namespace posenc {

struct XlParams {
  int dim = 16;           // even, [2, kMaxXlDim]
  double seed = 0;        // integer in [0, 2^32)
  double base = 10000;    // the sinusoid's base, (1, 1e12]
};

constexpr int kMaxXlDim = 1024;  // W_R holds dim^2 numbers

struct XlTerms {
  double contentContent = 0;   // (a)
  double contentPosition = 0;  // (b)
  double globalContent = 0;    // (c)
  double globalPosition = 0;   // (d)
  double score = 0;            // (a) + (b) + (c) + (d)
};

// The seeded inputs of one (i, j) pair, each a row-major array of doubles.
struct XlInputs {
  std::vector<double> query, key, u, v;  // dim each
  std::vector<double> r;                 // R_{i-j}, dim
  std::vector<double> wr;                // W_R, dim * dim, row-major: (W_R x)_c = sum_e wr[c*dim+e] x_e
};

// Argument checks (before anything is allocated).
void checkXl(const XlParams& p);
void checkXlPosition(const char* name, double position);

// R_r for a relative distance r (any integer, negative too), dim doubles into out.
void xlRelativeSinusoid(double r, int dim, double base, double* out);

XlInputs transformerXlInputs(int i, int j, const XlParams& p);
XlTerms transformerXlTerms(int i, int j, const XlParams& p);

// The four terms for query i against each key in keys[0..n): out[4*t .. 4*t+3] = (a), (b), (c),
// (d). W_R is applied once to q_i and to v (b = (W_R^T q_i) . R), so a row costs O(d^2 + n d).
void transformerXlRow(int i, const double* keys, size_t n, const XlParams& p, double* out);

}  // namespace posenc
