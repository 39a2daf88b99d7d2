// The position families, listed once. The trainer (core/train/) and familyAttention both reach a
// family only through this list; adding a family is a struct in its own header (see
// family.hpp for the hooks) and one entry in Families below.
#pragma once

#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "core/errors.hpp"
#include "core/families/alibi.hpp"
#include "core/families/fire.hpp"
#include "core/families/learned.hpp"
#include "core/families/none.hpp"
#include "core/families/partial_rope.hpp"
#include "core/families/rope.hpp"
#include "core/families/rope_nope.hpp"
#include "core/families/sinusoidal.hpp"
#include "core/families/t5.hpp"

namespace posenc::families {

// The registry, in the order the page lists them. A family's id is its index here. The families
// familyAttention and the Lab draw (kFigure) come first, the trainer's own after them, so the
// drawn ones are ids 0 .. kFigureFamilyCount - 1.
using Families = std::tuple<NoPE, Sinusoidal, Learned, T5, Rope, PartialRope, Alibi, RopeNope, Fire>;
constexpr int kFamilyCount = int(std::tuple_size_v<Families>);

namespace detail {
template <size_t... I>
constexpr int figureCount(std::index_sequence<I...>) {
  return (0 + ... + int(std::tuple_element_t<I, Families>::kFigure));
}
template <size_t... I>
constexpr bool figuresFirst(std::index_sequence<I...>) {
  return (true && ... && (std::tuple_element_t<I, Families>::kFigure ||
                          I + 1 == sizeof...(I) || !std::tuple_element_t<(I + 1 < sizeof...(I) ? I + 1 : I), Families>::kFigure));
}
}  // namespace detail
constexpr int kFigureFamilyCount = detail::figureCount(std::make_index_sequence<kFamilyCount>());
static_assert(detail::figuresFirst(std::make_index_sequence<kFamilyCount>()),
              "the families familyAttention draws come before the trainer's own");

namespace detail {
template <size_t I = 0, class F>
void visitAt(int id, F&& f) {
  if constexpr (I < std::tuple_size_v<Families>) {
    if (int(I) == id) {
      f(std::tuple_element_t<I, Families>{});
      return;
    }
    visitAt<I + 1>(id, std::forward<F>(f));
  }
}
}  // namespace detail

// Calls f(Family{}) for the family with this id (a generic lambda sees the family's type).
template <class F>
void visit(int id, F&& f) {
  detail::visitAt(id, std::forward<F>(f));
}

// The id of a family type (its index in Families), for code that names a family in C++.
template <class F, size_t I = 0>
constexpr int idOf() {
  static_assert(I < std::tuple_size_v<Families>, "not a family of the registry");
  if constexpr (std::is_same_v<F, std::tuple_element_t<I, Families>>) return int(I);
  else return idOf<F, I + 1>();
}

// The family's name in the API.
inline std::string familyName(int id) {
  std::string name;
  visit(id, [&](auto fam) { name = decltype(fam)::kName; });
  return name;
}

// "'none', 'sinusoidal', ..." for error messages.
inline std::string familyNames() {
  std::string out;
  for (int id = 0; id < kFamilyCount; ++id) out += (id ? ", '" : "'") + familyName(id) + "'";
  return out;
}

// Does the family add a bias of both positions (FIRE)? The model then keeps each layer's scores.
inline bool keepsScores(int id) {
  bool keeps = false;
  visit(id, [&](auto fam) { keeps = decltype(fam)::kPairBiases; });
  return keeps;
}

// The registry as JSON, for code outside C++ (posenc-train --families; wasm/tools/gen-families.mjs
// writes wasm/families.gen.js from it): per family, in id order, its name, whether familyAttention
// draws it, its figure's per-head and table facts, and the hooks it fills.
inline std::string familiesJson() {
  std::string out = "[";
  for (int id = 0; id < kFamilyCount; ++id) {
    visit(id, [&](auto fam) {
      using F = decltype(fam);
      const auto flag = [](bool b) { return b ? "true" : "false"; };
      std::string hooks;
      for (const auto& [on, name] : {std::pair{F::kEmbeds, "embed"}, {F::kRotates, "rotate"}, {F::kBiases, "bias"},
                                     {F::kPairBiases, "pairBias"}}) {
        if (on) hooks += std::string(hooks.empty() ? "" : ",") + "\"" + name + "\"";
      }
      out += std::string(id ? "," : "") + "\n  {\"name\":\"" + F::kName + "\",\"figure\":" + flag(F::kFigure) +
             ",\"perHead\":" + flag(F::kFigurePerHead) + ",\"readsTable\":" + flag(F::kFigureReadsTable) +
             ",\"hooks\":[" + hooks + "]}";
    });
  }
  return out + "\n]";
}

// The id of a family by name; TypeError naming `field` and the allowed names otherwise.
inline int familyFromName(const std::string& name, const char* field = "family") {
  for (int id = 0; id < kFamilyCount; ++id) {
    if (familyName(id) == name) return id;
  }
  throw TypeError(std::string(field) + " must be one of " + familyNames() + ", got '" + name + "'");
}

// The id of a family familyAttention draws (ids below kFigureFamilyCount); TypeError naming
// `field` and those families otherwise, saying when the name is one of the trainer's own.
inline std::string figureFamilyNames() {
  std::string out;
  for (int id = 0; id < kFigureFamilyCount; ++id) out += (id ? ", '" : "'") + familyName(id) + "'";
  return out;
}

inline int figureFamilyFromName(const std::string& name, const char* field = "family") {
  for (int id = 0; id < kFigureFamilyCount; ++id) {
    if (familyName(id) == name) return id;
  }
  for (int id = kFigureFamilyCount; id < kFamilyCount; ++id) {
    if (familyName(id) == name) {
      throw TypeError(std::string(field) + " '" + name + "' is trained only (it has no single head to draw): use one of " +
                      figureFamilyNames());
    }
  }
  throw TypeError(std::string(field) + " must be one of " + figureFamilyNames() + ", got '" + name + "'");
}

}  // namespace posenc::families
