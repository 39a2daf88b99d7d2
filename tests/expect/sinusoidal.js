// Step 2, the sinusoidal table: what the page must show, computed here from the formulas.
// Used by tests/browser/sinusoidal.test.js (Chromium) and the cross-engine suite (tests/engines/).
import { minus } from '../browser/steps.js';

export const D = 20;

// ω_i = 10000^(-2i/d); PE[pos, 2i] = sin(pos ω_i), PE[pos, 2i+1] = cos(pos ω_i), in float64.
export const omega = (dim, d = D) => 10000 ** (-(2 * Math.floor(dim / 2)) / d);
export const pe = (pos, dim, d = D) => (dim % 2 === 0 ? Math.sin : Math.cos)(pos * omega(dim, d));

/** A state the cross-engine suite opens, and its readouts (the page writes m.fixed: toFixed, U+2212). */
export function seed() {
  const [pos, dim] = [33, 13];
  const angle = pos * omega(dim);
  const value = pe(pos, dim);
  return {
    query: `pos=${pos}&dim=${dim}`,
    readouts: {
      angle: { value: angle, tol: 1e-9, text: minus(angle.toFixed(2)) },
      value: { value, tol: 2e-6, text: minus(value.toFixed(3).replace('-0.000', '0.000')) },
    },
  };
}
