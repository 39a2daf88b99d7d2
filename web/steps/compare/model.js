// Step "compare", the numbers: d = 8. For the query position m, every n in 0..19: the sinusoidal
// PE(m)·PE(n) (core.sinusoidalDot) and the RoPE q′·k′ with q = k = (0.6, 0.4) in each of the
// four pairs (core.ropeApply, then core.attention without softmax).
export const POSITIONS = 20;           // n (and m) run over 0..19
export const D = 8;                    // model width: 4 frequencies, 4 RoPE pairs
export const PAIR = [0.6, 0.4];        // every pair of q and of k
const DOT = { softmax: false, scale: 1 };

/** What the step shows, from the core: curves({ m }) and readout({ m, n }). */
export function compareModel(core) {
  // Position-independent work, once: the same vector at every position 0..19, rotated by RoPE
  // (pair i of row p turned by p·θ_i), and the squared length of one pair, from the core.
  const plain = new Float32Array(POSITIONS * D);
  for (let p = 0; p < POSITIONS; p++) for (let i = 0; i < D; i += 2) plain.set(PAIR, p * D + i);
  const rotated = core.ropeApply(plain, POSITIONS, D, { layout: 'interleaved' });
  const xs = Float64Array.from({ length: POSITIONS }, (_, i) => i);
  const curves = (qPos) => ({
    sin: Float64Array.from(xs, (n) => core.sinusoidalDot(qPos, n, D)),
    rope: core.attention(rotated.subarray(qPos * D, (qPos + 1) * D), rotated, D, DOT),
  });
  return {
    xs,
    /** |(0.6, 0.4)|², the RoPE curve's factor over the sinusoidal one. */
    pairNorm: core.attention(PAIR, PAIR, 2, DOT)[0],
    /** The sinusoidal peak PE(m)·PE(m) = d/2. */
    peak: core.sinusoidalDot(0, 0, D),
    /**
     * For query position m and key position n: both curves over n = 0..19 (sin, rope), the
     * distance |n − m|, the signed offset n − m, and both dot products at n.
     */
    readout({ m, n }) {
      const c = curves(m);
      return { ...c, distance: Math.abs(m - n), offset: n - m, sinDot: c.sin[n], ropeDot: c.rope[n] };
    },
  };
}
