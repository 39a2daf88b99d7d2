#include <new>

#include "core/errors.hpp"
#include "core/limits.hpp"
#include "wasm/bindings/args.hpp"

namespace posenc::js {
namespace {

std::string typeName(const val& v) {
  if (v.isNull()) return "null";
  if (v.isArray()) return "Array";
  if (isTypedArray(v)) return v["constructor"]["name"].as<std::string>();
  return v.typeOf().as<std::string>();
}

}  // namespace

bool isTypedArray(const val& v) {
  return v.typeOf().as<std::string>() == "object" && !v.isNull() &&
         val::global("ArrayBuffer").call<bool>("isView", v) &&
         !v.instanceof(val::global("DataView"));
}

double number(const val& v, const std::string& name) {
  if (!v.isNumber()) throw TypeError(name + " must be a number, got " + typeName(v));
  return v.as<double>();
}

val options(const val& v, const std::string& name) {
  if (v.isUndefined() || v.isNull()) return val::object();
  if (v.typeOf().as<std::string>() != "object" || v.isArray()) {
    throw TypeError(name + " must be an object of options, got " + typeName(v));
  }
  return v;
}

double numberOption(const val& opts, const api::NumberOption& f) {
  const val v = opts[f.key];
  return v.isUndefined() ? f.fallback : number(v, f.name);
}

double numberOption(const val& opts, const api::BoundedOption& f, double fallback) {
  const val v = opts[f.key];
  return v.isUndefined() ? fallback : number(v, f.name);
}

bool boolOption(const val& opts, const api::BoolOption& f) {
  const val v = opts[f.key];
  if (v.isUndefined()) return f.fallback;
  if (v.typeOf().as<std::string>() != "boolean") {
    throw TypeError(std::string(f.name) + " must be true or false, got " + typeName(v));
  }
  return v.as<bool>();
}

std::string stringOption(const val& opts, const api::StringOption& f) {
  const val v = opts[f.key];
  if (v.isUndefined()) return f.fallback;
  if (!v.isString()) throw TypeError(std::string(f.name) + " must be a string, got " + typeName(v));
  return v.as<std::string>();
}

template <class T>
static std::vector<T> arrayOf(const val& v, const std::string& name, size_t maxLength) {
  const bool typed = isTypedArray(v);
  if (!typed && !v.isArray()) {
    throw TypeError(name + " must be an Array of numbers or a typed array, got " + typeName(v));
  }
  const double length = v["length"].as<double>();
  if (length > double(maxLength)) {
    throw RangeError(name + ".length must be at most " + std::to_string(maxLength) + ", got " +
                     detail::fmt(length));
  }
  if (!typed) {
    // A plain Array could hold strings or objects that Number() would quietly convert.
    const size_t n = size_t(length);
    for (size_t i = 0; i < n; ++i) {
      if (!v[i].isNumber()) {
        throw TypeError(name + "[" + std::to_string(i) + "] must be a number, got " + typeName(v[i]));
      }
    }
  }
  if (typed && v["constructor"]["name"].as<std::string>().find("BigInt") != std::string::npos) {
    throw TypeError(name + " must hold numbers, not BigInts");
  }
  return emscripten::convertJSArrayToNumberVector<T>(v);
}

std::vector<double> numbers(const val& v, const std::string& name, size_t maxLength) {
  return arrayOf<double>(v, name, maxLength);
}

std::vector<float> floats(const val& v, const std::string& name, size_t maxLength) {
  return arrayOf<float>(v, name, maxLength);
}

std::vector<double> positions(const val& v, const std::string& name) {
  if (v.isNumber()) {
    const double n = v.as<double>();
    requireInt(name.c_str(), n, 0, kMaxRows);
    std::vector<double> p(static_cast<size_t>(n));
    for (size_t i = 0; i < p.size(); ++i) p[i] = double(i);
    return p;
  }
  if (!v.isArray() && !isTypedArray(v)) {
    throw TypeError(name + " must be a count or an array of positions, got " + typeName(v));
  }
  return numbers(v, name, kMaxRows);
}

val toFloat32Array(const float* data, size_t n) {
  return val::global("Float32Array").new_(emscripten::typed_memory_view(n, data));
}

val toFloat64Array(const double* data, size_t n) {
  return val::global("Float64Array").new_(emscripten::typed_memory_view(n, data));
}

val toInt32Array(const int32_t* data, size_t n) {
  return val::global("Int32Array").new_(emscripten::typed_memory_view(n, data));
}

val errorValue(const char* kind, const std::string& message) {
  return val::global(kind).new_(val(message));
}

}  // namespace posenc::js
