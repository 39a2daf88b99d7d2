#include "lab_state.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <vector>

#include "core/families/registry.hpp"

namespace posenc::lab {
namespace {

struct Choice {
  const char* name;
  int value;
};
// A family the registry adds to its figure families needs its drawing here (lab_model.cpp).
static_assert(int(Family::Alibi) + 1 == kFamilies, "the Lab draws every figure family of the registry");
const Choice kScalings[] = {{"default", int(RopeScalingType::Default)}, {"linear", int(RopeScalingType::Linear)},
                            {"dynamic", int(RopeScalingType::Dynamic)}, {"yarn", int(RopeScalingType::Yarn)},
                            {"llama3", int(RopeScalingType::Llama3)},   {"longrope", int(RopeScalingType::Longrope)}};
const Choice kLayouts[] = {{"half", int(RopeLayout::Half)}, {"interleaved", int(RopeLayout::Interleaved)}};

template <size_t N>
const char* nameOf(const Choice (&list)[N], int value) {
  for (const Choice& c : list) if (c.value == value) return c.name;
  return list[0].name;
}
template <size_t N>
bool valueOf(const Choice (&list)[N], const std::string& name, int& out) {
  for (const Choice& c : list) {
    if (name == c.name) {
      out = c.value;
      return true;
    }
  }
  return false;
}

bool parseNumber(const std::string& text, double& out) {
  if (text.empty()) return false;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(v)) return false;
  out = v;
  return true;
}
bool parseBool(const std::string& text, bool& out) {
  if (text == "1" || text == "true") out = true;
  else if (text == "0" || text == "false") out = false;
  else return false;
  return true;
}

std::string decode(const std::string& in) {  // %XX and '+' of a query string
  std::string out;
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] == '+') out += ' ';
    else if (in[i] == '%' && i + 2 < in.size() + 0 && std::isxdigit(static_cast<unsigned char>(in[i + 1])) &&
             std::isxdigit(static_cast<unsigned char>(in[i + 2]))) {
      out += static_cast<char>(std::strtol(in.substr(i + 1, 2).c_str(), nullptr, 16));
      i += 2;
    } else out += in[i];
  }
  return out;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

}  // namespace

const NumberField kNumberFields[] = {
    {"len", nullptr, &State::len, 2, 2048, true},
    {"d", nullptr, &State::d, 2, 256, true, "", nullptr, true},
    {"base", &State::base, nullptr, 2, 1e7, true, "%.0f"},
    {"factor", &State::factor, nullptr, 1, 128, true},
    {"orig", nullptr, &State::orig, 16, 1 << 20, true},
    {"betaFast", &State::betaFast, nullptr, 0.5, 256, true},
    {"betaSlow", &State::betaSlow, nullptr, 0.0625, 256, true},
    {"lowFreq", &State::lowFreq, nullptr, 0.25, 64, true},
    {"highFreq", &State::highFreq, nullptr, 0.25, 64, true},
    {"heads", nullptr, &State::heads, 1, 64, true},
    {"head", nullptr, &State::head, 0, 63, false, "", &State::heads},
    {"buckets", nullptr, &State::buckets, 4, 512, true, "", nullptr, true},
    {"maxDistance", nullptr, &State::maxDistance, 2, 65536, true},
    {"table", nullptr, &State::table, 1, 8192, true},
    {"seed", nullptr, &State::seed, 0, 1000},
    {"qpos", nullptr, &State::qpos, 0, 2047, false, "", &State::len},
    {"kpos", nullptr, &State::kpos, 0, 2047, false, "", &State::len},
    {"pos", nullptr, &State::pos, 0, 2047, false, "", &State::len},
    {"dim", nullptr, &State::dim, 0, 511, false, "", &State::d},
};
const int kNumberFieldCount = int(std::size(kNumberFields));

const NumberField* numberField(const std::string& key) {
  for (const NumberField& f : kNumberFields) if (key == f.key) return &f;
  return nullptr;
}

double topOf(const NumberField& f, const State& s) { return f.below ? std::min(f.max, double(s.*f.below - 1)) : f.max; }

