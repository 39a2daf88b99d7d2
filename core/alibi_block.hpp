// ALiBi bias for chosen query and key positions: one block of the full length × length matrix.
//
// A figure that reads one query row of a 2048-token sequence (or a corner of it) needs 2048
// entries, not the 4 million of core/alibi.hpp's alibiBias(2048, m). Entry (r, c) is the bias of
// query position queries[r] against key position keys[c]: -slope * |q - k|, and -Infinity where
// the key comes after the query when causal. For queries = keys = 0..n-1 this is exactly
// alibiBias(n, slope, causal).
#pragma once

#include <cstddef>

namespace posenc {

// Positions are integers in [0, 2^31 - 1]; at most 2^20 of each and 2^24 entries in all; slope
// a finite number in [0, 1e6] (as alibiBias). Throws RangeError naming the argument.
void checkAlibiBiasBlock(const double* queries, size_t queryCount, const double* keys,
                         size_t keyCount, double slope);

// out: queryCount * keyCount floats, row r for queries[r].
void alibiBiasBlock(const double* queries, size_t queryCount, const double* keys, size_t keyCount,
                    double slope, bool causal, float* out);

}  // namespace posenc
