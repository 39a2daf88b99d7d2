// Step 14, no positional encoding: what the page must show, computed here from the formulas.
// Used by tests/browser/nope.test.js (Chromium) and the cross-engine suite (tests/engines/).

export const fmt = (digits) => new Intl.NumberFormat('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
export const f3 = (v) => fmt(3).format(v);
export const f2 = (v) => fmt(2).format(v);
export const TOL = 1e-6;  // float32 weights

// Identical tokens: every score equal, so softmax spreads the weight evenly over the visible keys.
export const weight = (i, j, len, causal) => (causal ? (j <= i ? 1 / (i + 1) : 0) : 1 / len);
export const share = (i, len, causal) => weight(i, 0, len, causal);
export const gap = (i, len, causal) => (causal ? 1 / (i + 1) - 1 / (i + 2) : 0);

/** A state the cross-engine suite opens (12 tokens, query 7, with the mask), and its readouts. */
export function seed() {
  const [len, i] = [12, 7];
  const readouts = {
    share: { value: share(i, len, true), tol: TOL, text: f3(share(i, len, true)) },
    decoded: { value: i, tol: 1e-4, text: String(i) },
    gap: { value: gap(i, len, true), tol: TOL, text: f3(gap(i, len, true)) },
    rows: { value: len, tol: 0, text: String(len) },
  };
  for (let r = 0; r < len; r++) {
    for (let c = 0; c < len; c++) {
      const w = weight(r, c, len, true);
      readouts[`w-${r}-${c}`] = { value: w, tol: TOL, text: w === 0 ? '·' : f2(w) };
    }
  }
  return { query: `len=${len}&query=${i}&causal=1`, readouts };
}
