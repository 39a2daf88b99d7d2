// Scaled dot-product attention weights for one head:
//   softmax_row(Q K^T * scale + bias + causal mask), Q: qRows x dim, K: kRows x dim.
// Rectangular shapes follow the KV-cache convention: the queries are the last qRows positions,
// so query i sits at position kRows - qRows + i and the causal mask hides keys j > that.
// A row with nothing left to attend to (every score -Infinity) comes out as zeros.
#pragma once

#include <cstddef>

namespace posenc {

struct AttentionParams {
  int qRows = 0, kRows = 0, dim = 0;
  double scale = 0;            // the binding defaults it to 1/sqrt(dim)
  bool causal = false;
  bool softmax = true;         // false: return the masked, biased scores
  const float* bias = nullptr; // qRows x kRows, may hold -Infinity (masks), never NaN/+Infinity
};

void checkAttention(const AttentionParams& p, const float* q, size_t qLength, const float* k,
                    size_t kLength, size_t biasLength);
void attention(const AttentionParams& p, const float* q, const float* k, float* out);

// Stable softmax of each row of x (rows x cols) in place. Entries may be -Infinity (masked);
// NaN and +Infinity are RangeErrors. A row of only -Infinity becomes zeros.
void checkSoftmax(const float* x, size_t length, int cols);
void softmaxRows(float* x, size_t length, int cols);

}  // namespace posenc
