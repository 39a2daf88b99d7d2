// The JS API as a whole: loadPosenc (which build it picks, the frozen object with every
// documented function) and the readouts the explainer prints, on both builds, each computed
// from several functions and checked against the independent float64 reference in
// ./reference.js. Each function's own tests are in <core file>-api.test.js.
//
// Tolerances live in ./helpers.js (TOL), each with the reason for its size.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { loadPosenc, simdSupported } from '../../wasm/posenc.js';
import { TOL, assertClose, assertReadout, dot, loadBoth, moduleName } from './helpers.js';
import * as ref from './reference.js';

const modules = await loadBoth();

describe('loadPosenc', () => {
  test('Node 20 validates WebAssembly SIMD, so the SIMD build must load', async () => {
    assert.equal(simdSupported(), true);
    const pe = await loadPosenc({ simd: true });
    assert.equal(pe.simd, true);
  });

  test("loadPosenc({simd: 'auto'}) picks the SIMD build where SIMD is supported", async () => {
    assert.equal((await loadPosenc({ simd: 'auto' })).simd, true);
    assert.equal((await loadPosenc()).simd, true);
  });

  test('loadPosenc({simd: false}) loads the scalar build', async () => {
    assert.equal((await loadPosenc({ simd: false })).simd, false);
  });

  test('the API object is frozen and exposes every documented function', () => {
    const names = [
      'sinusoidal', 'sinusoidalFrequencies', 'sinusoidalDot', 'learned', 'ropeFrequencies', 'ropeApply',
      'alibiSlopes', 'alibiBias', 't5Bucket', 'shawIndex', 'attention', 'softmax',
    ];
    for (const pe of modules) {
      assert.ok(Object.isFrozen(pe));
      for (const name of names) assert.equal(typeof pe[name], 'function', `${moduleName(pe)} lacks ${name}`);
    }
  });
});

for (const pe of modules) {
  describe(moduleName(pe), () => {
    // [EXPLAINER READOUTS] ----------------------------------------------------------------
    describe('explainer readouts', () => {
      const pairs8 = (layout) => (layout === 'interleaved' ? [0.6, 0.4, 0.6, 0.4, 0.6, 0.4, 0.6, 0.4] : [0.6, 0.6, 0.6, 0.6, 0.4, 0.4, 0.4, 0.4]);
      const ropeDot = (m, n, x, layout) => dot(pe.ropeApply(x, [m], 8, { layout }), pe.ropeApply(x, [n], 8, { layout }));

      test('(b) sinusoidal d = 20, position 10, dim 4: angle 1.58489, value 0.99990', () => {
        const angle = 10 * pe.sinusoidalFrequencies(20)[2];
        const value = pe.sinusoidal(11, 20)[10 * 20 + 4];
        assertReadout(angle, '1.58489', 'angle');
        assertReadout(value, '0.99990', 'value');
        assertClose(angle, 10 * ref.sinusoidalFrequencies(20)[2], TOL.f64, 'angle vs reference');
        assertClose(value, ref.sinusoidalRow(10, 20)[4], TOL.f32, 'value vs reference');
      });

      test('(c) wavelengths at d = 16: 6.283 for dim 0 and 198.69 for dim 6', () => {
        const f = pe.sinusoidalFrequencies(16);
        assertReadout((2 * Math.PI) / f[0], '6.283', 'dim 0');
        assertReadout((2 * Math.PI) / f[3], '198.69', 'dim 6');
        assertClose((2 * Math.PI) / f[3], ref.sinusoidalWavelength(6, 16), TOL.f64, 'dim 6 vs reference');
      });

      test('(d) PE(3)·PE(8) at d = 16 is 6.13704, and the maximum is 8', () => {
        const d = pe.sinusoidalDot(3, 8, 16);
        assertReadout(d, '6.13704');
        assertClose(d, ref.sinusoidalDot(3, 8, 16), TOL.f64, 'vs reference');
        const t = pe.sinusoidal(9, 16);
        assertReadout(dot(t.subarray(48, 64), t.subarray(128, 144)), '6.13704', 'from the float32 table');
        assertClose(pe.sinusoidalDot(5, 5, 16), 8, TOL.f64, 'maximum');
      });

      test('(e) RoPE d = 8, q = k = (0.6, 0.4) in all four pairs, positions 3 and 7: q·k = 1.17864 in both layouts', () => {
        for (const layout of ['half', 'interleaved']) {
          const x = pairs8(layout);
          const got = ropeDot(3, 7, x, layout);
          assertReadout(got, '1.17864', layout);
          const want = ref.dot(ref.ropeApply(x, [3], 8, { layout }), ref.ropeApply(x, [7], 8, { layout }));
          assertClose(got, want, { abs: 1e-6, rel: 0 }, `${layout} vs reference`);
        }
        assertReadout(dot(pairs8('half'), pairs8('half')), '2.08', 'unrotated');
        const pair0 = [0.6, 0.4, 0, 0, 0, 0, 0, 0];
        assertReadout(ropeDot(3, 7, pair0, 'interleaved'), '-0.340', 'pair 0 alone');
      });

      test('(f) d = 8, m = 2, n = 8: sinusoidal dot 3.78369 and RoPE dot 0.52 × 3.78369 = 1.96752', () => {
        const s = pe.sinusoidalDot(2, 8, 8);
        assertReadout(s, '3.78369');
        assertClose(s, ref.sinusoidalDot(2, 8, 8), TOL.f64, 'vs reference');
        for (const layout of ['half', 'interleaved']) {
          const r = ropeDot(2, 8, pairs8(layout), layout);
          assertReadout(r, '1.96752', layout);
          assertClose(r, 0.52 * s, { abs: 1e-6, rel: 0 }, `${layout}: 0.52 × sinusoidal dot`);
        }
      });
    });
  });
}
