// NoPE: no position at all. Under the causal mask a decoder can still tell where it is (query i
// averages over exactly i + 1 keys); that is the only source of order this family has.
#pragma once

#include "core/families/family.hpp"

namespace posenc::families {

struct NoPE : FamilyBase {
  static constexpr const char* kName = "none";
};

}  // namespace posenc::families
