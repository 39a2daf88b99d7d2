// Step 10, ALiBi: what the page must show, computed here from the formulas.
// Used by tests/browser/alibi.test.js (Chromium) and the cross-engine suite (tests/engines/).
import { minus } from '../browser/steps.js';
import { alibiSlopes } from '../js/reference.js';

export const TRAIN = 1024;

/** ALiBi slopes as ofirpress/attention_with_linear_biases get_slopes builds them (tests/js/reference.js). */
export const slopes = (n) => Array.from(alibiSlopes(n));

/** Softmax weights of the last query by distance d = 0..len−1, and the share at d ≥ TRAIN. */
export function weights(m, len) {
  const raw = Array.from({ length: len }, (_, d) => Math.exp(-m * d));
  const z = raw.reduce((a, v) => a + v, 0);
  const p = raw.map((v) => v / z);
  return { p, far: p.slice(TRAIN).reduce((a, v) => a + v, 0) };
}

export const fixed = (v, n) => minus(v.toFixed(n).replace(/^-(0\.0*)$/, '$1'));

/**
 * A state the cross-engine suite opens (6 heads, not a power of two; a sequence twice the
 * training length), and its readouts. `near` is a shown text's tolerance, as the Chromium test
 * reads the weights (four decimals).
 */
export function seed() {
  const [heads, head, len, dist] = [6, 6, 2048, 5];
  const m = slopes(heads)[head - 1];
  const i = len - 1;
  const j = i - dist;
  const { p, far } = weights(m, len);
  const bias = -m * (i - j);
  return {
    query: `heads=${heads}&head=${head}&len=${len}&dist=${dist}`,
    readouts: {
      slope: { value: m, tol: 1e-12 * m, text: m.toFixed(5) },
      i: { value: i, tol: 0 },
      j: { value: j, tol: 0, text: String(j) },
      bias: { value: bias, tol: 1e-7 * Math.abs(bias) + 1e-12, text: fixed(bias, 3) },
      prob: { value: p[dist], tol: 1e-6 * p[dist] + 1e-9, near: [p[dist], 0.5e-4 + 1e-7] },
      far: { value: far, tol: 1e-5 * far + 1e-7, near: [far, 0.5e-4 + 1e-7] },
    },
  };
}
