// Bad input on both builds: every function throws a RangeError (right kind, wrong range) or a
// TypeError (wrong kind: not a number, not an array, unknown name, wrong array length) whose
// message names the argument, and the instance keeps answering correctly afterwards. Then a
// seeded fuzz of hostile calls (some behind Proxies and getters), a check that memory stays
// bounded, a check inside fresh modules that bad calls fail before allocating their result, and
// errors thrown by the caller's own getters.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';

import { loadPosenc } from '../../wasm/posenc.js';
import { API, ROPE_SCALINGS } from '../../wasm/schema.js';
import { TOL, assertAllClose, loadBoth, moduleName, prng } from './helpers.js';
import { ATTENTION_FAMILIES } from '../../wasm/train.js';

const modules = await loadBoth();

// [KNOWN CASES] -----------------------------------------------------------------------------
// A handful of cheap calls with values derived by hand, one per family: after an error the
// instance must still give exactly these.
const ALIBI_6 = [1 / 4, 1 / 16, 1 / 64, 1 / 256, 1 / 2, 1 / 8];
function assertStillWorks(pe, after = 'the error') {
  const where = `${moduleName(pe)} after ${after}`;
  assertAllClose(pe.sinusoidal(1, 2, { offset: 1 }), [Math.sin(1), Math.cos(1)], TOL.f32, `${where}: sinusoidal`);
  assertAllClose(pe.ropeApply([1, 0], [2], 2), [Math.cos(2), Math.sin(2)], TOL.f32, `${where}: ropeApply`);
  assert.deepEqual([...pe.t5Bucket([-64, 64])], [14, 30], `${where}: t5Bucket`);
  assertAllClose(pe.alibiSlopes(6), ALIBI_6, TOL.alibi, `${where}: alibiSlopes`);
  assertAllClose(pe.attention([1, 0], [1, 0, 0, 1], 2, { scale: 1 }), [Math.E / (Math.E + 1), 1 / (Math.E + 1)], TOL.attention, `${where}: attention`);
  // The functions of the later steps: -0.5·|2 - k| with k = 3 masked; patch (0, 1) of a 1 x 2
  // grid turns the first pair by 1 radian (ω_0 = 1); bilinear 2 x 2 -> 1 x 1 is the mean; dot
  // products with the row [3, 4]; a single token attends to itself.
  assertAllClose(pe.alibiBiasBlock([2], 4, 0.5), [-1, -0.5, 0, -Infinity], { abs: 0 }, `${where}: alibiBiasBlock`);
  assertAllClose(pe.sincos2d(1, 2, 4), [0, 1, 0, 1, Math.sin(1), Math.cos(1), 0, 1], TOL.f32, `${where}: sincos2d`);
  assertAllClose(pe.axialRope([1, 0, 0, 1], 1, 2), [1, 0, 0, 1, Math.cos(1), Math.sin(1), 0, 1], TOL.f32, `${where}: axialRope`);
  assertAllClose(pe.axialRopeScores(1, 2, 4, 0, 0, { q: [1, 0, 0, 0] }), [1, Math.cos(1)], TOL.f32, `${where}: axialRopeScores`);
  assert.deepEqual([...pe.interpolateGrid([0, 1, 2, 3], 2, 2, 1, 1, 1)], [1.5], `${where}: interpolateGrid`);
  assert.deepEqual([...pe.gridSimilarity([1, 0, 0, 2, 3, 4], 2, 2)], [3, 8, 25], `${where}: gridSimilarity`);
  assert.deepEqual([...pe.familyAttention('rope', 1, 2).probs], [1], `${where}: familyAttention`);
}

// [BAD VALUES] ------------------------------------------------------------------------------
const describeValue = (v) => {
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'symbol' || typeof v === 'function') return String(v);
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return v.length > 8 ? `Array(${v.length})` : `[${v.map(describeValue).join(', ')}]`;
  if (ArrayBuffer.isView(v)) return `${v.constructor.name}(${v.length ?? v.byteLength})`;
  if (v && typeof v === 'object') {
    if (v.constructor?.name !== 'Object') return `a ${v.constructor?.name ?? 'null-prototype'} object`;
    return `{${Object.entries(v).map(([key, x]) => `${key}: ${describeValue(x)}`).join(', ')}}`;
  }
  return String(v);
};

// Not numbers at all: a TypeError wherever a number is expected.
const NOT_NUMBERS = ['3', '', null, {}, [3], 3n, true, Symbol('three'), () => 3, new Number(3), { valueOf: () => 3 }];
// ... and undefined too, for positional arguments (options fall back to their defaults).
const NOT_NUMBERS_POSITIONAL = [...NOT_NUMBERS, undefined];
// Not an options object: a TypeError.
const NOT_OBJECTS = ['base', 5, true, 5n, [], [1, 2], Symbol('o'), () => ({})];
// Not an array of numbers: a TypeError (strings, objects, null, BigInts, holes, DataView).
const NOT_ARRAYS = ['1,2', 7n, null, {}, { length: 2, 0: 1, 1: 2 }, true, new DataView(new ArrayBuffer(8))];
// Arrays with a bad element; [1, , 3] has a hole. A subclass of a typed array is copied by the
// JS glue (wasm/posenc.js), and the copy must still hold BigInts, not Number()s of them.
class BigIntSubclass extends BigInt64Array {}
const BAD_ELEMENTS = [['1'], [1, 'a'], [null], [{}], [1n], [undefined], [1, , 3], [[1]], new BigInt64Array(2), BigIntSubclass.of(1n, 2n)];

/** Integers outside [lo, hi] or not integers at all: a RangeError. */
const badInts = (lo, hi) => [NaN, Infinity, -Infinity, lo - 1, lo + 0.5, hi + 1, 2 ** 53, -1e300];
/** Reals outside [lo, hi] (or NaN, infinities): a RangeError. */
const badReals = (lo, hi) => [NaN, Infinity, -Infinity, lo - 1e-9 * Math.max(1, Math.abs(lo)) - 1e-300, hi * (1 + 1e-9) + 1e-300];

/**
 * A sparse Array claiming more elements than the caps allow, without allocating them (one
 * element far out puts V8 in dictionary mode; `a.length = n` would allocate n holes).
 */
const hugeSparse = (length) => {
  const a = [];
  a[length - 1] = 0;
  return a;
};

// An oversized typed array the glue has to copy (its own `length` makes it non-plain): it must
// be rejected by its length, not copied as an empty array that a binding then accepts.
const shadowedLength = (length) => Object.defineProperty(new Float64Array(2), 'length', { value: length });

// The caps of core/limits.hpp (and alibiBias's length <= 4096 in core/alibi.cpp).
const CAP = { dim: 8192, rows: 2 ** 20, elements: 2 ** 24, heads: 4096, buckets: 4096, distance: 2 ** 24, position: 2 ** 31 - 1, base: 1e12, factor: 1e6 };

// [FROM THE SCHEMA] -------------------------------------------------------------------------
// Every argument and option of wasm/schema.js, from its valid example call: each wrong kind, each
// bound crossed (below min, above max, not an integer, odd, not a multiple), NaN and the
// infinities; each options argument that is no object, and a key the function does not take; each
// RoPE scaling field missing, of the wrong kind or out of range, and a field its type lacks. The
// message must name the field. What the schema cannot state (lengths that depend on other
// arguments, element values, relations) is in the hand-written catalogue below.
const word = (name) => new RegExp(`\\b${name.replace('.', '\\.')}\\b`);

/** Values outside a number field's range: RangeError. */
function outOfRange(f) {
  const bad = f.type === 'int' ? badInts(f.min, f.max) : badReals(f.min, f.max);
  if (f.exclusiveMin) bad.push(f.min);
  if (f.even) bad.push(f.min + 1);
  if (f.multipleOf) bad.push(f.min + f.multipleOf / 2);
  return bad;
}

/** [label, value, class, pattern] for a field of the schema called `label` (e.g. options.base). */
function fieldCases(f, label, { positional }) {
  const out = [];
  const push = (v, cls, pattern = word(label)) => out.push([`${label} = ${describeValue(v)}`, v, cls, pattern]);
  const notGiven = positional ? [undefined] : [];
  switch (f.type) {
    case 'int':
    case 'number':
      for (const v of positional ? NOT_NUMBERS_POSITIONAL : NOT_NUMBERS) push(v, TypeError);
      for (const v of outOfRange(f)) push(v, RangeError);
      break;
    case 'bool':
      for (const v of ['true', 1, 0, null, {}, 1n]) push(v, TypeError);
      break;
    case 'string':
      for (const v of [3, null, ...notGiven, {}, [f.oneOf[0]], 3n, true, Symbol('s'), new String(f.oneOf[0])]) push(v, TypeError);
      // An unknown name is the core's to reject (the name parsers), by the bare key.
      for (const v of ['', f.oneOf[0].toUpperCase(), `${f.oneOf[0]} `, 'bogus']) push(v, TypeError, word(label.split('.').pop()));
      break;
    case 'positions':
      for (const v of [NaN, Infinity, -1, 1.5, f.maxLength + 1]) push(v, RangeError);
      for (const v of ['3', ...notGiven, 3n, true, Symbol('p'), ...NOT_ARRAYS, ...BAD_ELEMENTS]) push(v, TypeError);
      for (const v of [[NaN], [Infinity], [-1], [0.5]]) push(v, RangeError, new RegExp(`\\b${label}\\[0\\]`));
      push(hugeSparse(f.maxLength + 1), RangeError, new RegExp(`\\b${label}\\.length`));
      push(shadowedLength(CAP.elements + 1), RangeError, new RegExp(`\\b${label}\\.length`));
      break;
    case 'numbers':
    case 'floats':
      for (const v of [...NOT_ARRAYS, 'ab', 4, ...notGiven, ...BAD_ELEMENTS]) if (!(f.nullable && v === null)) push(v, TypeError);
      push(hugeSparse(f.maxLength + 1), RangeError, new RegExp(`\\b${label.replace('.', '\\.')}\\.length`));
      push(shadowedLength(CAP.elements + 1), RangeError, new RegExp(`\\b${label.replace('.', '\\.')}\\.length`));
      break;
    case 'scaling':
      for (const v of ['linear', 5, true, [], 3n]) push(v, TypeError);
      break;
    default:
      throw new Error(`no bad values for the schema's kind ${f.type}`);
  }
  return out;
}

