#include "attention.hpp"

#include <cmath>
#include <string>

#include "errors.hpp"
#include "kernels/dispatch.hpp"
#include "limits.hpp"

namespace posenc {
namespace {

void requireNoNanOrPlusInf(const char* name, const float* v, size_t n) {
  // A branch-free pass first (the compiler vectorises it); the loop that names the bad index
  // only runs when there is one.
  bool bad = false;
  for (size_t i = 0; i < n; ++i) bad |= !(v[i] < INFINITY);
  if (!bad) return;
  for (size_t i = 0; i < n; ++i) {
    if (std::isnan(v[i]) || v[i] == INFINITY) {
      throw RangeError(std::string(name) + "[" + std::to_string(i) +
                       "] must be a finite number or -Infinity, got " + detail::fmt(v[i]));
    }
  }
}

}  // namespace

void checkAttention(const AttentionParams& p, const float* q, size_t qLength, const float* k,
                    size_t kLength, size_t biasLength) {
  requireInt("dim", p.dim, 1, kMaxDim);
  requireInt("q rows", p.qRows, 0, kMaxRows);
  requireInt("k rows", p.kRows, 0, kMaxRows);
  if (int64_t(p.qRows) * p.kRows > kMaxElements) {
    throw RangeError("rows(q) * rows(k) must be at most " + std::to_string(kMaxElements) +
                     ", got " + std::to_string(int64_t(p.qRows) * p.kRows));
  }
  requireLength("q", qLength, size_t(p.qRows) * p.dim);
  requireLength("k", kLength, size_t(p.kRows) * p.dim);
  requireReal("scale", p.scale, -1e6, 1e6);
  if (p.causal && p.qRows > p.kRows) {
    throw RangeError("causal attention needs rows(q) <= rows(k) (queries are the last positions), got " +
                     std::to_string(p.qRows) + " > " + std::to_string(p.kRows));
  }
  requireFinite("q", q, qLength);
  requireFinite("k", k, kLength);
  if (p.bias) {
    requireLength("bias", biasLength, size_t(p.qRows) * p.kRows);
    requireNoNanOrPlusInf("bias", p.bias, biasLength);
  }
}

void attention(const AttentionParams& p, const float* q, const float* k, float* out) {
  checkAttention(p, q, size_t(p.qRows) * p.dim, k, size_t(p.kRows) * p.dim,
                 p.bias ? size_t(p.qRows) * p.kRows : 0);
  kernels::qk(q, p.qRows, k, p.kRows, p.dim, static_cast<float>(p.scale), out);
  const size_t kr = p.kRows;
  const int shift = p.kRows - p.qRows;
  for (int i = 0; i < p.qRows; ++i) {
    float* row = out + size_t(i) * kr;
    if (p.bias) {
      const float* b = p.bias + size_t(i) * kr;
      for (size_t j = 0; j < kr; ++j) row[j] += b[j];
    }
    if (p.causal) {
      for (size_t j = size_t(i + shift) + 1; j < kr; ++j) row[j] = -INFINITY;
    }
    if (p.softmax) kernels::softmaxRow(row, kr);
  }
}

void checkSoftmax(const float* x, size_t length, int cols) {
  requireInt("cols", cols, 1, kMaxRows);
  requireInt("x.length", double(length), 0, kMaxElements);
  if (length % size_t(cols) != 0) {
    throw RangeError("x.length must be a multiple of cols (" + std::to_string(cols) + "), got " +
                     std::to_string(length));
  }
  requireNoNanOrPlusInf("x", x, length);
}

void softmaxRows(float* x, size_t length, int cols) {
  checkSoftmax(x, length, cols);
  for (size_t r = 0; r < length / size_t(cols); ++r) kernels::softmaxRow(x + r * cols, cols);
}

}  // namespace posenc
