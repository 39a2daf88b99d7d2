// web/steps/attention/model.js on both builds: the readouts (score, probability, B's probability,
// A − B, the most-attended key, the plot's top), the drawn grid and the drawn cells, against the
// model of core/family_attention.hpp rebuilt in float64 JS in tests/expect/attention.js (seeded
// draws, encodings, RoPE turns, T5 buckets, ALiBi slopes, mask, softmax), over every family, both
// masks, short and the longest length, and edge queries and keys; and the step's claims: the
// causal mask hides the keys after i, and ALiBi is NoPE's score minus slope·|i − j|.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HEADS, LENGTHS, attentionModel, grid } from '../../web/steps/attention/model.js';
import { FAMILIES } from '../../web/families.js';
import { attentionRow, binRow, grid as expectedGrid } from '../expect/attention.js';
import { TOL, assertAllClose, assertClose, loadBoth, moduleName } from './helpers.js';

const cores = await loadBoth();
// Scores: float32 contents and encodings in a 64-term dot product, |s| up to ~10 (T5 and ALiBi
// biases included); the probabilities inherit that relatively.
const SCORE = { abs: 2e-5, rel: 1e-6 };

const ref = new Map();  // the reference rows, shared by both builds' tests
const refRow = (family, n, i, causal, head) => {
  const k = `${family}/${n}/${i}/${causal}/${head}`;
  if (!ref.has(k)) ref.set(k, attentionRow(family, n, i, { causal, head }));
  return ref.get(k);
};
const score = (got, want, what) => (want === -Infinity ? assert.equal(got, -Infinity, what) : assertClose(got, want, SCORE, what));

test('the drawn grid: at most 256 rows (query ⌊r·n/R⌋) and 256 key bins for every length', () => {
  for (const n of LENGTHS) {
    const g = grid(n);
    const want = expectedGrid(n);
    assert.deepEqual(Array.from(g.rows), want.rows, `${n}: rows`);
    assert.deepEqual(Array.from(g.edges), want.edges, `${n}: edges`);
    assert.deepEqual(Array.from(g.keys), Array.from({ length: n }, (_, k) => k), `${n}: keys`);
    assert.equal(grid(n), g, `${n}: made once`);
  }
});

for (const pe of cores) {
  const name = moduleName(pe);
  const model = attentionModel(pe);

  test(`${name}: readouts of every family against B = NoPE and B = RoPE, both masks, edge queries and keys, n 16, 128, 2048`, () => {
    for (const n of [16, 128, 2048]) {
      const pairs = [[0, 0], [n - 1, n - 1], [n - 1, 0], [Math.floor(n / 2), Math.floor(n / 2) - 3], [5, n - 1], [n - 8, n - 8]];
      if (n > 128) pairs.splice(4);  // the longest length: the edges and one inner pair
      for (const causal of [true, false]) {
        for (const family of FAMILIES) {
          for (const head of family === 'alibi' ? [0, 3, HEADS - 1] : [3]) {
            for (const [i, j] of pairs) {
              const versus = family === 'none' ? 'rope' : 'none';
              const what = `${family} vs ${versus}, n ${n}, causal ${causal}, head ${head}, (${i}, ${j})`;
              const at = { n, i, head, causal };
              const a = model.row(family, at);
              const b = model.row(versus, at);
              const wa = refRow(family, n, i, causal, head);
              const wb = refRow(versus, n, i, causal, head);
              const topA = Math.max(...wa.probs);
              const topB = Math.max(...wb.probs);
              for (const diffView of [false, true]) {
                const r = model.readouts(a, b, j, diffView);
                score(r.score, wa.scores[j], `${what}: score`);
                assertClose(r.prob, wa.probs[j], TOL.attention, `${what}: probability`);
                assertClose(r.probB, wb.probs[j], TOL.attention, `${what}: B's probability`);
                assertClose(r.diff, wa.probs[j] - wb.probs[j], { abs: 2 * TOL.attention.abs, rel: TOL.attention.rel }, `${what}: A − B`);
                // The most-attended key: the row's largest probability, within float32 ties.
                assert.ok(wa.probs[r.top] >= topA - 1e-6, `${what}: top key ${r.top}`);
                assert.ok(wb.probs[r.topB] >= topB - 1e-6, `${what}: B's top key ${r.topB}`);
                assertClose(r.yMax, diffView ? Math.max(topA, topB) : topA, TOL.attention, `${what}: plot top`);
                if (causal && j > i) {
                  assert.equal(r.score, -Infinity, `${what}: masked score`);
                  assert.equal(r.prob, 0, `${what}: masked probability`);
                }
              }
            }
          }
        }
      }
    }
  });

  test(`${name}: every drawn cell at n = 32 (one pair each) and binned rows at n = 2048; the difference view`, () => {
    const n = 32;
    for (const causal of [true, false]) {
      const maps = {};
      for (const family of FAMILIES) {
        const cells = model.cells(family, { n, head: 2, causal });
        maps[family] = cells;
        const want = Array.from({ length: n }, (_, q) => Array.from(refRow(family, n, q, causal, 2).probs)).flat();
        assertAllClose(cells, want, TOL.attention, `${family} causal ${causal}: cells`);
      }
      const diff = model.difference(maps.rope, maps.sinusoidal);
      const want = Array.from({ length: n }, (_, q) => {
        const [pa, pb] = [refRow('rope', n, q, causal, 2).probs, refRow('sinusoidal', n, q, causal, 2).probs];
        return Array.from(pa, (v, k) => v - pb[k]);
      }).flat();
      assertAllClose(diff, want, { abs: 2 * TOL.attention.abs, rel: TOL.attention.rel }, `causal ${causal}: rope − sinusoidal`);
    }
    const long = 2048;
    const g = grid(long);
    for (const family of ['none', 'alibi']) {
      const cells = model.cells(family, { n: long, head: 3, causal: true });
      for (const r of [0, 100, 249, 255]) {
        const want = binRow(refRow(family, long, g.rows[r], true, 3).probs, Array.from(g.edges));
        assertAllClose(cells.subarray(r * 256, (r + 1) * 256), want, TOL.attention, `${family} n ${long} row ${r}`);
      }
    }
  });

  test(`${name}: ALiBi's slope is 1/2^(head + 1), and its score is NoPE's minus slope·|i − j| (the step's formula)`, () => {
    for (let head = 0; head < HEADS; head++) {
      assert.equal(model.slope(head), 2 ** -(head + 1), `head ${head}`);
      for (const causal of [true, false]) {
        const at = { n: 64, i: 40, head, causal };
        const alibi = model.row('alibi', at).scores;
        const none = model.row('none', at).scores;
        for (let j = 0; j < 64; j++) {
          if (causal && j > 40) {
            assert.equal(alibi[j], -Infinity);
            continue;
          }
          assertClose(alibi[j] - none[j], -(2 ** -(head + 1)) * Math.abs(40 - j), SCORE, `head ${head} causal ${causal} j ${j}`);
        }
      }
    }
  });
}