function schemaCatalogue(add) {
  for (const [fn, spec] of Object.entries(API)) {
    const call = (args) => (pe) => pe[fn](...args);
    spec.args.forEach((f, i) => {
      for (const [label, v, cls, pattern] of fieldCases(f, f.name, { positional: true })) {
        const args = [...spec.example];
        args[i] = v;
        add(fn, `${label} (schema)`, call(args), cls, pattern);
      }
    });
    if (!spec.options) continue;
    const keys = Object.keys(spec.options);
    for (const v of NOT_OBJECTS) add(fn, `options = ${describeValue(v)} (schema)`, call([...spec.example, v]), TypeError, /\boptions\b/);
    add(fn, 'an option it does not take (schema)', call([...spec.example, { bogus: 1 }]),
      TypeError, new RegExp(`^options\\.bogus is not an option of ${fn}\\(\\); allowed: ${keys.join(', ')}$`));
    for (const [key, f] of Object.entries(spec.options)) {
      for (const [label, v, cls, pattern] of fieldCases(f, `options.${key}`, { positional: false })) {
        // A range error may come from the core, which names the bare key.
        add(fn, `${label} (schema)`, call([...spec.example, { [key]: v }]), cls, cls === RangeError && f.type !== 'positions' && !/length/.test(pattern.source) ? word(key) : pattern);
      }
    }
    if (!keys.includes('scaling')) continue;
    for (const [type, s] of Object.entries(ROPE_SCALINGS)) {
      const valid = { type, ...s.example };
      const withScaling = (scaling) => (fn === 'ropeApply' ? call([new Float32Array(16), 2, 8, { scaling }]) : call([8, { scaling }]));
      add(fn, `scaling '${type}' with a field it does not take (schema)`, withScaling({ ...valid, bogus: 1 }), TypeError, new RegExp(`^options\\.scaling\\.bogus is not a field of ${fn}'s '${type}' scaling`));
      for (const [key, f] of Object.entries(s.fields)) {
        const label = `scaling.${key}`;
        if (f.required) {
          const { [key]: _, ...without } = valid;
          add(fn, `${type} without ${key} (schema)`, withScaling(without), TypeError, word(label));
        }
        if (f.type === 'numbers') continue;  // lengths and elements: by hand below
        for (const [, v, cls] of fieldCases(f, label, { positional: false })) {
          add(fn, `${type} ${label} = ${describeValue(v)} (schema)`, withScaling({ ...valid, [key]: v }), cls, word(label));
        }
      }
    }
  }
}

