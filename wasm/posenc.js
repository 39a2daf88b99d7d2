// The public JS API: `loadPosenc()` picks the SIMD or the scalar module and returns functions
// that throw RangeError/TypeError on bad input (see posenc.d.ts for types and ranges).
//
// The embind layer *returns* an Error object instead of throwing it across C++ frames (which
// would leak their memory); this file throws it, so callers see ordinary JS exceptions.

import { loadModule, simdSupported } from './loader.js';

export { simdSupported };
export { loadTrainer, TRAIN_FAMILIES, TRAIN_FIELDS, TRAIN_TASKS } from './train.js';

// Fixed arities: embind rejects calls with a different argument count, so missing trailing
// arguments are passed as undefined (the C++ side applies the defaults); extra ones are dropped.
const API = {
  sinusoidal: 3,
  sinusoidalFrequencies: 2,
  sinusoidalDot: 4,
  learned: 3,
  ropeFrequencies: 2,
  ropeApply: 4,
  shawIndex: 3,
  t5Bucket: 2,
  alibiSlopes: 1,
  alibiBias: 3,
  alibiBiasBlock: 4,
  attention: 4,
  familyAttention: 4,
  softmax: 2,
  transformerXlTerms: 4,
  transformerXlRow: 4,
  transformerXlInputs: 4,
  sincos2d: 4,
  axialRope: 4,
  axialRopeScores: 6,
  learnedGrid: 4,
  interpolateGrid: 7,
  gridSimilarity: 4,
};

const TYPED_PROTOTYPES = new Set([
  Float32Array, Float64Array, Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array,
  Int32Array, Uint32Array, BigInt64Array, BigUint64Array,
].map((T) => T.prototype));

// Every option and scaling key the bindings read.
const OPTION_KEYS = [
  'base', 'offset', 'maxPositions', 'seed', 'std', 'layout', 'scaling', 'causal', 'bias', 'scale',
  'softmax', 'bidirectional', 'numBuckets', 'maxDistance', 'type', 'factor', 'seqLen',
  'originalMaxPositions', 'betaFast', 'betaSlow', 'mscale', 'mscaleAllDim', 'truncate',
  'attentionFactor', 'lowFreqFactor', 'highFreqFactor', 'shortFactor', 'longFactor',
  'rows', 'columns', 'query', 'heads', 'head',
  'cosine', 'q', 'alignCorners',
];
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
      // elements sparse; `sparse.length = length` would allocate that many holes (128 MiB
      // and ~100 ms for 2^24 + 1), which showed up as rss growth in tests/js/errors.test.js.
      const sparse = [];
      sparse[Math.min(length, 2 ** 32 - 1) - 1] = undefined;
      return sparse;
    }
    return Array.from({ length }, (_, i) => (depth > 1 ? value[i] : snapshot(value[i], 2)));
  }
  // Any other object is read as a bag of options: only the keys the bindings look at.
  const copy = {};
  if (depth > 1) return copy;
  for (const key of OPTION_KEYS) {
    const v = value[key];
    if (v !== undefined) copy[key] = snapshot(v, depth + 1);
  }
  return copy;
}

function wrap(m, fn, arity) {
  return (...args) => {
    const safe = new Array(arity);
    for (let i = 0; i < arity; i++) safe[i] = snapshot(args[i]);
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
  for (const [fnName, arity] of Object.entries(API)) api[fnName] = wrap(m, m[fnName], arity);
  return Object.freeze(api);
}
