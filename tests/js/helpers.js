// Shared by the node:test files: loading both builds, tolerance assertions, a seeded PRNG.
// Not a test file itself (node --test only runs *.test.js here).

import assert from 'node:assert/strict';

import { loadPosenc } from '../../wasm/posenc.js';

/** Both builds, SIMD first. Every case in the suite runs against each. */
export async function loadBoth() {
  return [await loadPosenc({ simd: true }), await loadPosenc({ simd: false })];
}

export const moduleName = (pe) => (pe.simd ? 'SIMD module' : 'scalar module');

// [TOLERANCES] ------------------------------------------------------------------------------
// |got - want| <= abs + rel * |want|. One entry per kind of output; exceptions say why.
export const TOL = {
  // Double all the way through (frequencies, dot products, attention factors).
  f64: { abs: 1e-12, rel: 1e-9 },
  // Float32 sin/cos at small positions: the kernel's contract is 2e-7 absolute (angle reduced in
  // double, Cephes polynomial in float) plus the float32 rounding of the result (6e-8 relative).
  // Relative error alone is meaningless next to a zero of sin, hence the absolute floor.
  f32: { abs: 3e-7, rel: 1e-6 },
  // Float32 outputs at any position up to 100000: REFERENCES.md promises 2e-6 absolute there
  // (a float32 angle would be off by 5e-3, so this also proves the angle stays in double).
  f32Far: { abs: 2e-6, rel: 0 },
  // RoPE application: two float32 products and a sum per output, inputs in [-1, 1], the attention
  // factor rounded to float32. Still ~1e-6 relative to the pair's magnitude.
  rope: { abs: 1e-6, rel: 1e-6 },
  // Attention: float32 dot products over up to 64 dims feed exp(); the error of a score is
  // ~dim * 2^-24 * |terms|, and a weight inherits it relatively.
  attention: { abs: 2e-6, rel: 1e-5 },
  // ALiBi slopes: fairseq builds them as start * ratio**i, the core as 2^(-8k/n); both are
  // double but round differently in the last bits (REFERENCES.md: rel 1e-12).
  alibi: { abs: 0, rel: 1e-12 },
  // A float32 rounding of a double value: half an ulp, 2^-24 relative.
  f32Round: { abs: 0, rel: 2 ** -24 },
};

/**
 * Elementwise |got - want| <= abs + rel |want| (and equal infinities). The failure message names
 * the first bad index, both values, and the worst error seen.
 */
export function assertAllClose(got, want, { abs = 0, rel = 0 } = {}, label = 'values') {
  assert.equal(got.length, want.length, `${label}: length ${got.length}, expected ${want.length}`);
  let first = -1;
  let worst = 0;
  for (let i = 0; i < want.length; i++) {
    const g = got[i];
    const w = want[i];
    if (g === w) continue; // also equal infinities
    const err = Math.abs(g - w);
    if (!(err <= abs + rel * Math.abs(w))) {
      if (first < 0) first = i;
      worst = Math.max(worst, Number.isNaN(err) ? Infinity : err);
    }
  }
  if (first >= 0) {
    assert.fail(
      `${label}: index ${first}: got ${got[first]}, expected ${want[first]} ` +
        `(tolerance abs ${abs} + rel ${rel}; worst error ${worst})`,
    );
  }
}

export function assertClose(got, want, tol, label = 'value') {
  assertAllClose([got], [want], tol, label);
}

/**
 * A readout printed on the page, e.g. '1.17864': the value must round to it (within half a unit
 * in its last printed digit, plus a hair for the decimal representation of the bound).
 */
export function assertReadout(got, literal, label = 'readout') {
  const decimals = (literal.split('.')[1] ?? '').length;
  const halfUnit = 0.5 * 10 ** -decimals;
  const err = Math.abs(got - Number(literal));
  assert.ok(err <= halfUnit * (1 + 1e-9), `${label}: got ${got}, the page shows ${literal} (off by ${err})`);
}

export function dot(a, b) {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

// [PRNG] ------------------------------------------------------------------------------------

/** mulberry32: a small seeded generator, so every random case is reproducible. */
export function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)), // inclusive
    pick: (arr) => arr[Math.floor(next() * arr.length)],
    /** float32 values in [-1, 1) (exactly representable, so the reference sees what wasm sees). */
    floats: (n) => Float32Array.from({ length: n }, () => 2 * next() - 1),
  };
}