// [CATALOGUE] -------------------------------------------------------------------------------
// Each case: [label, call(pe), expected error class, pattern the message must contain].
function catalogue() {
  const c = {};
  const add = (fn, label, call, cls, pattern) => (c[fn] ??= []).push([label, call, cls, pattern]);
  schemaCatalogue(add);
  const numberSlot = (fn, name, pattern, build, { lo, hi, real = false }) => {
    for (const v of NOT_NUMBERS_POSITIONAL) add(fn, `${name} = ${describeValue(v)}`, build(v), TypeError, pattern);
    for (const v of real ? badReals(lo, hi) : badInts(lo, hi)) add(fn, `${name} = ${describeValue(v)}`, build(v), RangeError, pattern);
  };
  const optionSlot = (fn, name, pattern, build, bad) => {
    for (const v of NOT_NUMBERS) add(fn, `${name} = ${describeValue(v)}`, build(v), TypeError, pattern);
    for (const v of bad) add(fn, `${name} = ${describeValue(v)}`, build(v), RangeError, pattern);
  };
  const optionsSlot = (fn, build) => {
    for (const v of NOT_OBJECTS) add(fn, `options = ${describeValue(v)}`, build(v), TypeError, /options/);
  };
  const boolOption = (fn, name, pattern, build) => {
    for (const v of ['true', 1, 0, null, {}, 1n]) add(fn, `${name} = ${describeValue(v)}`, build(v), TypeError, pattern);
  };

  // sinusoidal(positions, dModel, {base, offset})
  add('sinusoidal', 'offset + positions past 2^31 - 1', (pe) => pe.sinusoidal(2, 4, { offset: CAP.position }), RangeError, /\boffset\b/);
  add('sinusoidal', 'positions * dModel over 2^24', (pe) => pe.sinusoidal(CAP.rows, 17), RangeError, /\bpositions\b.*\bdModel\b/);

  // sinusoidalFrequencies(dModel, {base})

  // sinusoidalDot(m, n, dModel, {base})

  // learned(positions, dModel, {maxPositions, seed, std})
  for (const v of [NaN, Infinity, -1, 1.5, CAP.rows + 1]) add('learned', `positions = ${v}`, (pe) => pe.learned(v, 4), RangeError, /\bpositions\b/);
  for (const v of ['3', null, undefined, {}, 3n, true, ...NOT_ARRAYS]) add('learned', `positions = ${describeValue(v)}`, (pe) => pe.learned(v, 4), TypeError, /\bpositions\b/);
  for (const v of BAD_ELEMENTS) add('learned', `positions = ${describeValue(v)}`, (pe) => pe.learned(v, 4), TypeError, /\bpositions\b/);
  for (const v of [[NaN], [Infinity], [-1], [0.5], [1024], [0, 1, 1e9]]) add('learned', `positions = ${describeValue(v)}`, (pe) => pe.learned(v, 4), RangeError, /\bpositions\[\d\]/);
  add('learned', 'a position at maxPositions', (pe) => pe.learned([0, 5], 2, { maxPositions: 5 }), RangeError, /positions\[1\].*maxPositions/);
  add('learned', 'positions.length over 2^20', (pe) => pe.learned(hugeSparse(CAP.rows + 1), 4), RangeError, /\bpositions\b/);
  add('learned', 'positions * dModel over 2^24', (pe) => pe.learned(CAP.rows, 17, { maxPositions: CAP.rows }), RangeError, /\bpositions\b.*\bdModel\b/);

  // ropeFrequencies(dim, {base, scaling}) and the scaling objects (shared with ropeApply)
  for (const v of [3, 7, 63, 8191]) add('ropeFrequencies', `odd dim ${v}`, (pe) => pe.ropeFrequencies(v), RangeError, /\bdim\b.*even/);
  const scalingCases = [];
  const sc = (label, scaling, cls, pattern, dim = 8) => scalingCases.push([label, scaling, cls, pattern, dim]);
  for (const v of ['linear', 5, true, [], 3n]) sc(`scaling = ${describeValue(v)}`, v, TypeError, /options\.scaling/);
  sc('scaling without type', { factor: 2 }, TypeError, /scaling\.type/);
  for (const v of [5, null, {}, ['linear']]) sc(`scaling.type = ${describeValue(v)}`, { type: v, factor: 2 }, TypeError, /scaling\.type/);
  for (const v of ['bogus', 'Linear', 'NTK', '', 'yarn ']) sc(`unknown scaling.type ${JSON.stringify(v)}`, { type: v, factor: 2 }, TypeError, /scaling\.type/);
  const yarn = { type: 'yarn', factor: 4, originalMaxPositions: 4096 };
  const llama3 = { type: 'llama3', factor: 8, originalMaxPositions: 8192 };
  const longrope = { type: 'longrope', originalMaxPositions: 4096, maxPositions: 131072, shortFactor: [1, 1, 1, 1], longFactor: [1, 2, 3, 4] };
  const dynamic = { type: 'dynamic', factor: 2, maxPositions: 2048 };
  const without = (o, key) => Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));
  // Missing required fields: a TypeError naming the field.
  sc('linear without factor', { type: 'linear' }, TypeError, /scaling\.factor/);
  sc('ntk without factor', { type: 'ntk' }, TypeError, /scaling\.factor/);
  for (const key of ['factor', 'maxPositions']) sc(`dynamic without ${key}`, without(dynamic, key), TypeError, new RegExp(`scaling\\.${key}`));
  for (const key of ['factor', 'originalMaxPositions']) sc(`yarn without ${key}`, without(yarn, key), TypeError, new RegExp(`scaling\\.${key}`));
  for (const key of ['factor', 'originalMaxPositions']) sc(`llama3 without ${key}`, without(llama3, key), TypeError, new RegExp(`scaling\\.${key}`));
  for (const key of ['originalMaxPositions', 'maxPositions', 'shortFactor', 'longFactor']) sc(`longrope without ${key}`, without(longrope, key), TypeError, new RegExp(`scaling\\.${key}`));
  // Fields of the wrong type or out of range.
  for (const [base, key, bad, types] of [
    [{ type: 'linear', factor: 2 }, 'factor', [...badReals(1, CAP.factor), 0.5, 0, -2], ['2', null, {}, 2n]],
    [{ type: 'ntk', factor: 2 }, 'factor', [...badReals(1, CAP.factor), 0.5, 0, -2], ['2', null, {}, 2n]],
    [dynamic, 'factor', [0.99, NaN, Infinity, -1], ['2', null]],
    [dynamic, 'maxPositions', [0, -1, 1.5, NaN, Infinity, 2 ** 31], ['2048', null]],
    [dynamic, 'seqLen', [-1, 1.5, NaN, Infinity, 2 ** 31], ['4096', null, {}]],
    [yarn, 'factor', [0.5, NaN, Infinity, 1e7], ['4', null]],
    [yarn, 'originalMaxPositions', [0, -4096, 4096.5, NaN, 2 ** 31], ['4096', null]],
    [yarn, 'betaFast', [0, -32, NaN, Infinity], ['32', null]],
    [yarn, 'betaSlow', [0, -1, NaN, Infinity], ['1', null]],
    [yarn, 'mscale', [-1, NaN, Infinity], ['1', null]],
    [yarn, 'mscaleAllDim', [-1, NaN, Infinity], ['1', null]],
    [yarn, 'attentionFactor', [0, -1, NaN, Infinity], ['1', null]],
    [llama3, 'factor', [0.5, NaN, Infinity, -8], ['8', null]],
    [llama3, 'originalMaxPositions', [0, 1.5, NaN], ['8192', null]],
    [llama3, 'lowFreqFactor', [0, -1, NaN, Infinity], ['1', null]],
    [llama3, 'highFreqFactor', [1, 0.5, NaN, Infinity], ['4', null]], // must exceed lowFreqFactor (1)
    [longrope, 'originalMaxPositions', [0, 1.5, NaN], ['4096', null]],
    [longrope, 'maxPositions', [0, 1.5, NaN, Infinity], ['131072', null]],
    [longrope, 'seqLen', [-1, 1.5, NaN], ['5000', null]],
    [longrope, 'attentionFactor', [0, -1, NaN], ['1', null]],
  ]) {
    for (const v of bad) sc(`${base.type} ${key} = ${v}`, { ...base, [key]: v }, RangeError, new RegExp(`scaling\\.${key}`));
    for (const v of types) sc(`${base.type} ${key} = ${describeValue(v)}`, { ...base, [key]: v }, TypeError, new RegExp(`scaling\\.${key}`));
  }
  for (const v of ['yes', 1, null, {}]) sc(`yarn truncate = ${describeValue(v)}`, { ...yarn, truncate: v }, TypeError, /scaling\.truncate/);
  sc('dynamic at dim 2 (d/(d-2) undefined)', dynamic, RangeError, /\bdim\b/, 2);
  sc('ntk at dim 2 (d/(d-2) undefined)', { type: 'ntk', factor: 2 }, RangeError, /\bdim\b/, 2);
  for (const key of ['shortFactor', 'longFactor']) {
    for (const v of [[1, 1, 1], [1, 1, 1, 1, 1], []]) sc(`longrope ${key} of length ${v.length} for dim 8`, { ...longrope, [key]: v }, TypeError, new RegExp(`scaling\\.${key}`));
    for (const v of [[1, 0, 1, 1], [1, -2, 1, 1], [1, NaN, 1, 1], [1, 1, Infinity, 1], [1, 1, 1, 1e7]]) sc(`longrope ${key} = ${describeValue(v)}`, { ...longrope, [key]: v }, RangeError, new RegExp(`scaling\\.${key}\\[\\d\\]`));
    for (const v of [...NOT_ARRAYS, ...BAD_ELEMENTS, 4]) sc(`longrope ${key} = ${describeValue(v)}`, { ...longrope, [key]: v }, TypeError, new RegExp(`scaling\\.${key}`));
    sc(`longrope ${key} longer than the dim cap`, { ...longrope, [key]: hugeSparse(CAP.dim + 1) }, RangeError, new RegExp(`scaling\\.${key}`));
  }
  for (const [label, scaling, cls, pattern, dim] of scalingCases) {
    add('ropeFrequencies', label, (pe) => pe.ropeFrequencies(dim, { scaling }), cls, pattern);
    add('ropeApply', label, (pe) => pe.ropeApply(new Float32Array(2 * dim), 2, dim, { scaling }), cls, pattern);
  }

  // ropeApply(x, positions, dim, {layout, base, scaling})
  for (const v of [...NOT_ARRAYS, 'abc', 4, undefined]) add('ropeApply', `x = ${describeValue(v)}`, (pe) => pe.ropeApply(v, 1, 2), TypeError, /^x\b/);
  for (const v of [['a', 1], [1, null], [1n, 2n], new BigInt64Array(2), [1, , 2, 3]]) add('ropeApply', `x = ${describeValue(v)}`, (pe) => pe.ropeApply(v, 1, 2), TypeError, /^x\b/);
  for (const [x, pos, dim] of [[[1, 2, 3], 1, 2], [[1, 2], 2, 2], [new Float32Array(8), [0, 1], 8], [[], 1, 4]]) {
    add('ropeApply', `x.length ${x.length} for ${describeValue(pos)} rows of dim ${dim}`, (pe) => pe.ropeApply(x, pos, dim), TypeError, /^x\b.*length/);
  }
  add('ropeApply', 'x.length over 2^24', (pe) => pe.ropeApply(hugeSparse(CAP.elements + 1), 1, 2), RangeError, /^x\.length/);
  add('ropeApply', 'positions * dim over 2^24', (pe) => pe.ropeApply([], CAP.rows, 32), RangeError, /\bpositions\b.*\bdim\b/);
  for (const v of [NaN, Infinity, -1, 1.5, CAP.rows + 1]) add('ropeApply', `positions = ${v}`, (pe) => pe.ropeApply([1, 2], v, 2), RangeError, /\bpositions\b/);
  for (const v of ['1', null, undefined, {}, 1n, true, new DataView(new ArrayBuffer(8))]) add('ropeApply', `positions = ${describeValue(v)}`, (pe) => pe.ropeApply([1, 2], v, 2), TypeError, /\bpositions\b/);
  for (const v of BAD_ELEMENTS) add('ropeApply', `positions = ${describeValue(v)}`, (pe) => pe.ropeApply([1, 2], v, 2), TypeError, /\bpositions\b/);
  for (const v of [[NaN], [Infinity], [-1], [0.5], [2 ** 31]]) add('ropeApply', `positions = ${describeValue(v)}`, (pe) => pe.ropeApply([1, 2], v, 2), RangeError, /\bpositions\[0\]/);
  for (const v of [1, 3, 5]) add('ropeApply', `odd dim ${v}`, (pe) => pe.ropeApply(new Float32Array(v), 1, v), RangeError, /\bdim\b/);
  for (const v of ['rotate_half', 'HALF', 'gptj', '', 'interleave']) add('ropeApply', `layout ${JSON.stringify(v)}`, (pe) => pe.ropeApply([1, 2], 1, 2, { layout: v }), TypeError, /\blayout\b/);
  for (const v of [0, 1, null, {}, ['half'], true]) add('ropeApply', `layout = ${describeValue(v)}`, (pe) => pe.ropeApply([1, 2], 1, 2, { layout: v }), TypeError, /\blayout\b/);

  // alibiSlopes(nHeads)

  // alibiBias(length, slope, {causal})

  // t5Bucket(relativePositions, {bidirectional, numBuckets, maxDistance})
  for (const v of [...NOT_ARRAYS, 5, undefined, 'abc']) add('t5Bucket', `relativePositions = ${describeValue(v)}`, (pe) => pe.t5Bucket(v), TypeError, /\brelativePositions\b/);
  for (const v of BAD_ELEMENTS) add('t5Bucket', `relativePositions = ${describeValue(v)}`, (pe) => pe.t5Bucket(v), TypeError, /\brelativePositions\b/);
  for (const v of [[NaN], [Infinity], [-Infinity], [1.5], [2 ** 31], [-(2 ** 31)]]) add('t5Bucket', `relativePositions = ${describeValue(v)}`, (pe) => pe.t5Bucket(v), RangeError, /\brelativePositions\[0\]/);
  add('t5Bucket', 'relativePositions.length over 2^24', (pe) => pe.t5Bucket(hugeSparse(CAP.elements + 1)), RangeError, /\brelativePositions\.length\b/);
  for (const v of [3, 33]) add('t5Bucket', `bidirectional numBuckets = ${v} (at least 4, even)`, (pe) => pe.t5Bucket([1], { numBuckets: v, maxDistance: 1 << 20 }), RangeError, /\bnumBuckets\b/);
  add('t5Bucket', 'maxDistance = 8, not above the 8 exact buckets of 32', (pe) => pe.t5Bucket([1], { maxDistance: 8 }), RangeError, /\bmaxDistance\b/);
  add('t5Bucket', 'unidirectional numBuckets = 1', (pe) => pe.t5Bucket([1], { bidirectional: false, numBuckets: 1 }), RangeError, /\bnumBuckets\b/);

  // shawIndex(queryLength, keyLength, maxDistance)
  add('shawIndex', 'more queries than keys', (pe) => pe.shawIndex(5, 4, 2), RangeError, /\bqueryLength\b/);
  add('shawIndex', 'queryLength * keyLength over 2^24', (pe) => pe.shawIndex(4097, 4097, 2), RangeError, /\bqueryLength\b.*\bkeyLength\b/);

  // attention(q, k, dim, {bias, causal, scale, softmax})
  for (const [name, build] of [['q', (v) => (pe) => pe.attention(v, [1, 2], 2)], ['k', (v) => (pe) => pe.attention([1, 2], v, 2)]]) {
    const p = new RegExp(`^${name}\\b`);
    for (const v of [...NOT_ARRAYS, 'ab', 2, undefined, ...BAD_ELEMENTS]) add('attention', `${name} = ${describeValue(v)}`, build(v), TypeError, p);
    for (const v of [[NaN, 1], [1, Infinity], [-Infinity, 0]]) add('attention', `${name} = ${describeValue(v)}`, build(v), RangeError, new RegExp(`^${name}\\[\\d\\]`));
    for (const v of [[1], [1, 2, 3]]) add('attention', `${name}.length ${v.length} for dim 2`, build(v), RangeError, new RegExp(`^${name}\\.length`));
    add('attention', `${name}.length over 2^24`, build(hugeSparse(CAP.elements + 2)), RangeError, new RegExp(`^${name}\\.length`));
  }
  add('attention', 'rows(q) * rows(k) over 2^24', (pe) => pe.attention(new Float32Array(4097), new Float32Array(4097), 1), RangeError, /rows\(q\).*rows\(k\)/);
  add('attention', 'causal with more query rows than key rows', (pe) => pe.attention([1, 2, 3], [1, 2], 1, { causal: true }), RangeError, /causal/);
  // (An empty bias has its own test below.)
  for (const v of [[0, 0], new Float32Array(3)]) add('attention', `bias of length ${v.length} for 1 x 1 scores`, (pe) => pe.attention([1, 2], [1, 2], 2, { bias: v }), TypeError, /\bbias\b.*length/);
  for (const v of [[NaN], [Infinity]]) add('attention', `bias = ${describeValue(v)}`, (pe) => pe.attention([1, 2], [1, 2], 2, { bias: v }), RangeError, /\bbias\[0\]/);
  for (const v of ['0', 0, {}, true, 1n, ...BAD_ELEMENTS]) add('attention', `bias = ${describeValue(v)}`, (pe) => pe.attention([1, 2], [1, 2], 2, { bias: v }), TypeError, /\bbias\b/);
  add('attention', 'bias.length over 2^24', (pe) => pe.attention([1, 2], [1, 2], 2, { bias: hugeSparse(CAP.elements + 1) }), RangeError, /\bbias\.length/);

  // softmax(x, cols)
  for (const v of [...NOT_ARRAYS, 'ab', 2, undefined, ...BAD_ELEMENTS]) add('softmax', `x = ${describeValue(v)}`, (pe) => pe.softmax(v, 2), TypeError, /^x\b/);
  for (const v of [[NaN, 1], [1, Infinity]]) add('softmax', `x = ${describeValue(v)}`, (pe) => pe.softmax(v, 2), RangeError, /^x\[\d\]/);
  for (const v of [[1], [1, 2, 3]]) add('softmax', `x.length ${v.length} for cols 2`, (pe) => pe.softmax(v, 2), RangeError, /^x\.length/);
  add('softmax', 'x.length over 2^24', (pe) => pe.softmax(hugeSparse(CAP.elements + 2), 2), RangeError, /^x\.length/);

  // --- The functions added with the later steps (wasm/posenc.d.ts) ---
  // A Positions argument (a count or an array of positions).
  const positionsSlot = (fn, name, build, { hi, maxElement, elementPattern = new RegExp(`^${name}\\[0\\]`) }) => {
    const p = new RegExp(`^${name}\\b`);
    for (const v of [NaN, Infinity, -1, 1.5, CAP.rows + 1]) add(fn, `${name} = ${v}`, build(v), RangeError, p);
    for (const v of ['3', undefined, 3n, true, Symbol('p'), ...NOT_ARRAYS]) add(fn, `${name} = ${describeValue(v)}`, build(v), TypeError, p);
    for (const v of BAD_ELEMENTS) add(fn, `${name} = ${describeValue(v)}`, build(v), TypeError, p);
    for (const v of [[NaN], [Infinity], [-1], [0.5], [maxElement + 1]]) add(fn, `${name} = ${describeValue(v)}`, build(v), RangeError, elementPattern);
    add(fn, `${name}.length over ${hi}`, build(hugeSparse(hi + 1)), RangeError, new RegExp(`^${name}\\.length`));
    add(fn, `${name}: a copied typed array longer than 2^24`, build(shadowedLength(CAP.elements + 1)), RangeError, new RegExp(`^${name}\\.length`));
  };
  // An array-of-numbers argument whose elements must be finite.
  const arraySlot = (fn, name, build, pattern = new RegExp(`^${name}\\b`), defaults = []) => {
    for (const v of [...NOT_ARRAYS, 'ab', 4, undefined, ...BAD_ELEMENTS].filter((x) => !defaults.includes(x))) add(fn, `${name} = ${describeValue(v)}`, build(v), TypeError, pattern);
  };

  // alibiBiasBlock(queries, keys, slope, {causal})
  positionsSlot('alibiBiasBlock', 'queries', (v) => (pe) => pe.alibiBiasBlock(v, 2, 0.5), { hi: CAP.rows, maxElement: CAP.position });
  positionsSlot('alibiBiasBlock', 'keys', (v) => (pe) => pe.alibiBiasBlock([3], v, 0.5), { hi: CAP.rows, maxElement: CAP.position });
  add('alibiBiasBlock', 'queries * keys over 2^24', (pe) => pe.alibiBiasBlock(4096, 4097, 0.5), RangeError, /^queries\.length \* keys\.length\b/);

  // familyAttention(family, n, dim, {rows, columns, query, causal, seed, base, heads, head, numBuckets, maxDistance})
  for (const v of [3, null, undefined, {}, ['rope'], 3n, true, Symbol('rope'), new String('rope')]) add('familyAttention', `family = ${describeValue(v)}`, (pe) => pe.familyAttention(v, 8, 8), TypeError, /^family\b/);
  for (const v of ['ALiBi', 'Rope', '', 'rope ', 'nope', 'T5', 'relative']) add('familyAttention', `family ${JSON.stringify(v)}`, (pe) => pe.familyAttention(v, 8, 8), TypeError, /^family must be one of/);
  for (const v of [3, 7, 255]) add('familyAttention', `odd dim ${v}`, (pe) => pe.familyAttention('rope', 8, v), RangeError, /^dim must be even/);
  const fa = (o) => (pe) => pe.familyAttention('alibi', 8, 8, o);
  add('familyAttention', 'columns = 9 > n', fa({ columns: 9 }), RangeError, /\bcolumns\b/);
  add('familyAttention', 'query = 8 = n', fa({ query: 8 }), RangeError, /\bquery\b/);
  add('familyAttention', 'head = 4 with 4 heads', fa({ heads: 4, head: 4 }), RangeError, /\bhead\b/);
  add('familyAttention', 'maxDistance = 16, not above the 16 exact buckets of 32', fa({ maxDistance: 16 }), RangeError, /\bmaxDistance\b/);
  add('familyAttention', 'bidirectional maxDistance below numBuckets/4 + 1', fa({ causal: false, numBuckets: 32, maxDistance: 8 }), RangeError, /^maxDistance\b/);
  for (const v of [...NOT_ARRAYS, 'all', 5, ...BAD_ELEMENTS]) add('familyAttention', `options.rows = ${describeValue(v)}`, fa({ rows: v }), TypeError, /^options\.rows\b/);
  for (const v of [[8], [0, -1], [0.5], [NaN], [Infinity]]) add('familyAttention', `options.rows = ${describeValue(v)}`, fa({ rows: v }), RangeError, /^rows\[\d\]/);
  add('familyAttention', 'more rows than tokens', fa({ rows: new Array(9).fill(0) }), RangeError, /^rows\.length\b/);
  add('familyAttention', 'options.rows.length over 8193', fa({ rows: hugeSparse(8194) }), RangeError, /\brows\.length\b/);
  add('familyAttention', 'options.rows: a copied typed array longer than 2^24', fa({ rows: shadowedLength(CAP.elements + 1) }), RangeError, /\brows\.length\b/);
  add('familyAttention', 'rows.length * n over 2^24', (pe) => pe.familyAttention('none', 8192, 2), RangeError, /^rows\.length \* n\b/);

  // transformerXlTerms / transformerXlInputs (i, j, dim, {seed, base}); transformerXlRow(i, keys, dim, {seed, base})
  for (const fn of ['transformerXlTerms', 'transformerXlInputs', 'transformerXlRow']) {
    const call = (i, dim, o) => (pe) => (fn === 'transformerXlRow' ? pe.transformerXlRow(i, [0, 5], dim, o) : pe[fn](i, 5, dim, o));
    for (const v of [3, 1023]) add(fn, `odd dim ${v}`, call(1, v), RangeError, /^dim must be even/);
  }
  positionsSlot('transformerXlRow', 'keys', (v) => (pe) => pe.transformerXlRow(1, v, 8), { hi: CAP.rows, maxElement: CAP.rows });
  add('transformerXlRow', 'keys * dim over 2^24', (pe) => pe.transformerXlRow(1, CAP.rows, 32), RangeError, /^keys\.length \* dim\b/);

  // sincos2d(rows, cols, d, {base}) and learnedGrid(rows, cols, d, {seed, std})
  for (const fn of ['sincos2d', 'learnedGrid']) {
    add(fn, 'rows * cols * d over 2^24', (pe) => pe[fn](1024, 1024, 20), RangeError, /^rows \* cols \* d\b/);
  }
  for (const v of [5, 6, 10, 8190]) add('sincos2d', `d = ${v}, not a multiple of 4`, (pe) => pe.sincos2d(2, 2, v), RangeError, /^d must be a multiple of 4/);

  // axialRope(x, rows, cols, {base})
  for (const v of [[1, 2, 3], [], [1, 2, 3, 4, 5, 6]]) add('axialRope', `x.length ${v.length}`, (pe) => pe.axialRope(v, 2, 2), RangeError, /^x\.length\b/);
  for (const v of [[1, NaN, 0, 0], [0, 0, 0, Infinity], Float64Array.of(-Infinity, 0, 0, 0)]) add('axialRope', `x = ${describeValue(v)}`, (pe) => pe.axialRope(v, 2, 2), RangeError, /^x\[\d\]/);
  add('axialRope', 'x.length over 8192', (pe) => pe.axialRope(hugeSparse(CAP.dim + 1), 2, 2), RangeError, /^x\.length\b/);
  add('axialRope', 'x: a copied typed array longer than 2^24', (pe) => pe.axialRope(shadowedLength(CAP.elements + 1), 2, 2), RangeError, /^x\.length\b/);
  add('axialRope', 'rows * cols * x.length over 2^24', (pe) => pe.axialRope(new Float32Array(20), 1024, 1024), RangeError, /^rows \* cols \* x\.length\b/);

  // axialRopeScores(rows, cols, d, r, c, {base, q, cosine})
  const ars = (rows, cols, d, r, c, o) => (pe) => pe.axialRopeScores(rows, cols, d, r, c, o);
  add('axialRopeScores', 'r = rows', ars(3, 3, 8, 3, 0), RangeError, /^r\b/);
  add('axialRopeScores', 'c = cols', ars(3, 3, 8, 0, 3), RangeError, /^c\b/);
  for (const v of [6, 10]) add('axialRopeScores', `d = ${v}, not a multiple of 4`, ars(3, 3, v, 0, 0), RangeError, /^d must be a multiple of 4/);
  // (options.q = null means the default q, d ones.)
  for (const v of [[1, 2, 3, 4], new Float32Array(12), []]) add('axialRopeScores', `options.q of length ${v.length} for d 8`, ars(3, 3, 8, 0, 0, { q: v }), TypeError, /^q must have length 8/);
  add('axialRopeScores', 'options.q with a NaN', ars(3, 3, 8, 0, 0, { q: [1, 1, 1, 1, 1, 1, 1, NaN] }), RangeError, /^q\[7\]/);
  add('axialRopeScores', 'options.q.length over 8192', ars(3, 3, 8, 0, 0, { q: hugeSparse(CAP.dim + 1) }), RangeError, /\bq\.length\b/);

  // interpolateGrid(table, rows, cols, d, newRows, newCols, {alignCorners})
  const ig = (table, rows, cols, d, newRows, newCols, o) => (pe) => pe.interpolateGrid(table, rows, cols, d, newRows, newCols, o);
  for (const v of [[0, 1, 2], [0, 1, 2, 3, 4], []]) add('interpolateGrid', `table.length ${v.length} for 2 x 2 x 1`, ig(v, 2, 2, 1, 3, 3), TypeError, /^table must have length 4/);
  for (const v of [[0, 1, 2, NaN], Float32Array.of(0, Infinity, 2, 3)]) add('interpolateGrid', `table = ${describeValue(v)}`, ig(v, 2, 2, 1, 3, 3), RangeError, /^table\[\d\]/);
  add('interpolateGrid', 'table.length over 2^24', ig(hugeSparse(CAP.elements + 1), 2, 2, 1, 3, 3), RangeError, /^table\.length\b/);
  add('interpolateGrid', 'table: a copied typed array longer than 2^24', ig(shadowedLength(CAP.elements + 1), 2, 2, 1, 3, 3), RangeError, /^table\.length\b/);
  add('interpolateGrid', 'rows * cols * d over 2^24', ig([0], 1024, 1024, 17, 2, 2), RangeError, /^rows \* cols \* d\b/);
  add('interpolateGrid', 'newRows * newCols * d over 2^24', ig(new Float32Array(17), 1, 1, 17, 1024, 1024), RangeError, /^newRows \* newCols \* d\b/);

  // gridSimilarity(table, d, index, {cosine})
  add('gridSimilarity', 'index = rows of the table', (pe) => pe.gridSimilarity([1, 2, 3, 4], 2, 2), RangeError, /^index\b/);
  for (const v of [[1, 2, 3], []]) add('gridSimilarity', `table.length ${v.length} for d 2`, (pe) => pe.gridSimilarity(v, 2, 0), RangeError, /^table\.length must be a positive multiple of d/);
  for (const v of [[1, 2, NaN, 4], Float64Array.of(1, -Infinity)]) add('gridSimilarity', `table = ${describeValue(v)}`, (pe) => pe.gridSimilarity(v, 2, 0), RangeError, /^table\[\d\]/);
  add('gridSimilarity', 'table.length over 2^24', (pe) => pe.gridSimilarity(hugeSparse(CAP.elements + 1), 2, 0), RangeError, /^table\.length\b/);
  add('gridSimilarity', 'table: a copied typed array longer than 2^24', (pe) => pe.gridSimilarity(shadowedLength(CAP.elements + 1), 2, 0), RangeError, /^table\.length\b/);

  return c;
}

