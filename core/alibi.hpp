// ALiBi (Press, Smith & Lewis 2021; ofirpress/attention_with_linear_biases get_slopes).
//
// Slopes: for a power of two n, 2^(-8k/n), k = 1..n. Otherwise, with c the largest power of
// two below n: slopes(c) followed by every other slope of slopes(2c), n - c of them. That
// order is the reference code's, so n = 6 gives 1/4, 1/16, 1/64, 1/256, 1/2, 1/8 (unsorted).
// Bias: -slope * |i - j|; with causal masking, j > i is -Infinity.
#pragma once

#include <vector>

namespace posenc {

void checkAlibiSlopes(int nHeads);
std::vector<double> alibiSlopes(int nHeads);

void checkAlibiBias(int length, double slope);
void alibiBias(int length, double slope, bool causal, float* out);  // length * length

}  // namespace posenc
