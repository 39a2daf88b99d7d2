// The Lab's words: every string it shows comes from the page's catalog part lab.json
// (web/i18n/<lang>/lab.json), handed over as its JSON text (the browser's lab.js fetches it, the
// desktop build reads the file). Keys are the catalog's ("lab.family"); a value may hold {name}
// placeholders. Until a catalog is set, or for a key it lacks, the key itself is shown, so a
// missing string is visible rather than blank.
#pragma once

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace posenc::lab {

// Replaces the strings with those of a flat JSON object of strings (of several, merged: the
// desktop build reads lab.json and families.json). Returns false (and leaves the strings as they
// were) when a text is not one, with the reason in *error.
bool setStrings(const std::vector<std::string>& jsons, std::string* error = nullptr);
inline bool setStrings(const std::string& json, std::string* error = nullptr) {
  return setStrings(std::vector<std::string>{json}, error);
}

// The string for key (stable until the next setStrings).
const char* tr(const char* key);

// tr(key) with each {name} replaced by its value.
std::string trf(const char* key, std::initializer_list<std::pair<const char*, std::string>> vars);

// A number as printf's format writes it, with the catalog's decimal mark (lab.decimalMark) and
// the minus sign U+2212.
std::string num(double v, const char* format = "%.6g");
std::string num(int v);

// Every string of the catalog, for the font check (each code point must have a glyph).
std::vector<std::string> allStrings();

}  // namespace posenc::lab
