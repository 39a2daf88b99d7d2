// Shaw et al. 2018's clipped relative index (tensor2tensor _generate_relative_positions_matrix):
//   index[i][j] = clip(j - i, -k, k) + k, a table of 2k + 1 vectors. When there are fewer
//   queries than keys, the queries are the last qLen positions (query i sits at kLen - qLen + i).
#pragma once

#include <cstdint>

namespace posenc {

void checkShaw(int qLen, int kLen, int maxDistance);
void shawIndex(int qLen, int kLen, int maxDistance, int32_t* out);  // qLen * kLen

}  // namespace posenc
