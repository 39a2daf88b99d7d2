// Step "relative", the numbers: a 20 × 16 sinusoidal table from the core, every PE(m)·PE(n) the
// offset plot can show, and for the two chosen positions their dot product, offset and each
// pair's share of it.
export const POSITIONS = 20;
export const D = 16;
export const PAIRS = D / 2;
export const BASE = 10000;
export const REFERENCES = [0, POSITIONS - 1];  // the two fixed m whose curves sit under the current one

/** Whether both positions can move `by` together and stay in 0..POSITIONS − 1. */
export const canShift = (i, j, by) => Math.min(i, j) + by >= 0 && Math.max(i, j) + by <= POSITIONS - 1;

/** What the step shows, from the core. (i and j, the URL's names, are the positions m and n.) */
export function relativeModel(core) {
  const table = core.sinusoidal(POSITIONS, D, { base: BASE });
  const row = (p) => table.subarray(p * D, (p + 1) * D);
  // Every PE(m)·PE(n) the plot can show, once: 400 float64 dot products from the core.
  const gram = new Float64Array(POSITIONS * POSITIONS);
  for (let a = 0; a < POSITIONS; a++) {
    for (let b = 0; b < POSITIONS; b++) gram[a * POSITIONS + b] = core.sinusoidalDot(a, b, D, { base: BASE });
  }
  return {
    table, row, gram,
    /** The peak PE(m)·PE(m) = d/2, as the core computes it. */
    peak: gram[0],
    /** The offset plot's curve for query position p: x = n − p, y = PE(p)·PE(n), n = 0..19. */
    curve(p) {
      const x = new Float64Array(POSITIONS);
      const y = new Float64Array(POSITIONS);
      for (let q = 0; q < POSITIONS; q++) {
        x[q] = q - p;
        y[q] = gram[p * POSITIONS + q];
      }
      return { x, y };
    },
    /**
     * For positions m = i and n = j: the core's PE(m)·PE(n) (dot), the offset n − m, the
     * distance |n − m|, and each pair's share of the dot product (shares).
     */
    readout({ i, j }) {
      // Pair k of PE(m) against pair k of PE(n): an 8 × 8 table of 2-dim dot products from the
      // core, whose diagonal holds the pair's own term cos(ω_k (n − m)).
      const cross = core.attention(row(i), row(j), 2, { softmax: false, scale: 1 });
      const shares = Float64Array.from({ length: PAIRS }, (_, k) => cross[k * PAIRS + k]);
      const offset = j - i;
      return { dot: core.sinusoidalDot(i, j, D, { base: BASE }), offset, distance: Math.abs(offset), shares };
    },
  };
}
