// The public JS API: `loadPosenc()` picks the SIMD or the scalar module and returns functions
// that throw RangeError/TypeError on bad input (see posenc.d.ts for types and ranges).
//
// The embind layer *returns* an Error object instead of throwing it across C++ frames (which
// would leak their memory); this file throws it, so callers see ordinary JS exceptions.

import { loadModule, simdSupported } from './loader.js';
import { API, ROPE_SCALINGS, arity } from './schema.js';

export { simdSupported };
// Written in JS over the functions loadPosenc returns (wasm/model.js); a bundle that never calls
// it leaves it out.
export { modelPositions } from './model.js';
export { ATTENTION_FAMILIES, loadTrainer, TRAIN_FAMILIES, TRAIN_FIELDS, TRAIN_TASKS } from './train.js';
export { API, LIMITS, ROPE_SCALINGS } from './schema.js';

// The signatures (wasm/schema.js) give each wrapper its arity: embind rejects calls with a
// different argument count, so missing trailing arguments are passed as undefined (the C++ side
// applies the defaults); extra ones are dropped. They also give the option keys each function
// takes: any other key is a TypeError here, before wasm is called (a binding never reads a key
// the schema lacks: wasm/bindings/api.gen.hpp has no name for it).

const TYPED_PROTOTYPES = new Set([
  Float32Array, Float64Array, Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array,
  Int32Array, Uint32Array, BigInt64Array, BigUint64Array,
].map((T) => T.prototype));

const MAX_COPY = 1 << 24;

// A copy of an argument that runs no caller code when the bindings read it. Getters, Proxy
// traps and shadowed `length`s run here, in JS, where a throw is harmless; inside wasm a throw
// would unwind past C++ frames (skipping their destructors and stack restore) and corrupt the
// module after enough calls.
function snapshot(value, depth = 0) {
  if (value === null || typeof value !== 'object') return value;
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    const proto = Object.getPrototypeOf(value);
    const plain = TYPED_PROTOTYPES.has(proto) && !Object.hasOwn(value, 'length') &&
      !Object.hasOwn(value, 'constructor');
    if (plain) return value;
    // The copy keeps what the bindings reject: BigInts (Number() would convert them) and an
    // oversized length (an empty copy used to pass as an empty array, so the call succeeded).
    if (value instanceof BigInt64Array || value instanceof BigUint64Array) return new BigInt64Array(0);
    const length = value.length;
    if (length > MAX_COPY) {
      const sparse = [];  // rejected by its length, as an oversized Array is below
      sparse[Math.min(length, 2 ** 32 - 1) - 1] = undefined;
      return sparse;
    }
    return Float64Array.from({ length }, (_, i) => Number(value[i]));
  }
  if (Array.isArray(value)) {
    const length = value.length;
    if (!(length <= MAX_COPY)) {
      // Carries the length for the bindings' size check. One element far out keeps V8's
      // elements sparse; `sparse.length = length` would allocate that many holes, which showed up
      // as rss growth in tests/js/errors.test.js.
      const sparse = [];
      sparse[Math.min(length, 2 ** 32 - 1) - 1] = undefined;
      return sparse;
    }
    return Array.from({ length }, (_, i) => (depth > 1 ? value[i] : snapshot(value[i], 2)));
  }
  // Any other object where a number or an array belongs: an empty one, which the bindings reject
  // by its kind (options objects are copied by copyOptions, below).
  return {};
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

// A key set to undefined counts as absent, as for the known keys; an unknown key's getter is not
// run (a caller's throwing getter under a key nobody reads used to be harmless, and still is).
function unknownKey(value, allowed, what) {
  for (const key of Object.keys(value)) {
    if (allowed.includes(key)) continue;
    const own = Object.getOwnPropertyDescriptor(value, key);
    if (!(own && 'value' in own && own.value === undefined)) {
      throw new TypeError(`${what(key)}; allowed: ${allowed.join(', ') || 'none'}`);
    }
  }
}

// options.scaling: the fields its type takes (ROPE_SCALINGS). An unknown or missing type is left
// to the binding, whose message lists the types.
const SCALING_FIELDS = [...new Set(Object.values(ROPE_SCALINGS).flatMap((s) => Object.keys(s.fields)))];
function copyScaling(fnName, value) {
  if (!isObject(value)) return snapshot(value, 1);
  const type = value.type;
  const variant = typeof type === 'string' && Object.hasOwn(ROPE_SCALINGS, type) ? ROPE_SCALINGS[type] : null;
  const keys = variant ? Object.keys(variant.fields) : SCALING_FIELDS;
  if (variant) {
    unknownKey(value, ['type', ...keys], (key) => `options.scaling.${key} is not a field of ${fnName}'s '${type}' scaling`);
  }
  const copy = { type: snapshot(type, 2) };
  for (const key of keys) {
    const v = value[key];
    if (v !== undefined) copy[key] = snapshot(v, 2);
  }
  return copy;
}

// The options argument: the keys its function takes, each copied; anything that is not an
// object goes on as it is, for the binding to reject by its kind.
function copyOptions(fnName, options, value) {
  if (!isObject(value)) return snapshot(value);
  const keys = Object.keys(options);
  unknownKey(value, keys, (key) => `options.${key} is not an option of ${fnName}()`);
  const copy = {};
  for (const key of keys) {
    const v = value[key];
    if (v === undefined) continue;
    copy[key] = options[key].type === 'scaling' ? copyScaling(fnName, v) : snapshot(v, 1);
  }
  return copy;
}

function wrap(fnName, spec, fn) {
  const positional = spec.args.length;
  const n = arity(spec);
  return (...args) => {
    const safe = new Array(n);
    for (let i = 0; i < positional; i++) safe[i] = snapshot(args[i]);
    if (spec.options) safe[positional] = copyOptions(fnName, spec.options, args[positional]);
    const result = fn(...safe);
    if (result instanceof Error) throw result;
    return result;
  };
}

/**
 * Loads the core. `simd: 'auto'` (default) probes the engine; `true`/`false` force a module
 * (forcing SIMD where it is unsupported throws). `baseUrl` is the folder holding the built
 * modules (default: ./dist/ beside this file). `modules` hands over modules that are already in
 * memory instead — { simd: { factory, wasmBinary }, scalar: {...} } — as the single-file build
 * does, where there is nothing to fetch.
 * @param {{simd?: 'auto'|boolean, baseUrl?: string|URL, modules?: object}} [options]
 */
export async function loadPosenc(options = {}) {
  const { module: m, simd: useSimd } = await loadModule('posenc', new URL('./dist/', import.meta.url), options);
  const api = { simd: useSimd };
  for (const [fnName, spec] of Object.entries(API)) api[fnName] = wrap(fnName, spec, m[fnName]);
  return Object.freeze(api);
}
