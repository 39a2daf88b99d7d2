// Learned absolute positions (GPT-2, BERT): a trainable table, one row per position, added to
// the input. A row the training never reached keeps its initial draw (minus weight decay).
#pragma once

#include <cmath>
#include <vector>

#include "core/families/family.hpp"

namespace posenc::families {

struct Learned : FamilyBase {
  static constexpr const char* kName = "learned";
  static constexpr bool kFigureReadsTable = true;  // the figure draws a stand-in table
  static constexpr bool kEmbeds = true;

  // Drawn like fairseq's LearnedPositionalEmbedding: N(0, 1/dModel).
  static std::vector<TensorSpec> tensors(const FamilyShape& s) {
    return {{"position.table", s.maxPositions, s.dModel, 1.0 / std::sqrt(double(s.dModel))}};
  }

  template <class T>
  static void embed(const FamilyShape& s, const T* params, const std::vector<T>&, const int* positions,
                    size_t rows, T* x) {
    const size_t d = size_t(s.dModel);
    for (size_t r = 0; r < rows; ++r) {
      const T* pe = params + size_t(positions[r]) * d;
      T* row = x + r * d;
      for (size_t c = 0; c < d; ++c) row[c] += pe[c];
    }
  }

  template <class T>
  static void embedBackward(const FamilyShape& s, const T* dx, const int* positions, size_t rows, T* dParams) {
    const size_t d = size_t(s.dModel);
    for (size_t r = 0; r < rows; ++r) {
      T* g = dParams + size_t(positions[r]) * d;
      const T* row = dx + r * d;
      for (size_t c = 0; c < d; ++c) g[c] += row[c];
    }
  }
};

}  // namespace posenc::families
