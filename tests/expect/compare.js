// Step 6, sinusoidal vs RoPE: what the page must show, computed here from the formulas.
// Used by tests/browser/compare.test.js (Chromium) and the cross-engine suite (tests/engines/).

export const D = 8;
export const PAIR = [0.6, 0.4];

// ω_k = 10000^(−2k/d); PE(m)·PE(n) = Σ_k sin(mω)sin(nω) + cos(mω)cos(nω) = Σ_k cos((m − n)ω_k).
export const omega = (k) => 10000 ** (-(2 * k) / D);
export const sinDot = (m, n) => {
  let sum = 0;
  for (let k = 0; k < D / 2; k++) sum += Math.cos((m - n) * omega(k));
  return sum;
};
// RoPE with the same θ_k = ω_k and q = k = (0.6, 0.4) in every pair: each pair contributes
// |(0.6, 0.4)|² cos((m − n)θ_k), so q'·k' = 0.52 · Σ_k cos((m − n)ω_k).
export const pairNorm = PAIR[0] ** 2 + PAIR[1] ** 2;
export const ropeDot = (m, n) => pairNorm * sinDot(m, n);
// The rotations written out, as a check on the shortcut above: rotate each pair by pos·θ_k.
export const rotate = (pos) => Array.from({ length: D / 2 }, (_, k) => {
  const a = pos * omega(k);
  return [PAIR[0] * Math.cos(a) - PAIR[1] * Math.sin(a), PAIR[0] * Math.sin(a) + PAIR[1] * Math.cos(a)];
});
export const ropeDotByRotation = (m, n) => {
  const q = rotate(m);
  const k = rotate(n);
  return q.reduce((sum, [x, y], i) => sum + x * k[i][0] + y * k[i][1], 0);
};
export const two = (v) => v.toFixed(2);

/** A state the cross-engine suite opens, and its readouts. */
export function seed() {
  const [m, n] = [11, 3];
  return {
    query: `m=${m}&n=${n}`,
    readouts: {
      distance: { value: Math.abs(m - n), tol: 0, text: String(Math.abs(m - n)) },
      'sin-dot': { value: sinDot(m, n), tol: 1e-9, text: two(sinDot(m, n)) },
      'rope-dot': { value: ropeDot(m, n), tol: 2e-5, text: two(ropeDot(m, n)) },
    },
  };
}
