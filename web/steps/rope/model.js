// Step "rope", the numbers: d = 8, four pairs, q = k = (0.6, 0.4) in every pair (interleaved
// layout: pair i is dimensions 2i, 2i+1), rotated by the core at the query position m and the
// key position n, and scored; every (m, n) score for the shift plot.
export const D = 8;
export const PAIRS = D / 2;
export const POSITIONS = 20;
export const LAYOUT = 'interleaved';
export const PAIR = [0.6, 0.4];
export const Q = Float32Array.from({ length: D }, (_, j) => PAIR[j % 2]);
export const K = Float32Array.from({ length: D }, (_, j) => PAIR[j % 2]);
const DOT = { softmax: false, scale: 1 };

/** Whether both positions can move `by` together and stay in 0..POSITIONS − 1. */
export const canShift = (qpos, kpos, by) => Math.min(qpos, kpos) + by >= 0 && Math.max(qpos, kpos) + by <= POSITIONS - 1;

/** n copies of an 8-vector, one per row. */
function rows(v, n) {
  const out = new Float32Array(n * v.length);
  for (let r = 0; r < n; r++) out.set(v, r * v.length);
  return out;
}

/** What the step shows, from the core: θ and every score up front, readout({ qpos, kpos }) per state. */
export function ropeModel(core) {
  const theta = core.ropeFrequencies(D).invFreq;  // θ_i = 10000^(−2i/d)
  // Every (m, n) score for the plot, once: rotate q and k at all 20 positions, then Q·Kᵀ.
  const all = Array.from({ length: POSITIONS }, (_, p) => p);
  const qAll = core.ropeApply(rows(Q, POSITIONS), all, D, { layout: LAYOUT });
  const kAll = core.ropeApply(rows(K, POSITIONS), all, D, { layout: LAYOUT });
  const scores = core.attention(qAll, kAll, D, DOT);  // scores[m * 20 + n] = q′(m)·k′(n)
  return {
    theta, scores, positions: all,
    /**
     * For query position m = qpos and key position n = kpos: q′ and k′ (q, k), the score q′·k′
     * (qk), the signed offset n − m, per pair its q′, k′, its angles m·θᵢ and n·θᵢ and the turn
     * Δᵢ = (n − m)·θᵢ from q′ to k′ (unwound), and the shift plot's two series: the diagonal
     * through (m, n) (both positions moved together; x = m) and the row of n fixed (x = m).
     */
    readout({ qpos, kpos }) {
      const q = core.ropeApply(Q, [qpos], D, { layout: LAYOUT });
      const k = core.ropeApply(K, [kpos], D, { layout: LAYOUT });
      const qk = core.attention(q, k, D, DOT)[0];
      const offset = kpos - qpos;
      const pairs = Array.from({ length: PAIRS }, (_, i) => ({
        q: [q[2 * i], q[2 * i + 1]], k: [k[2 * i], k[2 * i + 1]],
        qAngle: qpos * theta[i], kAngle: kpos * theta[i], delta: offset * theta[i],
      }));
      const both = { x: [], y: [] };
      for (let mq = Math.max(0, -offset); mq <= Math.min(POSITIONS - 1, POSITIONS - 1 - offset); mq++) {
        both.x.push(mq);
        both.y.push(scores[mq * POSITIONS + mq + offset]);
      }
      const qOnly = { x: all, y: all.map((mq) => scores[mq * POSITIONS + kpos]) };
      return { q, k, qk, offset, pairs, both, qOnly };
    },
  };
}
