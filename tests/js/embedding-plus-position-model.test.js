// web/steps/embedding-plus-position/model.js against the formulas computed here in float64
// (PE(pos) = [sin pos, cos pos, sin(pos/100), cos(pos/100)], x = e + PE(pos);
// tests/expect/embedding-plus-position.js; the d = 512 stand-in row from core/learned.cpp's
// seeded draws, tests/js/reference.js), in both builds, at every position and a sample of second
// positions; and the step's claims on the model's own numbers: the embedding cancels in x − x′,
// two different positions never give the same input, ‖PE‖ = √(d/2) at any position (√2 here,
// 16 at d = 512), an embedding row of std 1/√d is about 1 long and √d times that once scaled.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { D, EMBEDDING, MAX_POS, WIDE, WIDE_SEED, embeddingPlusPositionModel } from '../../web/steps/embedding-plus-position/model.js';
import { E, TOL, distance, input, pe } from '../expect/embedding-plus-position.js';
import { learnedRow } from './reference.js';
import { assertAllClose, assertClose, loadBoth, moduleName } from './helpers.js';

const cores = await loadBoth();
const ABS = { abs: TOL, rel: 0 };
const len = (v) => Math.hypot(...v);

test('the step’s embedding is the seed’s', () => {
  assert.deepEqual(EMBEDDING, E);
  assert.equal(D, 4);
});

for (const core of cores) {
  const model = embeddingPlusPositionModel(core);
  const wideE = len(learnedRow(0, WIDE, { seed: WIDE_SEED, std: 1 / Math.sqrt(WIDE) }));

  test(`${moduleName(core)}: every position, against four second positions: PE, x, x′, distance, lengths`, () => {
    for (let pos = 0; pos <= MAX_POS; pos++) {
      for (const other of [0, pos, MAX_POS, (pos * 37 + 11) % (MAX_POS + 1)]) {
        const where = `pos ${pos} other ${other}`;
        const r = model.readout({ pos, other });
        assertAllClose(r.p, pe(pos), ABS, `${where}: PE(pos)`);
        assertAllClose(r.q, pe(other), ABS, `${where}: PE(pos′)`);
        assertAllClose(r.x, input(pos), ABS, `${where}: x`);
        assertAllClose(r.y, input(other), ABS, `${where}: x′`);
        assertClose(r.distance, distance(pos, other), ABS, `${where}: distance`);
        // The embedding cancels: the distance is that of the two codes.
        assertClose(r.distance, len(r.p.map((v, d) => v - r.q[d])), ABS, `${where}: |x − x′| = |PE(pos) − PE(pos′)|`);
        assertClose(r.normE, len(E), ABS, `${where}: ‖e‖`);
        assertClose(r.normPe, len(pe(pos)), ABS, `${where}: ‖PE(pos)‖`);
        assertClose(r.wide.pe, 16, { abs: 1e-4, rel: 0 }, `${where}: ‖PE(pos)‖ at d = 512`);
        assertClose(r.wide.e, wideE, { abs: 1e-5, rel: 0 }, `${where}: ‖e‖ at d = 512`);
        assertClose(r.wide.scaled, Math.sqrt(WIDE) * wideE, { abs: 1e-4, rel: 0 }, `${where}: √d ‖e‖ at d = 512`);
      }
    }
  });

  test(`${moduleName(core)}: no two positions give the same input`, () => {
    // x − x′ = PE(pos) − PE(pos′) (the first test checks the distance is that): the codes' gap.
    let nearest = Infinity;
    const codes = Array.from({ length: MAX_POS + 1 }, (_, pos) => model.pe(pos));
    for (let pos = 0; pos <= MAX_POS; pos++) {
      for (let other = 0; other < pos; other++) nearest = Math.min(nearest, len(codes[pos].map((v, d) => v - codes[other][d])));
    }
    assert.ok(nearest > 0.009, `the nearest two positions' inputs lie ${nearest} apart`);
  });

  test(`${moduleName(core)}: ‖PE‖ = √(d/2) at every position; a row of std 1/√d is about 1 long`, () => {
    for (const pos of [0, 1, 5, 37, MAX_POS]) {
      const r = model.readout({ pos, other: 0 });
      assertClose(r.normPe, Math.sqrt(D / 2), ABS, `‖PE(${pos})‖`);
      assertClose(r.wide.pe, Math.sqrt(WIDE / 2), { abs: 1e-4, rel: 0 }, `‖PE(${pos})‖ at d = 512`);
      assert.ok(r.wide.e > 0.8 && r.wide.e < 1.2, `‖e‖ at d = 512: ${r.wide.e}`);
    }
  });
}
