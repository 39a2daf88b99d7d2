// Reading JavaScript arguments in the bindings, and turning results and errors into JS values.
//
// Every reader names the argument in its error. Type problems throw posenc::TypeError, range
// problems posenc::RangeError (the core checks the ranges of what it computes with). `guarded`
// turns either into a JS RangeError/TypeError object that the binding *returns*; the JS API
// (wasm/posenc.js) throws it. Returning instead of val::throw_() matters: a JS throw would skip
// the C++ destructors of the frames it crosses and leak wasm memory on every bad call.
#pragma once

#include <emscripten/val.h>
#include <new>

#include "core/errors.hpp"
#include "wasm/bindings/api.gen.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace posenc::js {

using emscripten::val;

bool isTypedArray(const val& v);

// A number (any finite or not: the core checks the range).
double number(const val& v, const std::string& name);

// The options argument: undefined or null (all defaults) or a plain object.
val options(const val& v, const std::string& name);

// Options are read through their schema entries (api.gen.hpp), never by a key written here: a
// key the schema lacks has no entry, so a binding cannot read it. Absent: the schema's default.
double numberOption(const val& opts, const api::NumberOption& f);
double numberOption(const val& opts, const api::BoundedOption& f, double fallback);  // computed default
bool boolOption(const val& opts, const api::BoolOption& f);
std::string stringOption(const val& opts, const api::StringOption& f);
template <class Field>
bool has(const val& opts, const Field& f) {
  return !opts[f.key].isUndefined();
}
template <class Field>
val field(const val& opts, const Field& f) {
  return opts[f.key];
}

// The schema's integer range of an argument or option, for the values a binding casts to int
// (the core checks the rest, and these again).
using posenc::requireInt;  // the core's (name, value, lo, hi), beside this overload
inline void requireInt(const api::Bounded& f, double v) { posenc::requireInt(f.name, v, f.min, f.max); }
template <class Field>
void requireIntOption(const Field& f, double v) {
  posenc::requireInt(f.name, v, f.min, f.max);
}

// An Array of numbers or a typed array, copied into wasm memory. `maxLength` is checked before
// anything is copied.
std::vector<double> numbers(const val& v, const std::string& name, size_t maxLength);
std::vector<float> floats(const val& v, const std::string& name, size_t maxLength);

// Positions: a count n (meaning 0..n-1) or an array of positions.
std::vector<double> positions(const val& v, const std::string& name);

// An output buffer without the zero fill of std::vector: every result is written in full, and
// the fill alone costs a noticeable share of a large table's time.
template <class T>
std::unique_ptr<T[]> uninitialized(size_t n) {
  return std::unique_ptr<T[]>(new T[n]);
}

val toFloat32Array(const float* data, size_t n);
val toFloat64Array(const double* data, size_t n);
val toInt32Array(const int32_t* data, size_t n);

// Runs f; a posenc::RangeError/TypeError (or bad_alloc) becomes a returned JS error object.
val errorValue(const char* kind, const std::string& message);

template <class F>
val guarded(F&& f) {
  const char* kind = nullptr;
  std::string message;
  try {
    return f();
  } catch (const RangeError& e) {
    kind = "RangeError";
    message = e.what();
  } catch (const TypeError& e) {
    kind = "TypeError";
    message = e.what();
  } catch (const std::bad_alloc&) {
    kind = "RangeError";
    message = "out of memory: the request is larger than the module can hold";
  } catch (const std::exception& e) {
    kind = "Error";
    message = e.what();
  }
  return errorValue(kind, message);
}

}  // namespace posenc::js
