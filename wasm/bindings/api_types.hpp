// The kinds of field wasm/bindings/api.gen.hpp declares (generated from wasm/schema.js): a
// positional argument's name and bounds, an option's key, the name its errors use, its bounds
// and its default. The readers in args.hpp take these instead of string literals.
#pragma once

namespace posenc::js::api {

struct Named {  // an array, a string or positions: the binding's reader checks its kind
  const char* name;
};
struct Bounded {  // a number with the schema's [min, max]
  const char* name;
  double min, max;
};
struct Option {  // an array or object option, or one whose default the binding computes
  const char* key;
  const char* name;
};
struct BoundedOption {  // a number without a fixed default
  const char* key;
  const char* name;
  double min, max;
};
struct NumberOption {
  const char* key;
  const char* name;
  double min, max, fallback;
};
struct BoolOption {
  const char* key;
  const char* name;
  bool fallback;
};
struct StringOption {
  const char* key;
  const char* name;
  const char* fallback;
};

}  // namespace posenc::js::api