const CATALOGUE = catalogue();

/** Runs call(pe); it must throw exactly `cls` (not a subclass, not another Error) matching `pattern`. */
function expectError(pe, label, call, cls, pattern) {
  let returned;
  try {
    returned = call(pe);
  } catch (e) {
    assert.ok(e instanceof Error, `${label}: threw a non-Error ${describeValue(e)}`);
    assert.equal(e.constructor, cls, `${label}: expected ${cls.name}, got ${e.constructor.name}: ${e.message}`);
    assert.match(e.message, pattern, `${label}: the message should name the argument`);
    return e;
  }
  assert.fail(`${label}: expected ${cls.name}, but the call returned ${describeValue(returned)}`);
}

describe('loadPosenc rejects bad options', () => {
  test("loadPosenc({simd}) accepts only 'auto', true or false (TypeError)", async () => {
    for (const simd of ['yes', 1, 0, null, 'true']) {
      await assert.rejects(loadPosenc({ simd }), (e) => e.constructor === TypeError && /options\.simd/.test(e.message), String(simd));
    }
  });
});

for (const pe of modules) {
  describe(`${moduleName(pe)}: bad input`, () => {
    for (const [fn, cases] of Object.entries(CATALOGUE)) {
      test(`${fn} throws a RangeError or TypeError naming the argument for each of ${cases.length} bad inputs, and keeps working`, () => {
        // Every case runs; the failure lists all the cases that went wrong, not just the first.
        const problems = [];
        for (const [label, call, cls, pattern] of cases) {
          try {
            expectError(pe, `${fn}: ${label}`, call, cls, pattern);
            assertStillWorks(pe, `${fn}: ${label}`);
          } catch (e) {
            problems.push(e.message.split('\n')[0]);
          }
        }
        assert.deepEqual(problems, []);
      });
    }

    test('attention({bias: []}) with scores to bias is a TypeError naming bias, not a silently ignored bias', () => {
      expectError(pe, '1 x 1 scores, empty bias', (p) => p.attention([1, 2], [1, 2], 2, { bias: [] }), TypeError, /\bbias\b.*length/);
      expectError(pe, '2 x 3 scores, empty bias', (p) => p.attention(new Float32Array(4), new Float32Array(6), 2, { bias: new Float32Array(0) }), TypeError, /\bbias\b.*length/);
      // With no scores at all, an empty bias is the right length.
      assert.equal(pe.attention([], [1, 2], 2, { bias: [] }).length, 0);
      assertStillWorks(pe);
    });

    test('a call with missing arguments is a TypeError naming the first missing one', () => {
      expectError(pe, 'sinusoidal()', (p) => p.sinusoidal(), TypeError, /\bpositions\b/);
      expectError(pe, 'sinusoidalDot(1)', (p) => p.sinusoidalDot(1), TypeError, /^n\b/);
      expectError(pe, 'ropeApply([1, 2], 1)', (p) => p.ropeApply([1, 2], 1), TypeError, /\bdim\b/);
      expectError(pe, 'alibiBias(3)', (p) => p.alibiBias(3), TypeError, /\bslope\b/);
      expectError(pe, 'shawIndex(2, 3)', (p) => p.shawIndex(2, 3), TypeError, /\bmaxDistance\b/);
      expectError(pe, 'attention([1], [1])', (p) => p.attention([1], [1]), TypeError, /\bdim\b/);
      expectError(pe, 't5Bucket()', (p) => p.t5Bucket(), TypeError, /\brelativePositions\b/);
      assertStillWorks(pe);
    });

    test('an error leaves the inputs untouched (arrays are copied in before any check fails)', () => {
      const x = Float32Array.of(1, 2, 3);
      expectError(pe, 'ropeApply wrong length', (p) => p.ropeApply(x, 1, 2), TypeError, /^x\b/);
      assert.deepEqual(x, Float32Array.of(1, 2, 3));
    });
  });
}

