// Sinusoidal (Vaswani et al. 2017): PE(pos) from core/sinusoidal.hpp added to the input.
#pragma once

#include <vector>

#include "core/families/family.hpp"
#include "core/sinusoidal.hpp"

namespace posenc::families {

struct Sinusoidal : FamilyBase {
  static constexpr const char* kName = "sinusoidal";
  static constexpr bool kEmbeds = true;

  // The table maxPositions x dModel, from the core's float32 kernel.
  template <class T>
  static void prepare(const FamilyShape& s, std::vector<T>& fixed) {
    SinusoidalParams p;
    p.positions = s.maxPositions;
    p.dModel = s.dModel;
    p.base = s.base;
    std::vector<float> table(size_t(s.maxPositions) * size_t(s.dModel));
    sinusoidal(p, table.data());
    fixed.assign(table.begin(), table.end());
  }

  template <class T>
  static void embed(const FamilyShape& s, const T*, const std::vector<T>& fixed, const int* positions,
                    size_t rows, T* x) {
    const size_t d = size_t(s.dModel);
    for (size_t r = 0; r < rows; ++r) {
      const T* pe = fixed.data() + size_t(positions[r]) * d;
      T* row = x + r * d;
      for (size_t c = 0; c < d; ++c) row[c] += pe[c];
    }
  }

  template <class T>
  static void embedBackward(const FamilyShape&, const T*, const int*, size_t, T*) {}  // nothing to train
};

}  // namespace posenc::families
