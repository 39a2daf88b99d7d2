// Step "attention", the numbers: the step's constants, the drawn grid, the core call that
// computes what is drawn (core.familyAttention over the seeded contents of attention/contents.js)
// and what the readouts, the plot's scale and the difference view read from its results. The map
// store (attention/maps.js) keeps and fills maps; the view (attention.js) formats and draws.
// DOM-free: tests/js/attention-model.test.js.
import { heldContents } from './contents.js';

export const LENGTHS = [16, 32, 64, 128, 256, 512, 1024, 2048];
export const D = 64;          // head dimension
export const HEADS = 8;       // ALiBi heads: slopes 1/2, 1/4, ..., 1/256
export const SEED = 0;
const MAX_DRAWN = 256;        // rows and columns drawn at most
const NO_ROWS = new Int32Array(0);

const grids = new Map();  // one per length

/** The drawn grid for n tokens: which queries are rows, where each key bin starts and ends. */
export function grid(n) {
  const kept = grids.get(n);
  if (kept) return kept;
  const rows = Math.min(n, MAX_DRAWN);
  const cols = Math.min(n, MAX_DRAWN);
  const g = {
    rows: Int32Array.from({ length: rows }, (_, r) => Math.floor((r * n) / rows)),
    edges: Int32Array.from({ length: cols + 1 }, (_, c) => Math.floor((c * n) / cols)),
    keys: Float64Array.from({ length: n }, (_, k) => k),  // the line plot's x values
  };
  grids.set(n, g);
  return g;
}

/** The key with the largest probability (the first of equals). */
export function argmax(v) {
  let best = 0;
  for (let k = 1; k < v.length; k++) if (v[k] > v[best]) best = k;
  return best;
}

/** What the step asks of the core, over the seeded contents it holds. */
export function attentionModel(core) {
  const contents = heldContents(core, D, SEED);  // the seeded rows, held (attention/contents.js)

  // One core call: the drawn rows (a subset of g.rows, or none) binned into the grid's columns,
  // and the exact score and probability row of query i.
  const run = (family, g, n, rows, { i, head, causal }) => core.familyAttention(family, n, D, {
    rows, columns: g.edges.length - 1, query: i, causal,
    seed: SEED, heads: HEADS, head, ...contents(family, n),
  });

  return {
    contents,
    run,
    /** Query i's exact row alone: { scores, probs } over keys 0..n − 1. */
    row: (family, { n, i, head, causal }) => run(family, grid(n), n, NO_ROWS, { i, head, causal }),
    /** The whole drawn map of a family in one call: rows × columns probabilities, binned. */
    cells: (family, { n, head, causal }) => run(family, grid(n), n, grid(n).rows, { i: 0, head, causal }).cells,
    /** ALiBi's slope for a head (the formula shows it as 1/2^k). */
    slope: (head) => core.alibiSlopes(HEADS)[head],
    /**
     * The readouts and the plot's scale from the rows of A and B of query i: the score and
     * probability of key j under A, B's probability and A − B, the most-attended key under A
     * (and B), and the largest probability the plot draws (B's row too in the difference view).
     */
    readouts(a, b, j, diffView) {
      const top = argmax(a.probs);
      let yMax = a.probs[top];
      if (diffView) for (let k = 0; k < b.probs.length; k++) yMax = Math.max(yMax, b.probs[k]);
      return {
        score: a.scores[j], prob: a.probs[j], probB: b.probs[j], diff: a.probs[j] - b.probs[j],
        top, topB: argmax(b.probs), yMax,
      };
    },
    /** The difference view's cells, A − B, written into `out`. */
    difference(aCells, bCells, out = new Float32Array(aCells.length)) {
      for (let x = 0; x < out.length; x++) out[x] = aCells[x] - bCells[x];
      return out;
    },
  };
}
