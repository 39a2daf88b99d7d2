// Step 13, positions on an image: what the page must show, computed here from the formulas.
// Used by tests/browser/vision.test.js (Chromium) and the cross-engine suite (tests/engines/).
import { minus } from '../browser/steps.js';

export const D = 64;
export const QUARTER = D / 4;

export const omega = (k, base) => base ** (-k / QUARTER);

/** MAE's 2-D sin-cos vector of patch (r, c): [sin cω | cos cω | sin rω | cos rω]. */
export function sincosVector(r, c, base) {
  const v = new Float64Array(D);
  for (let k = 0; k < QUARTER; k++) {
    v[k] = Math.sin(c * omega(k, base));
    v[QUARTER + k] = Math.cos(c * omega(k, base));
    v[2 * QUARTER + k] = Math.sin(r * omega(k, base));
    v[3 * QUARTER + k] = Math.cos(r * omega(k, base));
  }
  return v;
}

/** The 1-D sinusoidal vector of patch number p (interleaved sin, cos; ω_i = base^(−2i/d)). */
export function flatVector(p, base) {
  const v = new Float64Array(D);
  for (let i = 0; i < D / 2; i++) {
    v[2 * i] = Math.sin(p * base ** (-(2 * i) / D));
    v[2 * i + 1] = Math.cos(p * base ** (-(2 * i) / D));
  }
  return v;
}

/** q = (0.6, 0.4) in every pair, rotated at (r, c): pairs 0..15 by c·ω_k, 16..31 by r·ω_k. */
export function ropeVector(r, c, base) {
  const v = new Float64Array(D);
  for (let p = 0; p < D / 2; p++) {
    const angle = p < QUARTER ? c * omega(p, base) : r * omega(p - QUARTER, base);
    v[2 * p] = 0.6 * Math.cos(angle) - 0.4 * Math.sin(angle);
    v[2 * p + 1] = 0.4 * Math.cos(angle) + 0.6 * Math.sin(angle);
  }
  return v;
}

export function cosine(a, b2) {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let j = 0; j < a.length; j++) {
    ab += a[j] * b2[j];
    aa += a[j] * a[j];
    bb += b2[j] * b2[j];
  }
  return ab / Math.sqrt(aa * bb);
}

/** PyTorch F.interpolate(mode='bilinear', align_corners=False) of an n×n grid of d-vectors. */
export function bilinear(table, n, nn) {
  const taps = (i) => {
    const s = Math.max(0, ((i + 0.5) * n) / nn - 0.5);
    const i0 = Math.floor(s);
    return [i0, Math.min(i0 + 1, n - 1), s - i0];
  };
  const out = [];
  for (let r = 0; r < nn; r++) {
    const [y0, y1, ly] = taps(r);
    for (let c = 0; c < nn; c++) {
      const [x0, x1, lx] = taps(c);
      const v = new Float64Array(D);
      for (let j = 0; j < D; j++) {
        const at = (rr, cc) => table[rr * n + cc][j];
        v[j] = (1 - ly) * ((1 - lx) * at(y0, x0) + lx * at(y0, x1)) + ly * ((1 - lx) * at(y1, x0) + lx * at(y1, x1));
      }
      out.push(v);
    }
  }
  return out;
}

/** A state the cross-engine suite opens (axial RoPE on 14 × 14 patches), and its readouts. */
export function seed() {
  const [n, base, r, c, r2, c2] = [14, 100, 6, 1, 2, 12];
  const a = ropeVector(r, c, base);
  const b = ropeVector(r2, c2, base);
  const similarity = cosine(a, b);
  const dot = a.reduce((acc, x, j) => acc + x * b[j], 0);
  const fixed = (v, digits) => minus(v.toFixed(digits).replace(/^-(0\.0+)$/, '$1'));
  return {
    query: `method=rope&grid=${n}&base=${base}&r=${r}&c=${c}&r2=${r2}&c2=${c2}`,
    readouts: {
      patch: { value: r * n + c, tol: 0, text: `(${r}, ${c})` },
      second: { value: r2 * n + c2, tol: 0, text: `(${r2}, ${c2})` },
      grid: { value: n * n, tol: 0, text: `${n} × ${n}` },
      similarity: { value: similarity, tol: 2e-6, text: fixed(similarity, 3) },
      dot: { value: dot, tol: 2e-5 * Math.max(1, Math.abs(dot)), text: fixed(dot, 3) },
    },
  };
}
