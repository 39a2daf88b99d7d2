// The Lab's parameters: one struct, read from and written to a URL query string. The names
// match the explainer's URL parameters where the two overlap (qpos, kpos, pos, dim, base, ...),
// so a step can hand its state to the Lab with a plain link.
#pragma once

#include <string>

#include "core/families/registry.hpp"
#include "core/rope.hpp"

namespace posenc::lab {

// The families the Lab draws: the registry's figure families (core/families/registry.hpp), ids
// 0 .. kFamilies - 1. A Family's value is its registry id; the Lab names the ones it draws in a
// way of their own.
enum class Family {
  None = families::idOf<families::NoPE>(),
  Sinusoidal = families::idOf<families::Sinusoidal>(),
  Learned = families::idOf<families::Learned>(),
  T5 = families::idOf<families::T5>(),
  Rope = families::idOf<families::Rope>(),
  PartialRope = families::idOf<families::PartialRope>(),
  Alibi = families::idOf<families::Alibi>(),
};
constexpr int kFamilies = families::kFigureFamilyCount;

const char* familyName(Family f);          // "none", "sinusoidal", ... (the registry's names)
// The dimensions of a head of width d that the family rotates (0: it rotates none), as the
// registry's family says (RoPE all of them, partial RoPE a quarter).
int rotaryDims(Family f, int d);
const char* scalingName(RopeScalingType t);  // "default", "linear", ... (the core's names)

struct State {
  Family family = Family::Rope;
  int len = 256;          // sequence length N
  int d = 64;             // head dimension (even, at most familyAttention's 256)
  double base = 10000.0;  // sinusoid / RoPE base
  // RoPE
  RopeLayout layout = RopeLayout::Half;
  RopeScalingType scaling = RopeScalingType::Default;
  double factor = 4.0;
  int orig = 1024;        // training length: originalMaxPositions (yarn, llama3, longrope),
                          // maxPositions (dynamic)
  double betaFast = 32.0, betaSlow = 1.0;     // yarn
  double lowFreq = 1.0, highFreq = 4.0;       // llama3
  // ALiBi
  int heads = 8;
  int head = 0;
  // T5 (its buckets see both sides unless causal, as in core/family_attention.hpp)
  int buckets = 32;
  int maxDistance = 128;
  // learned: the table's size (a sequence longer than it is refused, as by the core's learned())
  int table = 1024;
  // attention: the seeded token contents of core/family_attention.hpp, as in the attention step
  int seed = 0;
  bool causal = true;
  int qpos = 128, kpos = 120;   // the pinned attention cell; qpos is the curve's query
  int pos = 10, dim = 4;        // the pinned cell of the encoding table
};

// Every numeric field, once: its URL key, where it lives, its range and how its slider moves.
// The URL's values are clamped to it (applyParam, clamp) and the Lab's sliders are drawn from it
// (lab_ui.cpp), so the two cannot disagree. A field whose top depends on another (head < heads,
// the pinned cells inside the figures) names it in `below`: its top is then that field's
// value - 1, within max.
struct NumberField {
  const char* key;
  double State::*real;   // the field, when it is a double
  int State::*integer;   // the field, when it is an int
  double min, max;
  bool log = false;            // its slider is logarithmic
  const char* format = "%.3g";  // how its slider shows a double
  int State::*below = nullptr;  // its top is this field's value - 1
  bool even = false;            // kept even (d: RoPE rotates pairs; T5's buckets split by sign)
};
extern const NumberField kNumberFields[];
extern const int kNumberFieldCount;
// The field with this key; nullptr if there is none.
const NumberField* numberField(const std::string& key);
// Its top in this state (max, or the field it depends on's value - 1).
double topOf(const NumberField& f, const State& s);

// Keeps every field inside its range (and d even, head < heads, cells inside the figures).
void clamp(State& s);

// Applies "key=value&key=value" (a leading '?' is skipped; unknown keys and unparsable values
// are ignored, numbers are clamped). Returns true when a known key was set.
bool applyQuery(State& s, const std::string& query);
bool applyParam(State& s, const std::string& key, const std::string& value);

// Every field as a query string (no leading '?').
std::string toQuery(const State& s);

}  // namespace posenc::lab
