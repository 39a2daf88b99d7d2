// web/steps/order/model.js against the toy model computed here in float64 (tests/expect/order.js:
// embeddings, PE(p) = [sin p, cos p], Q·Kᵀ), in both builds, for every sentence with and without
// positions; and the step's claim on the model's own numbers: without positions the three orders
// hold the same nine scores, only permuted; with positions they do not.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SENTENCES, TOKENS, orderModel } from '../../web/steps/order/model.js';
import { EMB, ORDERS, TOL, change, maxGap, rows, scores, sortedNine } from '../expect/order.js';
import { TOL as KERNEL, assertAllClose, assertClose, loadBoth, moduleName } from './helpers.js';

const cores = await loadBoth();

test('the model has the toy model’s words, embeddings and orders', () => {
  assert.deepEqual(SENTENCES, ORDERS.map((o) => o.map((w) => w.toLowerCase())));
  for (const [w, emb] of Object.entries(EMB)) assert.deepEqual(TOKENS[w.toLowerCase()].emb, emb, w);
});

for (const pe of cores) {
  const model = orderModel(pe);
  test(`${moduleName(pe)}: PE(p) = [sin p, cos p]`, () => {
    for (let p = 0; p < 3; p++) assertAllClose(model.pe(p), [Math.sin(p), Math.cos(p)], KERNEL.f32, `PE(${p})`);
  });

  for (const withPe of [false, true]) {
    test(`${moduleName(pe)}: every sentence ${withPe ? 'with' : 'without'} positions: rows, scores, change, limit`, () => {
      for (let sentence = 0; sentence < 3; sentence++) {
        const where = `sentence ${sentence}`;
        const c = model.compute({ sentence, pe: withPe });
        for (let k = 0; k < 3; k++) {
          assertAllClose(c.xs[k], rows(k, withPe).flat(), { abs: TOL }, `${where}: rows of order ${k}`);
          assertAllClose(c.all[k], scores(k, withPe).flat(), { abs: TOL }, `${where}: scores of order ${k}`);
          assertAllClose(c.sortedAll[k], sortedNine(scores(k, withPe)), { abs: TOL }, `${where}: sorted scores of order ${k}`);
        }
        assert.equal(c.current, c.all[sentence]);
        assertClose(c.change, change(sentence, withPe), { abs: TOL }, `${where}: change`);
        const every = [0, 1, 2].flatMap((k) => scores(k, withPe).flat());
        assertClose(c.lo, Math.min(...every), { abs: TOL }, `${where}: lowest score`);
        assertClose(c.hi, Math.max(...every), { abs: TOL }, `${where}: highest score`);
        const top = Math.max(...every.map(Math.abs));
        assert.equal(c.limit, Math.max(1, Math.ceil(top)), `${where}: colour limit`);
        // Q = K = the rows: S_ij = S_ji to the last bit (the notes say the matrix is symmetric).
        for (let i = 0; i < 3; i++) for (let j = 0; j < i; j++) assert.equal(c.current[i * 3 + j], c.current[j * 3 + i], `${where}: S${i}${j}`);
      }
    });
  }

  test(`${moduleName(pe)}: without positions the orders hold one multiset of scores; with them they differ`, () => {
    for (let sentence = 0; sentence < 3; sentence++) {
      const plain = model.compute({ sentence, pe: false });
      assert.equal(plain.allSame, true);
      assert.ok(plain.change <= 1e-6, `sentence ${sentence}: change ${plain.change} without positions`);
      for (let k = 1; k < 3; k++) assert.ok(maxGap(plain.sortedAll[0], plain.sortedAll[k]) <= 1e-6);
      const coded = model.compute({ sentence, pe: true });
      assert.equal(coded.allSame, false);
      for (let k = 0; k < 3; k++) {
        if (k !== sentence) assert.ok(maxGap(coded.sortedAll[sentence], coded.sortedAll[k]) > 0.1, `sentence ${sentence} vs ${k}`);
      }
    }
  });
}