// [HOSTILE FUZZ] ----------------------------------------------------------------------------
// Each generated call starts from a valid call and corrupts one to three of its arguments with
// values that are invalid on their own (wrong type, out of range, over a cap), so every call
// must throw; only the mismatch corruptions (an array one element short) depend on the other
// arguments, and those are never combined with a corruption that could repair them.

function fuzzer(rng) {
  const { int, pick, next } = rng;
  const notNumber = () => pick(NOT_NUMBERS);
  const notObject = () => pick(NOT_OBJECTS);
  const notArray = () => (next() < 0.05 ? hugeSparse(CAP.elements + 1 + int(0, 9)) : pick([...NOT_ARRAYS, ...BAD_ELEMENTS, 'x', 3]));
  // For options.bias, where null means "no bias".
  const notArrayNorNull = () => pick([...NOT_ARRAYS.filter((v) => v !== null), ...BAD_ELEMENTS, 'x', 3]);
  const badInt = (lo, hi) => pick([...badInts(lo, hi), notNumber()]);
  const badReal = (lo, hi) => pick([...badReals(lo, hi), notNumber()]);
  const badPosition = () => pick([NaN, -1, 0.5, Infinity, 2 ** 31, -Infinity]);
  // Not badInt: its non-numbers include [3], which is a valid array of positions.
  const badCount = () => pick([NaN, Infinity, -1, 0.5, CAP.rows + 1, '3', null, {}, 3n, true, Symbol('n'), undefined]);
  // notArray() may give a bare number (invalid where only arrays are accepted); a count is fine here.
  const notPositionArray = () => {
    const v = notArray();
    return typeof v === 'number' ? 'x' : v;
  };
  const badPositions = () => pick([badCount(), notPositionArray(), [0, badPosition()], Float64Array.of(1, badPosition())]);
  const badBool = () => pick(['true', 1, 0, null, {}, 1n]);
  const setOption = (args, i, key, value) => {
    const o = args[i] && typeof args[i] === 'object' && !Array.isArray(args[i]) ? { ...args[i] } : {};
    o[key] = value;
    args[i] = o;
  };

  const validScaling = (dim) => pick([
    undefined,
    { type: 'linear', factor: 1 + 3 * next() },
    { type: 'dynamic', factor: 2, maxPositions: 64, seqLen: int(0, 200) },
    { type: 'yarn', factor: pick([4, 16]), originalMaxPositions: 256, truncate: next() < 0.5 },
    { type: 'llama3', factor: 8, originalMaxPositions: 64 },
    { type: 'longrope', originalMaxPositions: 32, maxPositions: 128, seqLen: int(0, 64), shortFactor: Array(dim / 2).fill(1), longFactor: Array(dim / 2).fill(2) },
  ]);
  const badScaling = (dim) => pick([
    notObject(), { factor: 2 }, { type: pick(['bogus', 5, null, '']) }, { type: 'linear' }, { type: 'linear', factor: badReal(1, CAP.factor) },
    { type: 'dynamic', factor: 2 }, { type: 'dynamic', factor: 2, maxPositions: badInt(1, CAP.position) },
    { type: 'yarn', factor: 4 }, { type: 'yarn', factor: 4, originalMaxPositions: 64, betaFast: pick([0, -1, NaN, '32']) },
    { type: 'yarn', factor: 4, originalMaxPositions: 64, truncate: badBool() },
    { type: 'llama3', factor: 8, originalMaxPositions: 64, lowFreqFactor: 4, highFreqFactor: pick([4, 2, NaN]) },
    { type: 'longrope', originalMaxPositions: 32, maxPositions: 128, shortFactor: Array(dim / 2 + 1).fill(1), longFactor: Array(dim / 2).fill(1) },
    { type: 'longrope', originalMaxPositions: 32, maxPositions: 128, shortFactor: Array(dim / 2).fill(1), longFactor: notArray() },
    { type: 'longrope', originalMaxPositions: 32, maxPositions: 128, shortFactor: Array(dim / 2).fill(0), longFactor: Array(dim / 2).fill(1) },
  ]);

  // fn: [valid args, corruptors (each makes args invalid by itself)]
  const specs = {
    sinusoidal: () => [
      [int(0, 8), int(1, 16), pick([undefined, {}, { base: 100 }, { offset: int(0, 1000) }])],
      [
        (a) => { a[0] = badInt(0, CAP.rows); },
        (a) => { a[1] = badInt(1, CAP.dim); },
        (a) => { a[2] = notObject(); },
        (a) => setOption(a, 2, 'base', pick([1, 0.5, -1, NaN, Infinity, 1e13, notNumber()])),
        (a) => setOption(a, 2, 'offset', pick([-1, 0.5, NaN, 2 ** 31, notNumber()])),
      ],
    ],
    sinusoidalFrequencies: () => [
      [int(1, 64), pick([undefined, { base: 1000 }])],
      [(a) => { a[0] = badInt(1, CAP.dim); }, (a) => { a[1] = notObject(); }, (a) => setOption(a, 1, 'base', pick([1, 0, NaN, notNumber()]))],
    ],
    sinusoidalDot: () => [
      [int(-100, 100), next() * 100, int(1, 64), undefined],
      [
        (a) => { a[0] = badReal(-CAP.position, CAP.position); },
        (a) => { a[1] = badReal(-CAP.position, CAP.position); },
        (a) => { a[2] = badInt(1, CAP.dim); },
        (a) => { a[3] = notObject(); },
        (a) => setOption(a, 3, 'base', pick([1, -3, NaN, notNumber()])),
      ],
    ],
    learned: () => [
      [pick([int(0, 8), [int(0, 15), int(0, 15)]]), int(1, 16), { maxPositions: 16, seed: int(0, 99) }],
      [
        (a) => { a[0] = pick([badPositions(), [16], [0, 99]]); },
        (a) => { a[1] = badInt(1, CAP.dim); },
        (a) => { a[2] = notObject(); },
        (a) => setOption(a, 2, 'seed', badInt(0, 2 ** 32 - 1)),
        (a) => setOption(a, 2, 'std', badReal(0, 1e3)),
      ],
    ],
    ropeFrequencies: () => {
      const dim = 2 * int(2, 8);
      return [
        [dim, { base: pick([10000, 500000]), scaling: validScaling(dim) }],
        [
          (a) => { a[0] = pick([badInt(2, CAP.dim), 2 * int(1, 50) + 1]); },
          (a) => { a[1] = notObject(); },
          (a) => setOption(a, 1, 'base', pick([1, 0, NaN, notNumber()])),
          (a) => setOption(a, 1, 'scaling', badScaling(dim)),
        ],
      ];
    },
    ropeApply: () => {
      const dim = 2 * int(2, 8);
      const rows = int(0, 4);
      return [
        [rng.floats(rows * dim), pick([rows, Array.from({ length: rows }, () => int(0, 99999))]), dim, { layout: pick(['half', 'interleaved']), scaling: validScaling(dim) }],
        [
          (a) => { a[0] = pick([notArray(), Float32Array.from({ length: rows * dim + 1 })]); },
          (a) => { a[1] = badPositions(); },
          (a) => { a[2] = pick([badInt(2, CAP.dim), 2 * int(1, 50) + 1]); },
          (a) => { a[3] = notObject(); },
          (a) => setOption(a, 3, 'layout', pick(['rotate_half', '', 0, null, 'HALF'])),
          (a) => setOption(a, 3, 'scaling', badScaling(dim)),
          (a) => setOption(a, 3, 'base', pick([1, NaN, -4, notNumber()])),
        ],
      ];
    },
    alibiSlopes: () => [[int(1, 64)], [(a) => { a[0] = badInt(1, CAP.heads); }]],
    alibiBias: () => [
      [int(0, 8), next(), pick([undefined, { causal: next() < 0.5 }])],
      [
        (a) => { a[0] = badInt(0, 4096); },
        (a) => { a[1] = badReal(0, 1e6); },
        (a) => { a[2] = notObject(); },
        (a) => setOption(a, 2, 'causal', badBool()),
      ],
    ],
    t5Bucket: () => [
      [Array.from({ length: int(0, 8) }, () => int(-500, 500)), pick([undefined, { bidirectional: false }, { numBuckets: 64, maxDistance: 256 }])],
      [
        (a) => { a[0] = pick([notArray(), [1, NaN], [0.5], [2 ** 31]]); },
        (a) => { a[1] = notObject(); },
        // Invalid in both modes (a unidirectional table accepts odd counts from 2).
        (a) => setOption(a, 1, 'numBuckets', pick([1, 0, -2, 4.5, CAP.buckets + 1, NaN, Infinity, notNumber()])),
        (a) => setOption(a, 1, 'maxDistance', pick([0, -1, NaN, 2 ** 24 + 1, notNumber()])),
        (a) => setOption(a, 1, 'bidirectional', badBool()),
      ],
    ],
    shawIndex: () => {
      const k = int(0, 12);
      return [
        [int(0, k), k, int(0, 20)],
        [
          (a) => { a[0] = pick([badInt(0, CAP.rows), k + 1 + int(0, 5)]); },
          (a) => { a[1] = badInt(0, CAP.rows); },
          (a) => { a[2] = badInt(0, CAP.distance); },
        ],
      ];
    },
    attention: () => {
      const dim = int(2, 9); // >= 2, so a q one element short is never a whole number of rows
      const kRows = int(1, 6);
      const qRows = int(1, kRows);
      return [
        [rng.floats(qRows * dim), rng.floats(kRows * dim), dim, { causal: next() < 0.5, scale: next(), bias: pick([undefined, rng.floats(qRows * kRows)]) }],
        [
          (a) => { a[0] = pick([notArray(), rng.floats(qRows * dim - 1), Float32Array.of(NaN, ...rng.floats(qRows * dim - 1))]); },
          (a) => { a[1] = pick([notArray(), rng.floats(kRows * dim + 1), Float64Array.of(Infinity, ...rng.floats(kRows * dim - 1))]); },
          (a) => { a[2] = pick([badInt(1, CAP.dim), dim + 0.5]); },
          (a) => { a[3] = notObject(); },
          (a) => setOption(a, 3, 'bias', pick([notArrayNorNull(), rng.floats(qRows * kRows + 1), Float32Array.of(NaN), [Infinity]])),
          (a) => setOption(a, 3, 'scale', badReal(-1e6, 1e6)),
          (a) => setOption(a, 3, 'softmax', badBool()),
        ],
      ];
    },
    softmax: () => {
      const cols = int(1, 9);
      return [
        [rng.floats(int(0, 4) * cols), cols],
        [
          (a) => { a[0] = pick([notArray(), Float32Array.of(NaN, ...rng.floats(cols - 1)), [Infinity]]); },
          (a) => { a[1] = pick([badInt(1, CAP.rows), cols + 0.5]); },
        ],
      ];
    },
    alibiBiasBlock: () => [
      [pick([int(0, 8), Array.from({ length: int(0, 4) }, () => int(0, 2 ** 31 - 1))]), pick([int(0, 8), [int(0, 99), int(0, 99)]]), next() * 2, pick([undefined, { causal: next() < 0.5 }])],
      [
        // (An Array just over 2^20 long is in the catalogue: the glue copies it, ~0.1 s a call.)
        (a) => { a[0] = badPositions(); },
        (a) => { a[1] = pick([badPositions(), Int32Array.of(-1)]); },
        (a) => { a[0] = CAP.rows; a[1] = 17; }, // each a valid count, 2^20 x 17 over 2^24
        (a) => { a[2] = badReal(0, 1e6); },
        (a) => { a[3] = notObject(); },
        (a) => setOption(a, 3, 'causal', badBool()),
      ],
    ],
    familyAttention: () => {
      const n = int(1, 64);
      const dim = 2 * int(1, 16);
      const heads = int(1, 16);
      const numBuckets = pick([8, 16, 32]);
      const options = {
        rows: pick([undefined, Array.from({ length: int(0, Math.min(n, 4)) }, () => int(0, n - 1))]),
        columns: int(1, n), query: int(0, n - 1), causal: next() < 0.5, seed: int(0, 99), base: pick([100, 10000]),
        heads, head: int(0, heads - 1), numBuckets, maxDistance: numBuckets + int(0, 200),
      };
      return [
        [pick(ATTENTION_FAMILIES), n, dim, options],
        [
          (a) => { a[0] = pick(['ALiBi', 'Rope', '', 'rope ', 'T5', 'relative', 'fire', 'rope-nope', 3, null, undefined, {}, ['rope'], Symbol('rope'), 1n]); },
          (a) => { a[1] = badInt(1, 8192); },
          (a) => { a[2] = pick([badInt(2, 256), 2 * int(1, 200) + 1]); },
          (a) => { a[3] = notObject(); },
          (a) => setOption(a, 3, 'rows', pick([notArray(), [n], [0, -1], [NaN], Array(n + 1).fill(0), hugeSparse(8194)])),
          (a) => setOption(a, 3, 'columns', pick([0, -1, 0.5, n + 1 + int(0, 9), NaN, Infinity, notNumber()])),
          (a) => setOption(a, 3, 'query', pick([-1, 0.5, n + int(0, 9), NaN, notNumber()])),
          (a) => setOption(a, 3, 'seed', badInt(0, 1e9)),
          (a) => setOption(a, 3, 'base', pick([1, 0.5, -1, NaN, Infinity, 1e13, notNumber()])),
          (a) => setOption(a, 3, 'heads', badInt(1, 64)),
          (a) => setOption(a, 3, 'head', pick([heads + int(0, 9), -1, 0.5, NaN, notNumber()])),
          (a) => setOption(a, 3, 'numBuckets', pick([badInt(4, CAP.buckets), 2, 2 * int(2, 50) + 1])),
          (a) => setOption(a, 3, 'maxDistance', pick([1, 2, 0, -1, 2.5, NaN, CAP.distance + 1, notNumber()])), // numBuckets >= 8 needs >= 3
          (a) => setOption(a, 3, 'causal', badBool()),
          // Held contents: not an array, one value short or over, or a non-finite value.
          (a) => setOption(a, 3, pick(['queryContent', 'keyContent', 'learnedTable']), pick([
            notArray(), new Float32Array(n * dim + pick([-1, 1])), Float32Array.of(NaN, ...new Float32Array(n * dim - 1)),
          ])),
        ],
      ];
    },
    familyContent: () => [
      [pick(['query', 'key', 'learned']), int(1, 64), 2 * int(1, 16), pick([undefined, { seed: int(0, 99) }])],
      [
        (a) => { a[0] = pick(['Query', 'keys', '', 'relative', 3, null, undefined, {}, ['key'], Symbol('key'), 1n]); },
        (a) => { a[1] = badInt(1, 8192); },
        (a) => { a[2] = pick([badInt(2, 256), 2 * int(1, 100) + 1]); },
        (a) => { a[3] = notObject(); },
        (a) => setOption(a, 3, 'seed', badInt(0, 1e9)),
      ],
    ],
    ...Object.fromEntries(['transformerXlTerms', 'transformerXlInputs', 'transformerXlRow'].map((fn) => [fn, () => [
      [int(0, CAP.rows), fn === 'transformerXlRow' ? pick([int(0, 8), [int(0, 99), int(0, CAP.rows)]]) : int(0, CAP.rows), 2 * int(1, 32), pick([undefined, { seed: int(0, 2 ** 32 - 1) }, { base: 500 }])],
      [
        (a) => { a[0] = badInt(0, CAP.rows); },
        fn === 'transformerXlRow'
          ? (a) => { a[1] = pick([badPositions(), [CAP.rows + 1]]); }
          : (a) => { a[1] = badInt(0, CAP.rows); },
        (a) => { a[2] = pick([badInt(2, 1024), 2 * int(1, 600) + 1]); },
        (a) => { a[3] = notObject(); },
        (a) => setOption(a, 3, 'seed', badInt(0, 2 ** 32 - 1)),
        (a) => setOption(a, 3, 'base', pick([1, 0, -2, NaN, Infinity, 1e13, notNumber()])),
      ],
    ]])),
    ...Object.fromEntries(['sincos2d', 'learnedGrid'].map((fn) => [fn, () => [
      [int(1, 6), int(1, 6), fn === 'sincos2d' ? 4 * int(1, 8) : int(1, 24), fn === 'sincos2d' ? pick([undefined, { base: 100 }]) : pick([undefined, { seed: int(0, 99), std: next() }])],
      [
        (a) => { a[0] = badInt(1, 1024); },
        (a) => { a[1] = badInt(1, 1024); },
        (a) => { a[2] = fn === 'sincos2d' ? pick([badInt(4, CAP.dim), 4 * int(1, 50) + int(1, 3)]) : badInt(1, CAP.dim); },
        (a) => { a[0] = 1024; a[1] = 1024; a[2] = 20; }, // each valid, 2^20 x 20 over 2^24
        (a) => { a[3] = notObject(); },
        ...(fn === 'sincos2d'
          ? [(a) => setOption(a, 3, 'base', pick([1, 0, NaN, Infinity, 1e13, notNumber()]))]
          : [(a) => setOption(a, 3, 'seed', badInt(0, 2 ** 32 - 1)), (a) => setOption(a, 3, 'std', badReal(0, 1e3))]),
      ],
    ]])),
    axialRope: () => {
      const d = 4 * int(1, 8);
      return [
        [rng.floats(d), int(1, 6), int(1, 6), pick([undefined, { base: 100 }])],
        [
          (a) => { a[0] = pick([notArray(), rng.floats(d + int(1, 3)), [], Float32Array.of(NaN, ...rng.floats(d - 1)), hugeSparse(CAP.dim + 1)]); },
          (a) => { a[1] = badInt(1, 1024); },
          (a) => { a[2] = badInt(1, 1024); },
          (a) => { a[0] = new Float32Array(20); a[1] = 1024; a[2] = 1024; },
          (a) => { a[3] = notObject(); },
          (a) => setOption(a, 3, 'base', pick([1, -1, NaN, 1e13, notNumber()])),
        ],
      ];
    },
    axialRopeScores: () => {
      const rows = int(1, 6);
      const cols = int(1, 6);
      const d = 4 * int(1, 8);
      return [
        [rows, cols, d, int(0, rows - 1), int(0, cols - 1), pick([undefined, { cosine: next() < 0.5 }, { q: rng.floats(d) }, { q: null, base: 100 }])],
        [
          (a) => { a[0] = badInt(1, 1024); },
          (a) => { a[1] = badInt(1, 1024); },
          (a) => { a[2] = pick([badInt(4, CAP.dim), 4 * int(1, 50) + int(1, 3)]); },
          (a) => { a[3] = pick([badInt(0, 1023), rows + int(0, 9)]); },
          (a) => { a[4] = pick([badInt(0, 1023), cols + int(0, 9)]); },
          (a) => { a[5] = notObject(); },
          (a) => setOption(a, 5, 'base', pick([1, 0, NaN, Infinity, notNumber()])),
          (a) => setOption(a, 5, 'cosine', badBool()),
          (a) => setOption(a, 5, 'q', pick([notArrayNorNull(), rng.floats(d + int(1, 4)), rng.floats(d - 1), Float64Array.of(...rng.floats(d - 1), Infinity)])),
        ],
      ];
    },
    interpolateGrid: () => {
      const rows = int(1, 4);
      const cols = int(1, 4);
      const d = int(1, 6);
      const length = rows * cols * d;
      return [
        [rng.floats(length), rows, cols, d, int(1, 6), int(1, 6), pick([undefined, { alignCorners: next() < 0.5 }])],
        [
          (a) => { a[0] = pick([notArray(), rng.floats(length + int(1, 3)), rng.floats(length - 1), Float32Array.of(...rng.floats(length - 1), NaN)]); },
          (a) => { a[1] = badInt(1, 1024); },
          (a) => { a[2] = badInt(1, 1024); },
          (a) => { a[3] = badInt(1, CAP.dim); },
          (a) => { a[4] = badInt(1, 1024); },
          (a) => { a[5] = badInt(1, 1024); },
          // Each valid, 1024 x 1024 x 17 outputs over 2^24 (any table corruption keeps it invalid).
          (a) => { a[0] = new Float32Array(17); a[1] = 1; a[2] = 1; a[3] = 17; a[4] = 1024; a[5] = 1024; },
          (a) => { a[6] = notObject(); },
          (a) => setOption(a, 6, 'alignCorners', badBool()),
        ],
      ];
    },
    gridSimilarity: () => {
      const d = int(1, 8);
      const n = int(1, 6);
      return [
        [rng.floats(n * d), d, int(0, n - 1), pick([undefined, { cosine: next() < 0.5 }])],
        [
          // n·d + 1 is a whole number of rows when d = 1: then an empty table instead.
          (a) => { a[0] = pick([notArray(), rng.floats(d > 1 ? n * d + 1 : 0), Float32Array.of(...rng.floats(n * d - 1), -Infinity)]); },
          (a) => { a[1] = badInt(1, CAP.dim); },
          (a) => { a[2] = pick([badInt(0, CAP.elements), n + int(0, 9)]); },
          (a) => { a[3] = notObject(); },
          (a) => setOption(a, 3, 'cosine', badBool()),
        ],
      ];
    },
  };
  // The same (invalid) value behind caller code the glue must read through: an Array behind a
  // Proxy whose get trap forwards, an options object whose values are getters. Only plain Arrays
  // and plain objects are disguised (a Proxy of a typed array is no typed array any more), so a
  // disguised call is exactly as invalid as the bare one.
  const disguise = (v, depth = 0) => {
    if (depth > 2) return v;
    if (Array.isArray(v)) return new Proxy(v, { get: (target, key) => Reflect.get(target, key) });
    if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
      const o = {};
      for (const [key, x] of Object.entries(v)) {
        const inner = disguise(x, depth + 1);
        Object.defineProperty(o, key, { get: () => inner, enumerable: true });
      }
      return o;
    }
    return v;
  };

  const names = Object.keys(specs);
  return () => {
    const fn = pick(names);
    const [args, corruptors] = specs[fn]();
    const count = int(1, 3);
    const chosen = new Set();
    while (chosen.size < Math.min(count, corruptors.length)) chosen.add(pick(corruptors));
    for (const corrupt of chosen) corrupt(args);
    return [fn, next() < 0.2 ? args.map((v) => disguise(v)) : args];
  };
}

