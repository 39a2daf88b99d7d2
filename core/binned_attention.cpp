#include "binned_attention.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "errors.hpp"
#include "kernels/dispatch.hpp"
#include "limits.hpp"

namespace posenc {
namespace {

constexpr size_t kBlockRows = 64;  // score rows per Q·Kᵀ call: 64 x 8192 floats at most (2 MiB)

}  // namespace

void checkBinnedAttention(const BinnedAttentionParams& p, const double* rows, size_t rowCount) {
  requireInt("n", p.n, 1, kMaxAttentionTokens);
  requireInt("dim", p.dim, 1, kMaxDim);
  requireInt("columns", p.columns, 1, p.n);
  requireInt("query", p.query, 0, p.n - 1);
  requireInt("rows.length", double(rowCount), 0, p.n);
  if (double(rowCount) * p.n > double(kMaxElements)) {
    throw RangeError("rows.length * n must be at most " + std::to_string(kMaxElements) + ", got " +
                     detail::fmt(double(rowCount) * p.n));
  }
  for (size_t r = 0; r < rowCount; ++r) {
    const double v = rows[r];
    if (!(std::isfinite(v) && v == std::floor(v) && v >= 0 && v <= p.n - 1)) {
      throw RangeError("rows[" + std::to_string(r) + "] must be an integer in [0, " +
                       detail::fmt(p.n - 1) + "], got " + detail::fmt(v));
    }
  }
}

void binnedAttention(const BinnedAttentionParams& p, const float* q, const float* k, const double* rows,
                     size_t rowCount, float* cells, float* scores, float* probs) {
  checkBinnedAttention(p, rows, rowCount);
  const size_t d = size_t(p.dim);
  std::vector<float> gathered((rowCount + 1) * d);
  for (size_t r = 0; r <= rowCount; ++r) {
    const size_t at = size_t(r < rowCount ? rows[r] : p.query);
    std::copy_n(q + at * d, d, gathered.data() + r * d);
  }
  binnedAttentionOfRows(p, gathered.data(), k, rows, rowCount, cells, scores, probs);
}

void binnedAttentionOfRows(const BinnedAttentionParams& p, const float* q, const float* k, const double* rows,
                           size_t rowCount, float* cells, float* scores, float* probs) {
  checkBinnedAttention(p, rows, rowCount);
  const int n = p.n, d = p.dim, columns = p.columns;
  // The asked rows, then the chosen query last: one Q·Kᵀ pass gives all of them.
  std::vector<int> qpos(rows, rows + rowCount);
  qpos.push_back(p.query);
  const size_t nq = qpos.size();
  std::vector<int> edges(size_t(columns) + 1);
  for (int c = 0; c <= columns; ++c) edges[size_t(c)] = int(int64_t(c) * n / columns);

  const float scale = static_cast<float>(1.0 / std::sqrt(double(d)));
  std::vector<float> block(std::min(nq, kBlockRows) * size_t(n));
  for (size_t start = 0; start < nq; start += kBlockRows) {
    const size_t count = std::min(kBlockRows, nq - start);
    // Causal: no row of this block sees a key past its last query, so the scores stop there
    // (about half the work of a full square).
    int keys = n;
    if (p.causal) {
      int last = 0;
      for (size_t r = 0; r < count; ++r) last = std::max(last, qpos[start + r]);
      keys = last + 1;
    }
    kernels::qk(q + start * d, count, k, size_t(keys), size_t(d), scale, block.data());
    for (size_t r = 0; r < count; ++r) {
      const size_t at = start + r;
      const int i = qpos[at];
      float* row = block.data() + r * size_t(keys);
      if (p.biasByOffset) {
        const float* b = p.biasByOffset + (n - 1 - i);  // b[j] is the bias of offset j - i
        for (int j = 0; j < keys; ++j) row[j] += b[j];
      }
      if (p.causal) std::fill(row + i + 1, row + keys, -INFINITY);
      if (at + 1 == nq) {
        std::copy_n(row, keys, scores);
        std::fill(scores + keys, scores + n, -INFINITY);
      }
      kernels::softmaxRow(row, size_t(keys));
      if (at + 1 == nq) {
        std::copy_n(row, keys, probs);
        std::fill(probs + keys, probs + n, 0.0f);
        continue;
      }
      float* out = cells + at * columns;
      for (int c = 0; c < columns; ++c) {
        const int hi = std::min(edges[size_t(c) + 1], keys);
        float sum = 0.0f;
        for (int j = edges[size_t(c)]; j < hi; ++j) sum += row[j];
        out[c] = sum;
      }
    }
  }
}

}  // namespace posenc
