// Step "alibi", the numbers: the step's constants and what the core computes for a state (heads,
// head, len, dist): every head's slope (core.alibiSlopes), the last query's bias row against all
// keys (core.alibiBiasBlock, content scores all 0, so the scores are the bias) and its softmax
// weights (core.softmax), the readouts read from them, the steepest and shallowest heads, and the
// corner of the bias matrix next to the last query. DOM-free: tests/js/alibi-model.test.js.

export const HEAD_COUNTS = [6, 8, 32, 112];   // 32: MPT-7B; 112: BLOOM-176B
export const MAX_LEN = 2048;
export const LEN_STEP = 32;
export const TRAIN = 1024;                     // the paper's training length, marked on the figures
export const WINDOW = 20;                      // the corner of the bias matrix drawn as a heatmap
const KEPT = 24;                               // rows kept: the last few (slope, length) pairs

/** What the step asks of the core, with the slopes per head count and the last rows kept. */
export function alibiModel(core) {
  const slopesFor = new Map();
  const slopes = (heads) => {
    if (!slopesFor.has(heads)) slopesFor.set(heads, core.alibiSlopes(heads));
    return slopesFor.get(heads);
  };

  // A move of the head or the distance draws the steepest and shallowest heads' rows again,
  // which have not changed: the rows of the last KEPT (slope, length) pairs are kept.
  const kept = new Map();  // `${slope}|${len}` → { bias, prob }
  /** Bias row of the last query (len − 1) against keys 0..len − 1, and its softmax weights (read only). */
  function row(slope, len) {
    const key = `${slope}|${len}`;
    if (!kept.has(key)) {
      if (kept.size >= KEPT) kept.delete(kept.keys().next().value);
      const bias = core.alibiBiasBlock([len - 1], len, slope);
      kept.set(key, { bias, prob: core.softmax(bias, len) });
    }
    return kept.get(key);
  }

  return {
    slopes,
    row,
    /** Everything the readouts, the formula and the figures read for a state. */
    state({ heads, head, len, dist }) {
      const all = slopes(heads);
      const slope = all[head - 1];
      const i = len - 1;
      const j = i - dist;
      const { bias, prob } = row(slope, len);
      let far = 0;
      for (let k = 0; k < len - TRAIN; k++) far += prob[k];  // keys at distance ≥ TRAIN
      let steep = 0;
      let shallow = 0;
      all.forEach((v, k) => {
        if (v > all[steep]) steep = k;
        if (v < all[shallow]) shallow = k;
      });
      return {
        all, slope, i, j, bias, prob, far,
        b: bias[j] || 0,  // −0 at distance 0 reads as 0
        p: prob[j],
        steep: steep + 1,
        shallow: shallow + 1,
      };
    },
    /**
     * The corner: queries and keys len − WINDOW .. len − 1 (the bias depends on i − j only, so
     * it looks the same at any length), WINDOW × WINDOW, −Infinity above the diagonal.
     */
    corner(len, slope) {
      const first = len - WINDOW;
      const positions = Array.from({ length: WINDOW }, (_, k) => first + k);
      return { first, values: core.alibiBiasBlock(positions, positions, slope) };
    },
  };
}