// A Function the fuzz can call to collect garbage between measurements (the test runner gives no
// --expose-gc flag); measurements without it would still be valid, only noisier.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

// Every binding error starts with the argument it is about (see wasm/bindings/args.hpp).
const BINDING_MESSAGE = /^(options|scaling|positions|dModel|dim|x|q|k|m|n|nHeads|length|slope|relativePositions|numBuckets|maxDistance|queryLength|keyLength|causal|rows|base|offset|seed|std|maxPositions|layout|bias|scale|cols|queries|keys|family|which|columns|query|heads|head|i|j|d|r|c|table|newRows|newCols|index)\b/;

const MiB = 2 ** 20;
const CALLS_PER_MODULE = 10000;

/**
 * Memory after a full collection, settled. Right after gc(), rss still counts pages V8 has freed
 * but not yet handed back: large objects are unmapped by a background task, which lags on a
 * loaded machine. That is how a run once failed with "rss grew by 127.7 MiB" on the scalar
 * module: one 2^24-element holey Array (128 MiB), garbage by then, which the JS glue used to
 * allocate for every oversized Array argument (fixed in wasm/posenc.js). So this collects, lets
 * the background tasks run, and repeats until rss stops falling, keeping the lowest reading.
 * Memory that is really held (a leak in the wasm heap, which never shrinks, or live JS objects)
 * does not go away between readings, so settling hides none of it.
 */
