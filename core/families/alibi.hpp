// ALiBi (Press, Smith & Lewis 2021): head h adds -m_h * |i - j| to the score of query i and key
// j, with the slopes m_h of core/alibi.hpp (the reference code's order). Nothing to train.
#pragma once

#include <cstdlib>
#include <vector>

#include "core/alibi.hpp"
#include "core/families/family.hpp"

namespace posenc::families {

struct Alibi : FamilyBase {
  static constexpr const char* kName = "alibi";
  static constexpr bool kBiases = true;
  static constexpr bool kFigurePerHead = true;  // each head has its own slope

  // fixed: one slope per head.
  template <class T>
  static void prepare(const FamilyShape& s, std::vector<T>& fixed) {
    const std::vector<double> m = alibiSlopes(s.heads);
    fixed.assign(m.begin(), m.end());
  }

  template <class T>
  static void bias(const FamilyShape&, const T*, const std::vector<T>& fixed, int head, int length, T* out) {
    const T slope = fixed[size_t(head)];
    for (int o = -(length - 1); o <= length - 1; ++o) out[o + length - 1] = -slope * T(std::abs(o));
  }

  template <class T>
  static void biasBackward(const FamilyShape&, const std::vector<T>&, const T*, int, int, T*) {}  // nothing to train
};

}  // namespace posenc::families
