// Reading a pasted config.json safely: one object at a time, own data properties only, every value
// checked for kind and range before it is used, every key that was looked at remembered so the
// rest can be listed as ignored. Nothing here uses a caller's string as a key of an object of ours
// (results are built from fixed names, and lookups go through Object.hasOwn on the caller's own
// object), and nothing recurses into objects it was not told to read, so hostile input (prototype
// keys, getters, deep nesting, huge arrays) ends in a named TypeError/RangeError or is listed.

/** Caps on what one config may hold; a real config.json is far inside each of them. */
export const CONFIG_LIMITS = /* @__PURE__ */ Object.freeze({
  keys: 4096,          // keys of one object
  keyLength: 256,      // characters of one key
  layers: 4096,        // num_hidden_layers and per-layer lists
  list: 8192,          // any list read (per-pair factors, layer lists)
  position: 2 ** 31 - 1,
});

const show = (v) => {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'symbol') return 'a symbol';
  return String(v);
};

/** A bound as the messages write it (2^31 − 1 spelled out, 1e12 not 1000000000000). */
const bound = (v) => (v === 2 ** 31 - 1 ? '2^31 − 1' : v >= 1e6 && Number.isInteger(Math.log10(v)) ? `1e${Math.log10(v)}` : String(v));

export const isPlainObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v) && !ArrayBuffer.isView(v);

/**
 * One object of the config at `path` ('' for the root). get() marks a key as read; rest() lists the
 * keys nobody read.
 */
export class Fields {
  constructor(object, path) {
    if (!isPlainObject(object)) {
      throw new TypeError(`${path || 'config'} must be an object (a parsed config.json), got ${show(object)}`);
    }
    const keys = guarded(() => Object.keys(object), path || 'config');
    if (keys.length > CONFIG_LIMITS.keys) {
      throw new RangeError(`${path || 'config'} has ${keys.length} keys; at most ${CONFIG_LIMITS.keys}`);
    }
    for (const key of keys) {
      if (key.length > CONFIG_LIMITS.keyLength) {
        throw new RangeError(`${path || 'config'} has a key of ${key.length} characters; at most ${CONFIG_LIMITS.keyLength}`);
      }
    }
    this.object = object;
    this.path = path;
    this.keys = keys;
    this.read = new Set();
  }

  /** The dotted name of a key, for messages and the ignored list. */
  name(key) {
    return this.path ? `${this.path}.${key}` : key;
  }

  /**
   * True when the key is present with a value other than null (Python's "set and not None"). A
   * present key counts as read, null or not: the reader looked at it and acted on what it found.
   */
  has(key) {
    if (!Object.hasOwn(this.object, key)) return false;
    this.read.add(key);
    const v = this.peek(key);
    return v !== null && v !== undefined;  // a JS caller's undefined counts as absent, as in JSON
  }

  /** The raw value without marking the key as read: undefined when absent. */
  peek(key) {
    const d = guarded(() => (Object.hasOwn(this.object, key) ? Object.getOwnPropertyDescriptor(this.object, key) : null), this.name(key));
    if (d === null) return undefined;
    if (!d || !('value' in d)) throw new TypeError(`${this.name(key)} must be plain data, not a getter`);
    return d.value;
  }

  /** The value, marked as read; undefined when absent. */
  get(key) {
    const v = this.peek(key);
    if (v !== undefined) this.read.add(key);
    return v;
  }

  /** Marks a present key as read without using it (a value HF looks at and then discards). */
  touch(key) {
    if (Object.hasOwn(this.object, key)) this.read.add(key);
  }

  /** A number in [min, max] (or (min, max] with exclusiveMin); `fallback` when absent or null. */
  number(key, { min, max, exclusiveMin = false, integer = false, fallback } = {}) {
    const v = this.get(key);
    if (v === undefined || v === null) {
      if (fallback === undefined) throw new TypeError(`${this.name(key)} is missing: it must be ${integer ? 'an integer' : 'a number'} in ${exclusiveMin ? '(' : '['}${bound(min)}, ${bound(max)}]`);
      return fallback;
    }
    return checkNumber(v, this.name(key), { min, max, exclusiveMin, integer });
  }

