// web/steps/sinusoidal/model.js against the formula computed here in float64 (ωᵢ = 10000^(−2i/d),
// PE[pos, 2i] = sin(pos ωᵢ), PE[pos, 2i+1] = cos(pos ωᵢ); tests/expect/sinusoidal.js), in both
// builds, for every cell of the step's table; and the fold's claim on the model's own table:
// every row has length √(d/2).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BASE, D, POSITIONS, sinusoidalModel } from '../../web/steps/sinusoidal/model.js';
import { D as EXPECT_D, omega, pe } from '../expect/sinusoidal.js';
import { TOL, assertAllClose, assertClose, loadBoth, moduleName } from './helpers.js';

const cores = await loadBoth();

test('the step’s table is the one the expected values describe: d = 20, base 10000', () => {
  assert.equal(D, EXPECT_D);
  assert.equal(BASE, 10000);
});

for (const core of cores) {
  const model = sinusoidalModel(core);
  test(`${moduleName(core)}: every cell's readout: pair, sine or cosine, angle, divisor, value`, () => {
    for (let pos = 0; pos < POSITIONS; pos++) {
      for (let dim = 0; dim < D; dim++) {
        const where = `pos ${pos} dim ${dim}`;
        const r = model.readout({ pos, dim });
        const i = Math.floor(dim / 2);
        assert.equal(r.i, i, `${where}: i`);
        assert.equal(r.isSin, dim % 2 === 0, `${where}: sine`);
        assertClose(r.angle, pos / 10000 ** ((2 * i) / D), TOL.f64, `${where}: angle`);
        assertClose(r.divisor, 10000 ** ((2 * i) / D), TOL.f64, `${where}: divisor`);
        assertClose(r.value, pe(pos, dim), TOL.f32, `${where}: value`);
        assertClose(r.angle, pos * omega(dim), TOL.f64, `${where}: angle as pos·ωᵢ`);
      }
    }
  });

  test(`${moduleName(core)}: the drawn table holds PE(pos, dim) in every cell`, () => {
    const want = Array.from({ length: POSITIONS * D }, (_, k) => pe(Math.floor(k / D), k % D));
    assertAllClose(model.table, want, TOL.f32, 'table');
  });

  test(`${moduleName(core)}: every row of the table has length √(d/2)`, () => {
    for (let pos = 0; pos < POSITIONS; pos++) {
      let sq = 0;
      for (let dim = 0; dim < D; dim++) sq += model.table[pos * D + dim] ** 2;
      assertClose(Math.sqrt(sq), Math.sqrt(D / 2), { abs: 1e-6, rel: 0 }, `‖PE(${pos})‖`);
    }
  });
}