const char* familyName(Family f) {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (int id = 0; id < kFamilies; ++id) v.push_back(families::familyName(id));
    return v;
  }();
  return names[size_t(std::clamp(int(f), 0, kFamilies - 1))].c_str();
}
const char* scalingName(RopeScalingType t) { return nameOf(kScalings, int(t)); }

int rotaryDims(Family f, int d) {
  int dims = 0;
  families::visit(int(f), [&](auto fam) {
    using Fam = decltype(fam);
    if constexpr (Fam::kRotates) {
      families::FamilyShape shape;
      shape.dModel = shape.headDim = d;
      dims = Fam::rotaryDims(shape);
    }
  });
  return dims;
}

void clamp(State& s) {
  // In the table's order, so a field's top is read after the field it depends on was clamped.
  for (const NumberField& f : kNumberFields) {
    if (f.real) {
      s.*f.real = std::clamp(s.*f.real, f.min, topOf(f, s));
      continue;
    }
    int& v = s.*f.integer;
    v = std::clamp(v, int(f.min), int(topOf(f, s)));
    if (f.even) v -= v % 2;  // (every even field's min is even, so this stays in range)
  }
}

bool applyParam(State& s, const std::string& key, const std::string& value) {
  int choice = 0;
  bool flag = false;
  if (key == "family") {
    // The registry's names only (an old URL's 'relative' is mapped in applyQuery).
    bool found = false;
    for (int id = 0; id < kFamilies && !found; ++id) {
      if (value == familyName(Family(id))) s.family = Family(id), found = true;
    }
    if (!found) return false;
  } else if (key == "scaling") {
    if (!valueOf(kScalings, value, choice)) return false;
    s.scaling = RopeScalingType(choice);
  } else if (key == "layout") {
    if (!valueOf(kLayouts, value, choice)) return false;
    s.layout = RopeLayout(choice);
  } else if (key == "causal") {
    if (!parseBool(value, flag)) return false;
    s.causal = flag;
  } else {
    const NumberField* field = numberField(key);
    double v = 0;
    if (!field || !parseNumber(value, v)) return false;
    v = std::clamp(v, field->min, field->max);
    if (field->real) s.*field->real = v;
    else s.*field->integer = int(std::lround(v));
  }
  clamp(s);
  return true;
}

bool applyQuery(State& s, const std::string& query) {
  size_t start = (!query.empty() && query[0] == '?') ? 1 : 0;
  bool any = false;
  // Lengths first, so that positions given in the same query are clamped to the new length.
  std::vector<std::pair<std::string, std::string>> pairs;
  while (start < query.size()) {
    size_t end = query.find('&', start);
    if (end == std::string::npos) end = query.size();
    const std::string item = query.substr(start, end - start);
    const size_t eq = item.find('=');
    if (eq != std::string::npos) pairs.emplace_back(decode(item.substr(0, eq)), decode(item.substr(eq + 1)));
    start = end + 1;
  }
  // Links made before the family names were the registry's say family=relative for T5 (the
  // attention step's old name): they still open T5. Only a URL is read this way; set() and the
  // URL the Lab writes take 't5'.
  for (auto& [k, v] : pairs) {
    if (k == "family" && v == "relative") v = "t5";
  }
  std::stable_partition(pairs.begin(), pairs.end(), [](const auto& p) {
    return p.first == "len" || p.first == "d" || p.first == "heads";
  });
  for (const auto& [k, v] : pairs) any = applyParam(s, k, v) || any;
  return any;
}

std::string toQuery(const State& s) {
  std::string q = std::string("family=") + familyName(s.family);
  q += std::string("&layout=") + nameOf(kLayouts, int(s.layout));
  q += std::string("&scaling=") + scalingName(s.scaling);
  q += std::string("&causal=") + (s.causal ? "1" : "0");
  for (const NumberField& f : kNumberFields) {
    q += std::string("&") + f.key + "=" + (f.real ? number(s.*f.real) : std::to_string(s.*f.integer));
  }
  return q;
}

}  // namespace posenc::lab