async function memory() {
  let best = null;
  for (let round = 0; round < 10; round++) {
    gc();
    const { rss, arrayBuffers, heapUsed } = process.memoryUsage();
    const settled = best && rss > best.rss - MiB;
    best = best
      ? { rss: Math.min(rss, best.rss), arrayBuffers: Math.min(arrayBuffers, best.arrayBuffers), heapUsed: Math.min(heapUsed, best.heapUsed) }
      : { rss, arrayBuffers, heapUsed };
    if (settled) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return best;
}

describe('hostile-input fuzz', () => {
  for (const [index, pe] of modules.entries()) {
    test(`${CALLS_PER_MODULE} random bad calls on the ${moduleName(pe)} all throw RangeError or TypeError, and memory stays bounded`, async (t) => {
      const next = fuzzer(prng(0xbad + index));
      const failures = [];
      const run = (calls) => {
        for (let i = 1; i <= calls; i++) {
          const [fn, args] = next();
          const label = () => `${fn}(${args.map(describeValue).join(', ')})`;
          try {
            const result = pe[fn](...args);
            failures.push(`${label()} returned ${describeValue(result)}`);
          } catch (e) {
            if (!(e?.constructor === RangeError || e?.constructor === TypeError)) {
              failures.push(`${label()} threw ${e?.constructor?.name}: ${e?.message}`);
            } else if (!BINDING_MESSAGE.test(e.message)) {
              // A TypeError from the engine itself (say, converting a Symbol deep in the glue)
              // would have unwound through wasm frames: only the binding's own errors count.
              failures.push(`${label()} threw a ${e.constructor.name} that names no argument: ${e.message}`);
            }
          }
          if (i % 250 === 0) assertStillWorks(pe, `${i} fuzzed calls`);
        }
      };
      // Warm-up: JIT code, V8 caches and the wasm heap's high-water mark settle before measuring.
      run(500);
      const before = await memory();
      run(CALLS_PER_MODULE);
      const after = await memory();
      assertStillWorks(pe, 'the fuzz');
      assert.deepEqual(failures.slice(0, 10), [], `${failures.length} calls did not throw a RangeError/TypeError`);
      // Why 64 MiB: every bad call must fail before it allocates its result, and the biggest
      // legal result is 2^24 floats = 64 MiB; the module's heap grows in steps and never shrinks,
      // so one leaked or over-cap allocation per call over 10000 calls would add far more than
      // this (even 8 KiB per call is 78 MiB), while GC and JIT noise stay well below it. The JS
      // heap (heapUsed: objects still alive after a full collection, e.g. anything the glue
      // kept) is held to the same bound.
      const grew = Object.fromEntries(Object.keys(after).map((key) => [key, (after[key] - before[key]) / MiB]));
      t.diagnostic(`memory growth over ${CALLS_PER_MODULE} bad calls: rss ${grew.rss.toFixed(1)} MiB, arrayBuffers ${grew.arrayBuffers.toFixed(1)} MiB, heapUsed ${grew.heapUsed.toFixed(1)} MiB`);
      assert.ok(grew.rss < 64, `rss grew by ${grew.rss.toFixed(1)} MiB`);
      assert.ok(grew.arrayBuffers < 64, `arrayBuffers grew by ${grew.arrayBuffers.toFixed(1)} MiB`);
      assert.ok(grew.heapUsed < 64, `heapUsed grew by ${grew.heapUsed.toFixed(1)} MiB`);
    });
  }
});

// [NO ALLOCATION BEFORE THE CHECKS] ---------------------------------------------------------
// The rss check above cannot see a bad call that allocates its (large) result before it fails:
// the wasm heap grows once and reuses the space afterwards. So this looks inside a fresh module,
// calling the raw embind functions (they return the Error instead of throwing it). Each call is
// wrong only in its last element or in an option checked late, with sizes whose result would be
// 32 to 64 MiB: more than the module's initial 32 MiB heap has free, while the copies of the
// inputs (8 MiB at most) fit. A binding that allocated its result before checking every input
// grows the heap (transformerXlRow did, by 32 MiB, until its keys were checked first). No embind
// handle and no stack may be left behind either.
const lastIs = (T, length, value, fill = (i) => 0) => {
  const a = T.from({ length }, (_, i) => fill(i));
  a[length - 1] = value;
  return a;
};
const LATE_ERRORS = [
  ['transformerXlRow', () => [1, lastIs(Float64Array, 2 ** 20, NaN), 16, undefined], RangeError, /^keys\[1048575\]/],
  ['alibiBiasBlock', () => [lastIs(Float64Array, 4096, NaN), 4096, 0.5, undefined], RangeError, /^queries\[4095\]/],
  ['familyAttention', () => ['rope', 4096, 64, { rows: lastIs(Float64Array, 4096, 4096, (i) => i) }], RangeError, /^rows\[4095\]/],
  ['interpolateGrid', () => [lastIs(Float32Array, 16 * 16 * 16, NaN), 16, 16, 16, 1024, 1024, undefined], RangeError, /^table\[4095\]/],
  ['axialRope', () => [lastIs(Float32Array, 4096, Infinity), 64, 64, undefined], RangeError, /^x\[4095\]/],
  ['sincos2d', () => [1024, 1024, 16, { base: 1 }], RangeError, /^base\b/],
  ['learnedGrid', () => [1024, 1024, 16, { std: NaN }], RangeError, /^std\b/],
  ['attention', () => [lastIs(Float32Array, 4096, NaN), new Float32Array(4096), 1, undefined], RangeError, /^q\[4095\]/],
  ['learned', () => [lastIs(Float64Array, 2 ** 20, 2 ** 20), 16, { maxPositions: 2 ** 20 }], RangeError, /^positions\[1048575\]/],
];

describe('bad calls fail before they allocate their result', () => {
  for (const variant of ['simd', 'scalar']) {
    test(`${LATE_ERRORS.length} calls that fail late leave the wasm heap, embind handles and stack of a fresh ${variant} module as they were`, async () => {
      const dist = new URL('../../wasm/dist/', import.meta.url);
      const factory = (await import(new URL(`posenc-${variant}.mjs`, dist).href)).default;
      const m = await factory({ wasmBinary: await readFile(new URL(`posenc-${variant}.wasm`, dist)) });
      const before = { heap: m.HEAP8.length, handles: m.count_emval_handles(), stack: m.stackSave() };
      for (const [fn, args, cls, pattern] of LATE_ERRORS) {
        const result = m[fn](...args());
        assert.ok(result instanceof cls && pattern.test(result.message), `${fn}: expected a ${cls.name} matching ${pattern}, got ${describeValue(result)} ${result?.message ?? ''}`);
        const now = { heap: m.HEAP8.length, handles: m.count_emval_handles(), stack: m.stackSave() };
        assert.deepEqual(now, before, `${fn}: the module's heap size, embind handles and stack pointer changed`);
      }
    });
  }
});

// [THROWING GETTERS] ------------------------------------------------------------------------
// A getter or Proxy trap in the arguments can throw while the binding is reading it, i.e. with
// wasm frames on the stack. The caller's own error must come out unchanged, and the instance
// must be unharmed however often it happens. The default wasm stack is 5 MiB, so a leak of even
// 32 bytes of stack per such call would overflow it within the 200000 calls below and start
// overwriting the module's static data. Fresh instances: a failure here must not spill into the
// tests above.

describe('errors thrown by the caller\'s own getters', () => {
  const CALLS = 200000;
  for (const simd of [true, false]) {
    test(`a throwing getter's error propagates unchanged ${CALLS} times and the ${simd ? 'SIMD' : 'scalar'} module keeps working`, async () => {
      const pe = await loadPosenc({ simd });
      const boom = new Error('boom from a getter');
      const hostileOptions = { get base() { throw boom; } };
      const hostileArray = new Proxy([1, 2], { get(target, key) { if (key === '0') throw boom; return Reflect.get(target, key); } });
      const calls = [
        () => pe.sinusoidal(2, 4, hostileOptions),
        () => pe.t5Bucket(hostileArray),
        () => pe.ropeFrequencies(8, hostileOptions),
        () => pe.familyAttention('rope', 8, 8, hostileOptions),
        () => pe.alibiBiasBlock(hostileArray, 2, 0.5),
        () => pe.transformerXlRow(1, hostileArray, 8),
        () => pe.interpolateGrid(hostileArray, 1, 2, 1, 2, 2),
        () => pe.axialRopeScores(2, 2, 8, 0, 0, hostileOptions),
      ];
      for (let i = 1; i <= CALLS; i++) {
        let thrown;
        try {
          calls[i % calls.length]();
        } catch (e) {
          thrown = e;
        }
        assert.equal(thrown, boom, `call ${i}: expected the getter's own error, got ${describeValue(thrown)} ${thrown?.message ?? ''}`);
        if (i % 10000 === 0) assertStillWorks(pe, `${i} throwing getters`);
      }
      assertStillWorks(pe, `${CALLS} throwing getters`);
    });
  }
});
