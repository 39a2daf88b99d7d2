// web/steps/relative/model.js against the formulas computed here in float64 (ω_k = 10000^(−2k/16),
// PE(m)·PE(n) = Σ_k cos(ω_k (n − m)); tests/expect/relative.js), in both builds, for every pair
// of positions the sliders reach; and the step's claims on the model's own numbers: the dot
// product depends only on n − m (the three plotted curves are one), peaks at d/2 on m = n and
// nowhere else near it, and is the sum of the pairs' shares sin·sin + cos·cos = cos(ω_k (n − m)).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BASE, D, PAIRS, POSITIONS, REFERENCES, canShift, relativeModel } from '../../web/steps/relative/model.js';
import { D as EXPECT_D, dot, omega, pe } from '../expect/relative.js';
import { TOL, assertAllClose, assertClose, loadBoth, moduleName } from './helpers.js';

const cores = await loadBoth();
// A share is two float32 products of float32 sin/cos values, summed.
const SHARE = { abs: 2e-6, rel: 0 };

test('the step’s table is the one the expected values describe: d = 16, base 10000', () => {
  assert.equal(D, EXPECT_D);
  assert.equal(PAIRS, D / 2);
  assert.equal(BASE, 10000);
});

test('both positions can shift together exactly while both stay in 0..19', () => {
  for (let i = 0; i < POSITIONS; i++) {
    for (let j = 0; j < POSITIONS; j++) {
      for (const by of [-1, 1]) assert.equal(canShift(i, j, by), i + by >= 0 && j + by >= 0 && i + by <= 19 && j + by <= 19, `${i},${j} by ${by}`);
    }
  }
});

for (const core of cores) {
  const model = relativeModel(core);
  test(`${moduleName(core)}: every pair of positions: dot product, offset, distance, pair shares, Gram entry`, () => {
    for (let i = 0; i < POSITIONS; i++) {
      for (let j = 0; j < POSITIONS; j++) {
        const where = `m ${i} n ${j}`;
        const r = model.readout({ i, j });
        assertClose(r.dot, dot(i, j), TOL.f64, `${where}: dot`);
        assertClose(model.gram[i * POSITIONS + j], dot(i, j), TOL.f64, `${where}: Gram entry`);
        assert.equal(r.offset, j - i);
        assert.equal(r.distance, Math.abs(j - i));
        const shares = Array.from({ length: PAIRS }, (_, k) => Math.cos(omega(k) * (j - i)));
        assertAllClose(r.shares, shares, SHARE, `${where}: shares`);
        // The identity the notes set: the shares add up to the dot product.
        assertClose(r.shares.reduce((a, c) => a + c, 0), r.dot, { abs: PAIRS * SHARE.abs, rel: 0 }, `${where}: Σ shares`);
      }
    }
  });

  test(`${moduleName(core)}: the bars' rows are PE(p)`, () => {
    for (let p = 0; p < POSITIONS; p++) {
      assertAllClose(model.row(p), Array.from({ length: D }, (_, dim) => pe(p, dim)), TOL.f32, `PE(${p})`);
    }
  });

  test(`${moduleName(core)}: the dot product depends only on n − m: every curve lies on one`, () => {
    const byOffset = new Map();
    for (let p = 0; p < POSITIONS; p++) {
      const { x, y } = model.curve(p);
      assert.deepEqual(Array.from(x), Array.from({ length: POSITIONS }, (_, q) => q - p));
      x.forEach((off, q) => {
        assertClose(y[q], dot(p, q), TOL.f64, `curve ${p} at ${off}`);
        if (!byOffset.has(off)) byOffset.set(off, y[q]);
        else assertClose(y[q], byOffset.get(off), { abs: 1e-12, rel: 0 }, `offset ${off}, m ${p}`);
      });
    }
    assert.equal(byOffset.size, 2 * POSITIONS - 1);
    assert.deepEqual(REFERENCES, [0, POSITIONS - 1]);
  });

  test(`${moduleName(core)}: the peak is d/2 at m = n, and no other pair comes within 0.5 of it`, () => {
    assertClose(model.peak, D / 2, TOL.f64, 'peak');
    for (let i = 0; i < POSITIONS; i++) {
      for (let j = 0; j < POSITIONS; j++) {
        if (i === j) assertClose(model.readout({ i, j }).dot, D / 2, TOL.f64, `m = n = ${i}`);
        else assert.ok(model.gram[i * POSITIONS + j] < D / 2 - 0.5, `m ${i} n ${j}`);
      }
    }
  });
}
