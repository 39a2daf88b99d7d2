// Step "nope", the numbers: the attention weights of identical tokens (core.attention, with or
// without the causal mask), token 0's share in each row, the gap to the next row, the position
// read back from the share, how many rows differ; and the reordering test on a small sentence of
// distinct words (the last word's weights and output, in order and with the earlier words
// reversed). DOM-free: tests/js/nope-model.test.js. The view (nope.js) formats and draws.

export const MAX_LEN = 16;
const D = 4;                      // width of the identical tokens
const TOKEN = [0.5, 0.5, 0.5, 0.5];
// The small sentence for the reordering test: five distinct words with 2-D embeddings (keys and
// values alike); the last word is the query.
export const WORDS = [[0.2, 0.9], [0.9, 0.3], [0.5, 0.7], [0.1, 0.4], [0.8, 0.8]];
export const QUERY = WORDS.length - 1;
export const IN_ORDER = WORDS.map((_, k) => k);
export const REVERSED = [...IN_ORDER.slice(0, QUERY).reverse(), QUERY];

/** What the step asks of the core; the weights of the last (length, mask) kept. */
export function nopeModel(core) {
  // Identical rows: every score q·k is the same number.
  const tokens = (n) => {
    const x = new Float32Array(n * D);
    for (let r = 0; r < n; r++) x.set(TOKEN, r * D);
    return x;
  };
  const weights = (n, causal) => core.attention(tokens(n), tokens(n), D, { causal });

  let kept = null;
  /**
   * The len × len weights, and per row r token 0's share and the gap to row r + 1 (without the
   * mask every row holds the same weights, so the last row's neighbour is itself), and how many
   * different rows there are. With the mask one row more is computed, so row r + 1 exists for
   * the last row too (causal rows do not depend on the length); without it, exactly len × len.
   */
  function matrix(len, causal) {
    if (kept?.len === len && kept.causal === causal) return kept;
    const n = len + 1;
    const long = causal ? weights(n, true) : null;
    const w = causal ? new Float32Array(len * len) : weights(len, false);
    if (causal) for (let r = 0; r < len; r++) w.set(long.subarray(r * n, r * n + len), r * len);
    const rowCount = new Set(Array.from({ length: len }, (_, r) => w.subarray(r * len, (r + 1) * len).join())).size;
    const shareAt = (r) => w[r * len];
    const nextShare = (r) => (causal ? long[(r + 1) * n] : shareAt(Math.min(r + 1, len - 1)));
    const shares = Float64Array.from({ length: len }, (_, r) => shareAt(r));
    const gaps = Float64Array.from({ length: len }, (_, r) => shareAt(r) - nextShare(r));
    kept = { len, causal, w, rowCount, shares, gaps };
    return kept;
  }

  /** Token QUERY's weights and output for the words in `order` (indices into WORDS). */
  function sentence(order) {
    const x = new Float32Array(order.length * 2);
    order.forEach((w, p) => x.set(WORDS[w], p * 2));
    const w = core.attention(x, x, 2, { causal: true });
    const row = w.subarray(QUERY * order.length, (QUERY + 1) * order.length);
    // Output = Σ_j w_j v_j as a product: the weight row times the two columns of the values.
    const cols = new Float32Array(2 * order.length);
    order.forEach((wd, p) => { cols[p] = WORDS[wd][0]; cols[order.length + p] = WORDS[wd][1]; });
    const output = core.attention(row, cols, order.length, { softmax: false, scale: 1 });
    return { order, row, output };
  }
  const plain = sentence(IN_ORDER);
  const mixed = sentence(REVERSED);
  // How far the output moves when the earlier words are reversed.
  const change = Math.max(Math.abs(plain.output[0] - mixed.output[0]), Math.abs(plain.output[1] - mixed.output[1]));

  return {
    matrix,
    /** The readouts for a state: the query's share, the gap, the position read back. */
    state({ len, query: i, causal }) {
      const mx = matrix(len, causal);
      const share = mx.shares[i];
      return { ...mx, share, gap: mx.gaps[i], decoded: 1 / share - 1 };
    },
    plain, mixed, change,
  };
}
