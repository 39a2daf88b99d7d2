#include "lab_text.hpp"

#include <cstdio>
#include <cstdlib>
#include <map>

namespace posenc::lab {
namespace {

std::map<std::string, std::string>& strings() {
  static std::map<std::string, std::string> s;
  return s;
}

void appendUtf8(std::string& out, unsigned cp) {
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += char(0xE0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  } else {
    out += char(0xF0 | (cp >> 18));
    out += char(0x80 | ((cp >> 12) & 0x3F));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  }
}

// A JSON reader for exactly what a catalog part is: one object whose values are strings.
struct Reader {
  const std::string& s;
  size_t i = 0;
  std::string error;

  void space() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t')) ++i;
  }
  bool fail(const std::string& why) {
    if (error.empty()) error = why + " at offset " + std::to_string(i);
    return false;
  }
  bool hex4(unsigned& v) {
    if (i + 4 > s.size()) return fail("a short \\u escape");
    v = unsigned(std::strtoul(s.substr(i, 4).c_str(), nullptr, 16));
    i += 4;
    return true;
  }
  bool string(std::string& out) {
    if (i >= s.size() || s[i] != '"') return fail("a string was expected");
    ++i;
    while (i < s.size() && s[i] != '"') {
      const char c = s[i++];
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i >= s.size()) return fail("an unfinished escape");
      const char e = s[i++];
      switch (e) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'u': {
          unsigned cp = 0;
          if (!hex4(cp)) return false;
          if (cp >= 0xD800 && cp < 0xDC00 && i + 6 <= s.size() && s[i] == '\\' && s[i + 1] == 'u') {
            i += 2;
            unsigned lo = 0;
            if (!hex4(lo)) return false;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          }
          appendUtf8(out, cp);
          break;
        }
        default: out += e;  // \" \\ \/
      }
    }
    if (i >= s.size()) return fail("an unterminated string");
    ++i;
    return true;
  }
  bool object(std::map<std::string, std::string>& out) {
    space();
    if (i >= s.size() || s[i] != '{') return fail("an object was expected");
    ++i;
    space();
    if (i < s.size() && s[i] == '}') return ++i, true;
    for (;;) {
      std::string key, value;
      space();
      if (!string(key)) return false;
      space();
      if (i >= s.size() || s[i] != ':') return fail("':' was expected");
      ++i;
      space();
      if (!string(value)) return fail("the value of " + key + " must be a string");
      out[key] = value;
      space();
      if (i < s.size() && s[i] == ',') {
        ++i;
        continue;
      }
      if (i < s.size() && s[i] == '}') return ++i, true;
      return fail("',' or '}' was expected");
    }
  }
};

}  // namespace

bool setStrings(const std::vector<std::string>& jsons, std::string* error) {
  std::map<std::string, std::string> next;
  for (const std::string& json : jsons) {
    Reader r{json, 0, {}};
    if (!r.object(next)) {
      if (error) *error = r.error;
      return false;
    }
  }
  strings() = std::move(next);
  return true;
}

const char* tr(const char* key) {
  const auto& s = strings();
  const auto it = s.find(key);
  return it == s.end() ? key : it->second.c_str();
}

std::string trf(const char* key, std::initializer_list<std::pair<const char*, std::string>> vars) {
  std::string out = tr(key);
  for (const auto& [name, value] : vars) {
    const std::string mark = std::string("{") + name + "}";
    for (size_t at = out.find(mark); at != std::string::npos; at = out.find(mark, at + value.size())) {
      out.replace(at, mark.size(), value);
    }
  }
  return out;
}

std::string num(double v, const char* format) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  const std::string mark = tr("lab.decimalMark");
  std::string out;
  for (const char* p = buf; *p; ++p) {
    if (*p == '.') out += mark == "lab.decimalMark" ? "." : mark;
    else if (*p == '-') out += "\xE2\x88\x92";  // U+2212, as the page writes negatives
    else out += *p;
  }
  return out;
}

std::string num(int v) { return num(double(v), "%.0f"); }

std::vector<std::string> allStrings() {
  std::vector<std::string> out;
  for (const auto& [key, value] : strings()) out.push_back(value);
  return out;
}

}  // namespace posenc::lab
