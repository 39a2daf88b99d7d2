// Step 5, RoPE: what the page must show, computed from the formulas in float64. Used by
// tests/browser/rope.test.js (Chromium) and the cross-engine suite (tests/engines/).
import { minus } from '../browser/steps.js';

export const D = 8;
export const PAIR = [0.6, 0.4];

// θ_i = 10000^(−2i/d); pair i at position p is (x, y) turned by p·θ_i (interleaved layout).
export const theta = (i) => 10000 ** (-(2 * i) / D);
export function rotate(pos) {
  const out = [];
  for (let i = 0; i < D / 2; i++) {
    const a = pos * theta(i);
    out.push(PAIR[0] * Math.cos(a) - PAIR[1] * Math.sin(a), PAIR[0] * Math.sin(a) + PAIR[1] * Math.cos(a));
  }
  return out;
}
export const dot = (u, v) => u.reduce((sum, x, j) => sum + x * v[j], 0);
export const score = (m, n) => dot(rotate(m), rotate(n));
export const fixed = (v, digits) => minus(v.toFixed(digits).replace(/^-(0\.0+)$/, '$1'));

// The same raw q = k under rotate_half: pair i is dimensions (i, i + d/2), so the page's vector
// (0.6, 0.4, 0.6, 0.4, ...) pairs (0.6, 0.6) and (0.4, 0.4); permuting it first restores (0.6, 0.4).
// (The code step's pairing table shows the three scores: tests/expect/code.js.)
export function rotateHalf(x, pos) {
  const n = x.length / 2;
  const out = [...x];
  for (let i = 0; i < n; i++) {
    const a = pos * theta(i);
    out[i] = x[i] * Math.cos(a) - x[i + n] * Math.sin(a);
    out[i + n] = x[i + n] * Math.cos(a) + x[i] * Math.sin(a);
  }
  return out;
}
export const raw = Array.from({ length: D }, (_, j) => PAIR[j % 2]);
export const permuted = Array.from({ length: D }, (_, j) => (j < D / 2 ? raw[2 * j] : raw[2 * (j - D / 2) + 1]));

/** A state the cross-engine suite opens, and every readout it must show there (tol: float32). */
export function seed() {
  const [qpos, kpos] = [12, 5];
  const q = rotate(qpos);
  const k = rotate(kpos);
  const qk = score(qpos, kpos);
  return {
    query: `qpos=${qpos}&kpos=${kpos}`,
    readouts: {
      qk: { value: qk, tol: 2e-5, text: fixed(qk, 2) },
      offset: { value: kpos - qpos, tol: 0, text: fixed(kpos - qpos, 0) },  // n − m
      q0x: { value: q[0], tol: 2e-6, text: fixed(q[0], 2) },
      q0y: { value: q[1], tol: 2e-6, text: fixed(q[1], 2) },
      k0x: { value: k[0], tol: 2e-6, text: fixed(k[0], 2) },
      k0y: { value: k[1], tol: 2e-6, text: fixed(k[1], 2) },
    },
  };
}
