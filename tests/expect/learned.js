// Step 8, learned tables: what the page must show, computed here from the formulas.
// Used by tests/browser/learned.test.js (Chromium) and the cross-engine suite (tests/engines/).
import { minus } from '../browser/steps.js';
import { learnedRow } from '../js/reference.js';  // the seeded rows of core/learned.cpp

export const TABLES = { small: { T: 16, d: 8 }, bert: { T: 512, d: 768 }, gpt2: { T: 1024, d: 768 } };

// Sinusoidal PE(pos, c) = sin/cos(pos·10000^(−2⌊c/2⌋/d)); RoPE (interleaved) turns the pair
// (1, 0) by pos·10000^(−2i/d) into (cos, sin) of that angle.
export const omega = (c, d) => 10000 ** (-(2 * Math.floor(c / 2)) / d);
export const sinusoid = (pos, c, d) => (c % 2 ? Math.cos : Math.sin)(pos * omega(c, d));
export const rope = (pos, c, d) => (c % 2 ? Math.sin : Math.cos)(pos * omega(c, d));
export const fixed = (v, n) => minus(v.toFixed(n).replace(/^-(0\.0*)$/, '$1'));

/** A state the cross-engine suite opens (BERT's table, a row inside it), and its readouts. */
export function seed() {
  const [preset, pos] = ['bert', 300];
  const { T, d } = TABLES[preset];
  const row = learnedRow(pos, Math.min(d, 16));
  return {
    query: `preset=${preset}&pos=${pos}`,
    readouts: {
      size: { value: T, tol: 0, text: T.toLocaleString('en') },
      params: { value: T * d, tol: 0, text: (T * d).toLocaleString('en') },
      sin: { value: Math.sin(pos), tol: 3e-7, text: fixed(Math.sin(pos), 3) },
      rope: { value: Math.cos(pos), tol: 3e-7, text: fixed(Math.cos(pos), 3) },
      row: { value: row[0], tol: 1e-9, text: fixed(row[0], 4) },
    },
  };
}
