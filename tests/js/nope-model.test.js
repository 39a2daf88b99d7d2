// web/steps/nope/model.js on both builds: identical tokens give every visible key the same
// weight, 1/(i + 1) with the causal mask and 1/n without; token 0's share, the gap to the next
// row 1/((i + 1)(i + 2)), the position read back (1/share − 1) and the count of distinct rows,
// for every length and query; and the reordering test against softmax(x_q·x_j/√2) and Σ w v
// computed here in float64, with the step's claim: reversing the earlier words moves their
// weights with them and leaves the output unchanged.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { IN_ORDER, MAX_LEN, QUERY, REVERSED, WORDS, nopeModel } from '../../web/steps/nope/model.js';
import { TOL, assertAllClose, assertClose, loadBoth, moduleName } from './helpers.js';

const cores = await loadBoth();
const weight = (i, j, len, causal) => (causal ? (j <= i ? 1 / (i + 1) : 0) : 1 / len);

/** The last word's weights and output for an order of WORDS, in float64. */
function lastRow(order) {
  const q = WORDS[order[QUERY]];
  const scores = order.map((w) => (q[0] * WORDS[w][0] + q[1] * WORDS[w][1]) / Math.SQRT2);
  const top = Math.max(...scores);
  const e = scores.map((s) => Math.exp(s - top));
  const sum = e.reduce((a, c) => a + c, 0);
  const w = e.map((v) => v / sum);
  return { w, out: [0, 1].map((c) => order.reduce((acc, word, p) => acc + w[p] * WORDS[word][c], 0)) };
}

for (const pe of cores) {
  const name = moduleName(pe);

  test(`${name}: every length and query, both masks: the weights, share, gap, position read back and distinct rows`, () => {
    const model = nopeModel(pe);
    for (let len = 2; len <= MAX_LEN; len++) {
      for (const causal of [true, false]) {
        const want = Array.from({ length: len * len }, (_, x) => weight(Math.floor(x / len), x % len, len, causal));
        for (let i = 0; i < len; i++) {
          const where = `len ${len} query ${i} causal ${causal}`;
          const s = model.state({ len, query: i, causal });
          assertAllClose(s.w, want, TOL.attention, `${where}: weights`);
          assertClose(s.share, weight(i, 0, len, causal), TOL.attention, `${where}: share`);
          assertClose(s.gap, causal ? 1 / ((i + 1) * (i + 2)) : 0, TOL.attention, `${where}: gap`);
          // The position a later layer reads back: i with the mask; without it every row says n − 1.
          assert.equal(Math.round(s.decoded), causal ? i : len - 1, `${where}: read back ${s.decoded}`);
          assertClose(s.decoded, causal ? i : len - 1, { abs: 1e-4, rel: 0 }, `${where}: read back`);
          assert.equal(s.rowCount, causal ? len : 1, `${where}: distinct rows`);
          assertAllClose(s.shares, Array.from({ length: len }, (_, r) => weight(r, 0, len, causal)), TOL.attention, `${where}: shares`);
          assertAllClose(s.gaps, Array.from({ length: len }, (_, r) => (causal ? 1 / ((r + 1) * (r + 2)) : 0)), TOL.attention, `${where}: gaps`);
        }
      }
    }
  });

  test(`${name}: the gap shrinks from row to row with the mask (the clue weakens)`, () => {
    const { gaps } = nopeModel(pe).matrix(MAX_LEN, true);
    for (let r = 1; r < MAX_LEN; r++) assert.ok(gaps[r] < gaps[r - 1], `row ${r}: ${gaps[r]} ≥ ${gaps[r - 1]}`);
  });

  test(`${name}: the reordering test: weights and output against float64, each word keeps its weight, the output does not move`, () => {
    const model = nopeModel(pe);
    assert.deepEqual(REVERSED, [3, 2, 1, 0, 4]);
    for (const [got, order] of [[model.plain, IN_ORDER], [model.mixed, REVERSED]]) {
      const { w, out } = lastRow(order);
      assert.deepEqual(got.order, order);
      assertAllClose(got.row, w, TOL.attention, `${order}: weights`);
      assertAllClose(got.output, out, TOL.attention, `${order}: output`);
    }
    // The claim, on the model's numbers: a word's weight follows it, and the output stays.
    for (const word of IN_ORDER) {
      assertClose(model.mixed.row[REVERSED.indexOf(word)], model.plain.row[IN_ORDER.indexOf(word)], { abs: 1e-7, rel: 0 }, `word ${word}`);
    }
    assert.ok(model.change < 1e-6, `change ${model.change}`);
    assertClose(model.change, Math.max(...[0, 1].map((c) => Math.abs(model.plain.output[c] - model.mixed.output[c]))), TOL.f64, 'change');
  });
}
