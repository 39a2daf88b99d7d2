// Step "order", the numbers: three 2D token embeddings, three orders of the same words, and the
// 3×3 matrix of dot products Q·Kᵀ (Q = K = the rows, no scaling) the core computes for each
// order, with or without the d = 2 sinusoidal code of each position added to the rows.
export const D = 2;
export const N = 3;
export const SAME = 1e-6;   // two scores closer than this count as the same number

// The tokens: embedding and series class (colour, and the label that names it).
export const TOKENS = {
  dog: { emb: [0.8, 0.2], cls: 'a' },
  bites: { emb: [0.1, 0.9], cls: 'b' },
  man: { emb: [0.5, 0.6], cls: 'c' },
};
// The sentences as token orders: "Dog bites man", "Man bites dog", "Bites man dog".
export const SENTENCES = [['dog', 'bites', 'man'], ['man', 'bites', 'dog'], ['bites', 'man', 'dog']];

const sorted = (a) => Array.from(a).sort((u, v) => u - v);
const gap = (a, b) => a.reduce((worst, v, i) => Math.max(worst, Math.abs(v - b[i])), 0);

/** What the step shows for a sentence and the PE toggle, from the core. */
export function orderModel(core) {
  const peTable = core.sinusoidal(N, D);   // row p = [sin p, cos p]

  /** The rows fed to attention for sentence k: embeddings, plus PE(p) when pe is on. */
  function rows(k, pe) {
    const x = new Float32Array(N * D);
    SENTENCES[k].forEach((t, p) => {
      for (let c = 0; c < D; c++) x[p * D + c] = TOKENS[t].emb[c] + (pe ? peTable[p * D + c] : 0);
    });
    return x;
  }
  const scores = (x) => core.attention(x, x, D, { softmax: false, scale: 1 });

  return {
    /** PE(p) as the core computes it: [sin p, cos p]. */
    pe: (p) => [peTable[p * D], peTable[p * D + 1]],
    /**
     * For { sentence, pe }: every order's rows (xs) and score matrix (all, row-major 3×3), the
     * current one's (current), their sorted scores, the largest gap between this order's sorted
     * scores and another's (change), whether all orders hold the same nine values (allSame), the
     * range of every score (lo, hi) and the colour limit (limit: a whole number, at least 1).
     */
    compute({ sentence, pe }) {
      const xs = SENTENCES.map((_, k) => rows(k, pe));
      const all = xs.map(scores);
      const sortedAll = all.map(sorted);
      const change = Math.max(...sortedAll.map((other, k) => (k === sentence ? 0 : gap(sortedAll[sentence], other))));
      const allSame = sortedAll.every((other) => gap(sortedAll[0], other) <= SAME);
      let lo = Infinity;
      let hi = -Infinity;
      for (const a of all) for (const v of a) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
      const limit = Math.max(1, Math.ceil(Math.max(Math.abs(lo), Math.abs(hi))));
      return { xs, all, current: all[sentence], sortedAll, change, allSame, lo, hi, limit };
    },
  };
}
