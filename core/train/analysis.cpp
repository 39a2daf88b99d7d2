#include "core/train/analysis.hpp"

#include <Eigen/Core>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>

#include "core/errors.hpp"

namespace posenc::train {

TableAnalysis analyseTable(const float* table, int rows, int cols) {
  requireInt("rows", rows, 2, 4096);
  requireInt("cols", cols, 2, 1024);
  requireFinite("table", table, size_t(rows) * size_t(cols));
  using Mat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const Mat x = Eigen::Map<const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
                    table, rows, cols).cast<double>();
  TableAnalysis out;
  out.rows = rows;

  const Eigen::VectorXd norms = x.rowwise().norm();
  const Mat gram = x * x.transpose();
  out.similarity.resize(size_t(rows) * size_t(rows));
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < rows; ++j) {
      const double n = norms(i) * norms(j);
      out.similarity[size_t(i) * size_t(rows) + size_t(j)] = n > 0 ? gram(i, j) / n : 0.0;
    }
  }

  const Mat centred = x.rowwise() - x.colwise().mean();
  const Mat cov = centred.transpose() * centred / double(rows - 1);
  const Eigen::SelfAdjointEigenSolver<Mat> eig(cov);  // eigenvalues in increasing order
  const Eigen::VectorXd values = eig.eigenvalues();
  const double total = values.sum();
  out.components.assign(size_t(rows) * 2, 0.0);
  for (int k = 0; k < 2; ++k) {
    Eigen::VectorXd axis = eig.eigenvectors().col(cols - 1 - k);
    Eigen::Index top = 0;
    axis.cwiseAbs().maxCoeff(&top);
    if (axis(top) < 0) axis = -axis;
    const Eigen::VectorXd projected = centred * axis;
    for (int i = 0; i < rows; ++i) out.components[size_t(i) * 2 + size_t(k)] = projected(i);
    out.explained[k] = total > 0 ? std::max(0.0, values(cols - 1 - k)) / total : 0.0;
  }
  return out;
}

}  // namespace posenc::train
