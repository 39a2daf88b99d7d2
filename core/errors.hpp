// Argument errors shared by every family.
//
// The core throws these before it allocates anything, so a caller (the doctest suite, the
// embind layer) can rely on "bad input -> one exception, nothing changed". The wasm layer maps
// them one to one onto JavaScript's RangeError and TypeError.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace posenc {

// A value of the right kind outside its allowed range (negative length, odd dim, NaN...).
class RangeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A value of the wrong kind (wrong array length, unknown option string).
class TypeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace detail {
// Numbers as JavaScript prints them where it matters: NaN, Infinity, -Infinity.
inline std::string fmt(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  // The shortest of %.15g / %.17g that reads back as v (snprintf, not iostreams: the streams
  // would add ~100 KB to the wasm modules).
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  if (std::strtod(buf, nullptr) != v) std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}
}  // namespace detail

// Integer in [lo, hi]; the message names the argument and the range, e.g.
// "dim must be an integer in [2, 8192], got 0".
inline void requireInt(const char* name, double v, double lo, double hi) {
  if (!(std::isfinite(v) && v == std::floor(v) && v >= lo && v <= hi)) {
    throw RangeError(std::string(name) + " must be an integer in [" + detail::fmt(lo) + ", " +
                     detail::fmt(hi) + "], got " + detail::fmt(v));
  }
}

// Finite real in [lo, hi] (NaN and infinities are rejected).
inline void requireReal(const char* name, double v, double lo, double hi) {
  if (!(std::isfinite(v) && v >= lo && v <= hi)) {
    throw RangeError(std::string(name) + " must be a finite number in [" + detail::fmt(lo) +
                     ", " + detail::fmt(hi) + "], got " + detail::fmt(v));
  }
}

// Finite real strictly greater than lo and at most hi.
inline void requireRealAbove(const char* name, double v, double lo, double hi) {
  if (!(std::isfinite(v) && v > lo && v <= hi)) {
    throw RangeError(std::string(name) + " must be a finite number in (" + detail::fmt(lo) +
                     ", " + detail::fmt(hi) + "], got " + detail::fmt(v));
  }
}

inline void requireEven(const char* name, int64_t v) {
  if (v % 2 != 0) {
    throw RangeError(std::string(name) + " must be even (it is split into pairs), got " +
                     std::to_string(v));
  }
}

inline void requireLength(const char* name, size_t got, size_t want) {
  if (got != want) {
    throw TypeError(std::string(name) + " must have length " + std::to_string(want) + ", got " +
                    std::to_string(got));
  }
}

// Every value finite; a branch-free pass first (the compiler vectorises it), and the loop that
// names the bad index only when there is one.
inline void requireFinite(const char* name, const float* v, size_t n) {
  bool bad = false;
  for (size_t i = 0; i < n; ++i) bad |= !(std::fabs(v[i]) < INFINITY);
  if (!bad) return;
  for (size_t i = 0; i < n; ++i) {
    if (!std::isfinite(v[i])) {
      throw RangeError(std::string(name) + "[" + std::to_string(i) +
                       "] must be a finite number, got " + detail::fmt(v[i]));
    }
  }
}

}  // namespace posenc
