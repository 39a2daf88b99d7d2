// Positions on a 2-D patch grid (vision transformers): rows x cols patches, row-major, patch
// (r, c) at index r * cols + c. A 224 px image cut into 16 px patches is a 14 x 14 grid.
//
// Index
//   [SECTION] 2-D sin-cos      sincos2d: half the dims encode the column, half the row
//   [SECTION] axial 2-D RoPE   axialRope, axialRopeScores: a quarter of the dims' pairs turn with
//                              the column, the other quarter with the row
//   [SECTION] learned grid     learnedGrid: a seeded stand-in for a trained table
//   [SECTION] resizing         interpolateGrid: bilinear, PyTorch's corner conventions
//   [SECTION] similarity       gridSimilarity: one patch's vector against every patch's
//
// Frequencies, for both sin-cos and RoPE, are those of a 1-D table of d/2 dims:
//   w_k = base^(-k / (d/4)),  k = 0 .. d/4 - 1,
// which is what MAE's get_2d_sincos_pos_embed and the axial RoPE of Heo et al. (2024,
// "Rotary Position Embedding for Vision Transformer") use. d must be a multiple of 4.
#pragma once

#include <cstddef>
#include <vector>

namespace posenc {

// Largest grid side; rows * cols * d must also stay within kMaxElements.
constexpr int kMaxGridSide = 1024;

// Checks that both sides are integers in [1, kMaxGridSide] (the messages use the given names).
void checkGrid(const char* rowsName, double rows, const char* colsName, double cols);

// w_k = base^(-k/(d/4)) for k < d/4, in double (checks d: multiple of 4 in [4, kMaxDim]; base).
std::vector<double> gridFrequencies(int d, double base);

// [SECTION] 2-D sin-cos ------------------------------------------------------------------------
// Patch (r, c) gets [ sin(c w_0) .. sin(c w_{q-1}), cos(c w_0) .. cos(c w_{q-1}),
//                     sin(r w_0) .. sin(r w_{q-1}), cos(r w_0) .. cos(r w_{q-1}) ],  q = d/4.
// The first half is the column (x) because MAE builds its grid with meshgrid(w, h) and feeds
// grid[0], the column coordinate, to the first half; within a half the sines come first, then
// the cosines (concatenated, not interleaved). PE(a) . PE(b) = sum_k cos(w_k dc) + cos(w_k dr).
void checkSincos2d(double rows, double cols, double d, double base);
void sincos2d(int rows, int cols, int d, double base, float* out);  // rows * cols * d floats

// [SECTION] axial 2-D RoPE ---------------------------------------------------------------------
// x (d floats) rotated as at patch (r, c): interleaved pairs (2p, 2p + 1); pairs p < d/4 turn by
// c * w_p, pairs p >= d/4 by r * w_{p - d/4}. Each pair (a, b) -> (a cos - b sin, b cos + a sin).
// Writes rows * cols * d floats: x rotated at every patch.
void checkAxialRope(const float* x, size_t xLength, double rows, double cols, double base);
void axialRope(const float* x, int rows, int cols, int d, double base, float* out);

// The score q'(r, c) . k'(r2, c2) from patch (r, c) to every patch (r2, c2), with q = k = the
// given vector (rotated at the two patches, dot product in double). With cosine, each score is
// divided by |q'| |k'| = |q|^2 (rotations keep lengths); a zero q gives 0.
// Closed form: sum over pairs of |pair|^2 cos(w (pos_q - pos_k)), pos the pair's coordinate.
void checkAxialRopeScores(double rows, double cols, double d, double r, double c, double base,
                          const float* q, size_t qLength);
void axialRopeScores(int rows, int cols, int d, int r, int c, double base, const float* q,
                     bool cosine, double* out);  // rows * cols doubles

// [SECTION] learned grid -----------------------------------------------------------------------
// A stand-in for a table a ViT learned (there is no trained one to ship): entries of about
// N(0, std^2), drawn from a seeded generator, that vary smoothly over the grid the way trained
// ViT tables are known to (neighbours, and patches in the same row or column, end up alike).
// Dim j is a cosine wave over the grid: j % 3 == 0 varies along the rows only, 1 along the
// columns only, 2 along both; its frequency (0.25 to 1.5 periods across the grid) and phase
// come from (seed, j); a small per-entry noise (std / 4) from (seed, patch, j).
void checkLearnedGrid(double rows, double cols, double d, double seed, double stdDev);
void learnedGrid(int rows, int cols, int d, double seed, double stdDev, float* out);

// [SECTION] resizing ---------------------------------------------------------------------------
// Bilinear resize of a rows x cols grid of d-vectors to newRows x newCols, per dim, computed in
// double. Source coordinate of output index i along an axis of n_in -> n_out cells:
//   alignCorners false (PyTorch's default, half-pixel centres):
//       s = (i + 0.5) * n_in / n_out - 0.5, clamped below at 0
//   alignCorners true (the corner cells map onto each other):
//       s = i * (n_in - 1) / (n_out - 1), and 0 when n_out == 1
// then i0 = floor(s), i1 = min(i0 + 1, n_in - 1), weights (1 - (s - i0), s - i0): the formulas
// of PyTorch's upsample_bilinear2d (F.interpolate(..., mode='bilinear')).
void checkInterpolateGrid(const float* table, size_t tableLength, double rows, double cols,
                          double d, double newRows, double newCols);
void interpolateGrid(const float* table, int rows, int cols, int d, int newRows, int newCols,
                     bool alignCorners, float* out);  // newRows * newCols * d floats

// [SECTION] similarity -------------------------------------------------------------------------
// Row `index` of table (n rows of d) against every row: the dot product in double, or with
// cosine the dot over both lengths (0 when either row is all zeros).
void checkGridSimilarity(const float* table, size_t tableLength, double d, double index);
void gridSimilarity(const float* table, size_t n, int d, int index, bool cosine, double* out);

}  // namespace posenc
