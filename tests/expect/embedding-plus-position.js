// Step 7, embedding plus position: what the page must show, computed here from the formulas.
// Used by tests/browser/embedding-plus-position.test.js (Chromium) and the cross-engine suite (tests/engines/).
import { minus } from '../browser/steps.js';

export const E = [0.51, -0.22, 0.88, 0.14];

// PE(pos) for d = 4, base 10000: [sin(pos), cos(pos), sin(pos·10000^(−1/2)), cos(pos·10000^(−1/2))].
export const pe = (pos) => {
  const slow = pos * 10000 ** (-2 / 4);
  return [Math.sin(pos), Math.cos(pos), Math.sin(slow), Math.cos(slow)];
};
export const input = (pos) => E.map((e, d) => e + pe(pos)[d]);
export const distance = (p, q) => Math.hypot(...input(p).map((v, d) => v - input(q)[d]));
export const fmt = new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
export const two = (v) => minus(fmt.format(v));
// The core works in float32: a value is within a few float32 ulps of the float64 one.
export const TOL = 2e-6;

/** A state the cross-engine suite opens, and its readouts. */
export function seed() {
  const [pos, other] = [33, 2];
  const x = input(pos);
  const readouts = { distance: { value: distance(pos, other), tol: TOL, text: two(distance(pos, other)) } };
  for (let d = 0; d < 4; d++) readouts[`x${d}`] = { value: x[d], tol: TOL, text: two(x[d]) };
  return { query: `pos=${pos}&other=${other}`, readouts };
}