  /** An integer in [min, max]; `fallback` when absent or null. */
  int(key, min, max, fallback) {
    return this.number(key, { min, max, integer: true, fallback });
  }

  /** A boolean; `fallback` when absent or null. */
  bool(key, fallback) {
    const v = this.get(key);
    if (v === undefined || v === null) return fallback;
    if (typeof v !== 'boolean') throw new TypeError(`${this.name(key)} must be true or false, got ${show(v)}`);
    return v;
  }

  /** One of `allowed` strings; `fallback` when absent or null. */
  choice(key, allowed, fallback) {
    const v = this.get(key);
    if (v === undefined || v === null) return fallback;
    if (typeof v !== 'string' || !allowed.includes(v)) {
      throw new TypeError(`${this.name(key)} must be one of ${allowed.map((a) => `'${a}'`).join(', ')}, got ${show(v)}`);
    }
    return v;
  }

  /** A string of at most 64 characters (model_type and the like); `fallback` when absent or null. */
  string(key, fallback) {
    const v = this.get(key);
    if (v === undefined || v === null) return fallback;
    if (typeof v !== 'string') throw new TypeError(`${this.name(key)} must be a string, got ${show(v)}`);
    if (v.length > 64) throw new RangeError(`${this.name(key)} is ${v.length} characters long; at most 64`);
    return v;
  }

  /** A list (Array or typed array) of at most `maxLength` items, copied; `fallback` when absent or null. */
  list(key, maxLength, fallback) {
    const v = this.get(key);
    if (v === undefined || v === null) return fallback;
    return copyList(v, this.name(key), maxLength);
  }

  /** The object under `key` as Fields, or null when absent or null. */
  child(key) {
    const v = this.get(key);
    if (v === undefined || v === null) return null;
    return new Fields(v, this.name(key));
  }

  /** Every key not read, with why: [{ field, reason }]. */
  rest(reason = 'not-read') {
    return this.keys.filter((k) => !this.read.has(k)).map((k) => ({ field: this.name(k), reason }));
  }
}

// A Proxy's traps are the only caller code that reading own data can run; one that throws makes
// the object unreadable, which is said as a TypeError naming where (JSON.parse makes no Proxy).
function guarded(read, name) {
  try {
    return read();
  } catch (err) {
    throw new TypeError(`${name} could not be read as plain data (${err?.message ?? err})`);
  }
}

/** Checks one number: TypeError for another kind, RangeError for NaN, ±Infinity or out of range. */
export function checkNumber(v, name, { min, max, exclusiveMin = false, integer = false }) {
  if (typeof v !== 'number') throw new TypeError(`${name} must be a number, got ${show(v)}`);
  const range = `${integer ? 'an integer' : 'a number'} in ${exclusiveMin ? '(' : '['}${bound(min)}, ${bound(max)}]`;
  const inside = exclusiveMin ? v > min : v >= min;
  if (!(inside && v <= max) || (integer && !Number.isInteger(v))) throw new RangeError(`${name} must be ${range}, got ${show(v)}`);
  return v;
}

/** A plain copy of a list, read through its own length and indices (no iterator, no getters run). */
export function copyList(v, name, maxLength) {
  const typed = ArrayBuffer.isView(v) && !(v instanceof DataView);
  if (!Array.isArray(v) && !typed) throw new TypeError(`${name} must be a list, got ${show(v)}`);
  const length = guarded(() => (typed ? v.length : Object.getOwnPropertyDescriptor(v, 'length')?.value), name);
  if (!(length <= maxLength)) throw new RangeError(`${name} has ${length} items; at most ${maxLength}`);
  const out = new Array(length);
  for (let i = 0; i < length; i++) {
    if (typed) {
      out[i] = v[i];
      continue;
    }
    const d = guarded(() => Object.getOwnPropertyDescriptor(v, i), `${name}[${i}]`);
    if (d && !('value' in d)) throw new TypeError(`${name}[${i}] must be plain data, not a getter`);
    out[i] = d ? d.value : undefined;
  }
  return out;
}

/** A list of numbers each checked as checkNumber does, named name[i]. */
export function numberList(list, name, range) {
  return list.map((x, i) => checkNumber(x, `${name}[${i}]`, range));
}
