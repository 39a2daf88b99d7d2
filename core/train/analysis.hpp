// What a trained position table looks like from outside: how alike its rows are, and where
// they lie on the table's two main directions (principal components). Eigen does the linear
// algebra; the page draws the results.
#pragma once

#include <vector>

namespace posenc::train {

struct TableAnalysis {
  int rows = 0;
  std::vector<double> similarity;  // rows x rows: cosine of row i and row j (0 where a row is all zeros)
  std::vector<double> components;  // rows x 2: each centred row projected on the first two principal axes
  double explained[2] = {0, 0};    // share of the total variance along each axis
};

// table: rows x cols, row-major. The axes are the eigenvectors of the rows' covariance with the
// two largest eigenvalues; each axis's sign makes its largest-magnitude entry positive, so the
// picture does not flip between runs of the same numbers. RangeError for rows < 2, cols < 2,
// more than 4096 rows or 1024 columns, or a value that is not finite.
TableAnalysis analyseTable(const float* table, int rows, int cols);

}  // namespace posenc::train
