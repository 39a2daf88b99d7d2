// web/steps/compare/model.js against the formulas computed here in float64 (Σ_k cos((n − m)ω_k)
// for the sinusoidal dot; each pair of (0.6, 0.4) rotated by pos·θ_k and dotted for RoPE;
// tests/expect/compare.js), in both builds, for every (m, n) the sliders reach; and the step's
// claims on the model's own numbers: the sinusoidal peak is d/2, both curves depend only on n − m,
// and with q = k the RoPE curve is |(0.6, 0.4)|² = 0.52 times the sinusoidal one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { D, PAIR, POSITIONS, compareModel } from '../../web/steps/compare/model.js';
import { D as EXPECT_D, PAIR as EXPECT_PAIR, ropeDotByRotation, sinDot } from '../expect/compare.js';
import { TOL, assertAllClose, assertClose, loadBoth, moduleName } from './helpers.js';

const cores = await loadBoth();
// A RoPE score: eight float32 products of rotated float32 values, summed (values up to ~2).
const SCORE = { abs: 2e-5, rel: 0 };

test('the step’s vectors are the ones the expected values describe', () => {
  assert.equal(D, EXPECT_D);
  assert.deepEqual(PAIR, EXPECT_PAIR);
});

for (const core of cores) {
  const model = compareModel(core);
  test(`${moduleName(core)}: every (m, n): both curves, distance, offset, both dot products`, () => {
    assert.deepEqual(Array.from(model.xs), Array.from({ length: POSITIONS }, (_, n) => n));
    for (let m = 0; m < POSITIONS; m++) {
      for (let n = 0; n < POSITIONS; n++) {
        const where = `m ${m} n ${n}`;
        const r = model.readout({ m, n });
        assertAllClose(r.sin, Array.from({ length: POSITIONS }, (_, x) => sinDot(m, x)), TOL.f64, `${where}: sinusoidal curve`);
        assertAllClose(r.rope, Array.from({ length: POSITIONS }, (_, x) => ropeDotByRotation(m, x)), SCORE, `${where}: RoPE curve`);
        assert.equal(r.distance, Math.abs(n - m));
        assert.equal(r.offset, n - m);
        assert.equal(r.sinDot, r.sin[n]);
        assert.equal(r.ropeDot, r.rope[n]);
      }
    }
  });

  test(`${moduleName(core)}: the peak is d/2 and the RoPE factor |(0.6, 0.4)|²`, () => {
    assertClose(model.peak, D / 2, TOL.f64, 'peak');
    assertClose(model.pairNorm, 0.6 ** 2 + 0.4 ** 2, TOL.rope, 'pair norm');
  });

  test(`${moduleName(core)}: both curves depend only on n − m, and RoPE's is 0.52 times the sinusoid`, () => {
    const byOffset = new Map();
    for (let m = 0; m < POSITIONS; m++) {
      const { sin, rope } = model.readout({ m, n: 0 });
      for (let n = 0; n < POSITIONS; n++) {
        assertClose(rope[n], 0.52 * sin[n], SCORE, `m ${m} n ${n}: RoPE = 0.52 × sinusoidal`);
        const seen = byOffset.get(n - m);
        if (seen) {
          assertClose(sin[n], seen[0], { abs: 1e-12, rel: 0 }, `offset ${n - m}, m ${m}: sinusoidal`);
          assertClose(rope[n], seen[1], SCORE, `offset ${n - m}, m ${m}: RoPE`);
        } else byOffset.set(n - m, [sin[n], rope[n]]);
      }
    }
  });
}
