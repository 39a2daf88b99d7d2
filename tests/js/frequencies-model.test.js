// web/steps/frequencies/model.js against the formulas computed here in float64 (ωᵢ = 10000^(−2i/16),
// λᵢ = 2π/ωᵢ, PE[pos, 2i] = sin(pos·ωᵢ); tests/expect/frequencies.js), in both builds: every
// pair's frequency and wavelength, every drawn column and curve, every choice's readouts; and
// the step's claims on the model's own numbers: the wavelengths are a geometric series (ratio
// 10000^(2/16)), from 2π up to below 10000·2π.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BASE, D, DIMS, LONGEST, POSITIONS, frequenciesModel } from '../../web/steps/frequencies/model.js';
import { D as EXPECT_D, omega, wavelength } from '../expect/frequencies.js';
import { TOL, assertAllClose, assertClose, loadBoth, moduleName } from './helpers.js';

const cores = await loadBoth();

test('the step’s table is the one the expected values describe: d = 16, base 10000', () => {
  assert.equal(D, EXPECT_D);
  assert.equal(BASE, 10000);
});

for (const core of cores) {
  const model = frequenciesModel(core);
  test(`${moduleName(core)}: every pair's frequency and wavelength`, () => {
    assert.equal(model.freqs.length, D / 2);
    for (let i = 0; i < D / 2; i++) {
      assertClose(model.freqs[i], omega(2 * i), TOL.f64, `ω${i}`);
      assertClose(model.wavelengths[i], wavelength(2 * i), TOL.f64, `λ${i}`);
    }
    assertClose(LONGEST, 2 * Math.PI * 10000, TOL.f64, 'the longest wavelength');
  });

  test(`${moduleName(core)}: every choice's readouts, column and smooth curve`, () => {
    for (const dim of DIMS) {
      const r = model.readout({ dim });
      const lambda = (2 * Math.PI) / 10000 ** (-dim / 16);
      assert.equal(r.i, dim / 2);
      assertClose(r.omega, 10000 ** (-dim / 16), TOL.f64, `dim ${dim}: ω`);
      assertClose(r.wavelength, lambda, TOL.f64, `dim ${dim}: λ`);
      assert.deepEqual(r.others, [0, 2, 4, 6].filter((o) => o !== dim));
      assert.equal(r.fits, lambda <= 100, `dim ${dim}: one wavelength within positions 0..100`);
      assertClose(r.cycles, 100 / lambda, TOL.f64, `dim ${dim}: cycles`);
      const want = Array.from({ length: POSITIONS }, (_, p) => Math.sin(p * 10000 ** (-dim / 16)));
      assertAllClose(model.column(dim), want, TOL.f32, `dim ${dim}: column`);
      assert.equal(model.fine.length, 1001);
      const fine = Array.from({ length: 1001 }, (_, k) => Math.sin((k / 10) * 10000 ** (-dim / 16)));
      assertAllClose(model.curve(dim), fine, TOL.f64, `dim ${dim}: curve`);
    }
  });

  test(`${moduleName(core)}: the drawn table holds sin and cos of pos·ωᵢ`, () => {
    const want = Array.from({ length: POSITIONS * D }, (_, k) => {
      const [p, dim] = [Math.floor(k / D), k % D];
      return (dim % 2 ? Math.cos : Math.sin)(p * omega(dim - (dim % 2)));
    });
    assertAllClose(model.table, want, TOL.f32, 'table');
  });

  test(`${moduleName(core)}: the wavelengths are a geometric series from 2π to below 10000·2π`, () => {
    const ratio = 10000 ** (2 / 16);
    assertClose(model.ratio, ratio, TOL.f64, 'ω₀/ω₁');
    for (let i = 1; i < D / 2; i++) assertClose(model.wavelengths[i] / model.wavelengths[i - 1], ratio, TOL.f64, `λ${i}/λ${i - 1}`);
    assertClose(model.wavelengths[0], 2 * Math.PI, TOL.f64, 'λ₀');
    assert.ok(model.wavelengths.at(-1) < LONGEST);
  });
}
