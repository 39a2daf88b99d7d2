// Step 4, relative distance: what the page must show, computed here from the formulas.
// Used by tests/browser/relative.test.js (Chromium) and the cross-engine suite (tests/engines/).

export const D = 16;
export const PAIRS = D / 2;

// ω_k = 10000^(-2k/d); PE(i)·PE(j) = Σ_k cos(ω_k (i − j)); PE[p, 2k] = sin(p ω_k), PE[p, 2k+1] = cos(p ω_k).
export const omega = (k) => 10000 ** (-(2 * k) / D);
export const dot = (i, j) => {
  let sum = 0;
  for (let k = 0; k < PAIRS; k++) sum += Math.cos(omega(k) * (i - j));
  return sum;
};
export const pe = (p, dim) => (dim % 2 === 0 ? Math.sin : Math.cos)(p * omega(Math.floor(dim / 2)));
export const text2 = (v) => v.toFixed(2).replace(/^-0\.00$/, '0.00');

/** A state the cross-engine suite opens, and its readouts. */
export function seed() {
  const [i, j] = [12, 5];
  return {
    query: `i=${i}&j=${j}`,
    readouts: {
      dot: { value: dot(i, j), tol: 1e-9, text: text2(dot(i, j)) },
      distance: { value: Math.abs(i - j), tol: 0, text: String(Math.abs(i - j)) },
    },
  };
}
