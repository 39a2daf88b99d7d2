// Step 17, the numbers in code: what the page must show, computed here from the formulas.
// Used by tests/browser/code.test.js (Chromium) and the cross-engine suite (tests/engines/).
import { alibiSlopes as referenceAlibiSlopes } from '../js/reference.js';
import { dot, fixed, permuted, raw, rotateHalf, score } from './rope.js';

// The formulas, written out here -----------------------------------------------------------------
export const sinOmega = (k, d) => 10000 ** (-(2 * k) / d);
export const own = {
  pe: ({ pos, dim }) => (dim % 2 === 0 ? Math.sin : Math.cos)(pos * sinOmega(Math.floor(dim / 2), 20)),
  wavelength: ({ wdim }) => 2 * Math.PI * 10000 ** ((2 * Math.floor(wdim / 2)) / 16),
  dot: ({ width, i, j }) => {
    let sum = 0;
    for (let k = 0; k < width / 2; k++) sum += Math.cos(sinOmega(k, width) * (i - j));
    return sum;
  },
  // q = k = (0.6, 0.4) in every pair: rotating both, pair k contributes |(0.6, 0.4)|²·cos((m − n)θ_k).
  rope: ({ m, n }) => {
    let sum = 0;
    for (let k = 0; k < 4; k++) sum += (0.36 + 0.16) * Math.cos((m - n) * sinOmega(k, 8));
    return sum;
  },
  // d = 16, the first r = 4 turn as rotate_half pairs (0, 2) and (1, 3), frequencies 10000^(−2k/4);
  // the other 12 pass through: 6 · (0.36 + 0.16), whatever m and n are.
  'partial-rope': ({ m, n }) => {
    let sum = 6 * (0.36 + 0.16);
    for (let k = 0; k < 2; k++) sum += 2 * [0.36, 0.16][k] * Math.cos((m - n) * sinOmega(k, 4));
    return sum;
  },
  t5: ({ rel, bidir }) => t5Exact(rel, bidir),
  alibi: ({ heads, head, dist }) => Math.fround(-alibiSlopes(heads)[head - 1] * dist) || 0,
  scaled: ({ scaling, factor, pair }) => 2 * Math.PI / scaledInvFreq(scaling, factor)[pair],
};

// T5 with integers only: from `exact` on, bucket exact + s for the largest s with
// n ≥ exact·(maxDistance/exact)^(s/(nb − exact)), i.e. n^(nb−exact) ≥ exact^(nb−exact)·ratio^s.
export function t5Exact(rel, bidirectional, numBuckets = 32, maxDistance = 128) {
  let nb = numBuckets;
  let bucket = 0;
  let n;
  if (bidirectional) {
    nb /= 2;
    if (rel > 0) bucket += nb;
    n = Math.abs(rel);
  } else {
    n = Math.max(-rel, 0);
  }
  const exact = nb / 2;
  if (n < exact) return bucket + n;
  const span = nb - exact;
  const ratio = BigInt(maxDistance / exact);
  const lhs = BigInt(n) ** BigInt(span);
  let s = 0;
  while (s + 1 <= span - 1 && lhs >= BigInt(exact) ** BigInt(span) * ratio ** BigInt(s + 1)) s++;
  return bucket + exact + s;
}

// ALiBi slopes as in the paper's code (tests/js/reference.js).
export const alibiSlopes = (n) => Array.from(referenceAlibiSlopes(n));

// RoPE inverse frequencies, d = 128, base 10000, original context 4096 (modeling_rope_utils.py;
// ntk: bloc97's static NTK-aware base, base·s^(d/(d−2))).
export function scaledInvFreq(type, factor, d = 128, base = 10000, L = 4096) {
  const plain = (b) => Array.from({ length: d / 2 }, (_, k) => b ** (-(2 * k) / d));
  const f = plain(base);
  switch (type) {
    case 'linear': return f.map((x) => x / factor);
    case 'ntk': return plain(base * factor ** (d / (d - 2)));
    case 'dynamic': return plain(base * (factor * (factor * L) / L - factor + 1) ** (d / (d - 2)));
    case 'yarn': {
      const corr = (r) => (d * Math.log(L / (2 * Math.PI * r))) / (2 * Math.log(base));
      const low = Math.max(Math.floor(corr(32)), 0);
      let high = Math.min(Math.ceil(corr(1)), d - 1);
      if (low === high) high += 0.001;
      return f.map((x, k) => {
        const ramp = Math.min(1, Math.max(0, (k - low) / (high - low)));
        return x * (1 - ramp) + (x / factor) * ramp;
      });
    }
    case 'llama3': return f.map((x) => {
      const wl = 2 * Math.PI / x;
      if (wl < L / 4) return x;
      if (wl > L / 1) return x / factor;
      const s = (L / wl - 1) / (4 - 1);
      return (1 - s) * x / factor + s * x;
    });
    default: return f;
  }
}

export const DIGITS = { pe: 4, wavelength: 2, dot: 4, rope: 4, 'partial-rope': 4, t5: 0, alibi: 6, scaled: 2 };
export const TOL = { pe: 2e-7, wavelength: 1e-9, dot: 1e-12, rope: 2e-6, 'partial-rope': 2e-6, t5: 0, alibi: 0, scaled: 1e-9 };

/** A state the cross-engine suite opens (YaRN ×16's wavelength of pair 30), and its readout. */
export function seed() {
  const state = { quantity: 'scaled', scaling: 'yarn', factor: 16, pair: 30, m: 12, n: 5 };
  const q = state.quantity;
  const want = own[q](state);
  // The text has the quantity's digits and is the value rounded to them.
  const shows = (v, text) => (text.split('.')[1] ?? '').length === DIGITS[q] &&
    Math.abs(Number(text) - want) <= 0.5 * 10 ** -DIGITS[q] + 1e-9;
  // The pairing table at this m and n (the step's fold): neighbours, rotate_half on the same
  // vectors, and rotate_half on the permuted ones, which gives the neighbours' score again.
  const { m, n } = state;
  const neighbours = score(m, n);
  const half = dot(rotateHalf(raw, m), rotateHalf(raw, n));
  return {
    query: new URLSearchParams(state).toString(),
    readouts: {
      value: { value: want, tol: TOL[q] * Math.max(1, Math.abs(want)), check: [shows, `${want} to ${DIGITS[q]} decimals`] },
      'pairing-interleaved': { value: neighbours, tol: 2e-5, text: fixed(neighbours, 4) },
      'pairing-half': { value: half, tol: 2e-5, text: fixed(half, 4) },
      'pairing-permuted': { value: dot(rotateHalf(permuted, m), rotateHalf(permuted, n)), tol: 2e-5, text: fixed(neighbours, 4) },
    },
  };
}
