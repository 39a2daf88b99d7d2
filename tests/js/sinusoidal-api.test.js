// sinusoidal, sinusoidalFrequencies and sinusoidalDot (core/sinusoidal.hpp) on both builds,
// against the float64 reference in ./reference.js (Vaswani et al. 2017 §3.5).
//
// Tolerances live in ./helpers.js (TOL), each with the reason for its size.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { TOL, assertAllClose, assertClose, dot, loadBoth, moduleName, prng } from './helpers.js';
import * as ref from './reference.js';

const modules = await loadBoth();

for (const pe of modules) {
  describe(moduleName(pe), () => {
    // [SINUSOIDAL] ------------------------------------------------------------------------
    describe('sinusoidal', () => {
      test('sinusoidal(positions, dModel) follows the paper formula for d = 1..33, 64, 128 and 512', () => {
        const dims = [...Array.from({ length: 33 }, (_, i) => i + 1), 64, 128, 512];
        for (const d of dims) {
          const got = pe.sinusoidal(64, d);
          assert.ok(got instanceof Float32Array);
          assertAllClose(got, ref.sinusoidal(64, d), TOL.f32, `d=${d}`);
        }
      });

      test('sinusoidal with d = 2 gives [sin pos, cos pos]', () => {
        const got = pe.sinusoidal(50, 2);
        const want = Array.from({ length: 100 }, (_, k) => (k % 2 ? Math.cos((k - 1) / 2) : Math.sin(k / 2)));
        assertAllClose(got, want, TOL.f32);
      });

      test('sinusoidal with odd d applies the paper formula at every index, so its last column is a sine', () => {
        for (const d of [3, 5, 9, 21]) {
          const got = pe.sinusoidal(40, d);
          const w = 10000 ** (-(d - 1) / d); // div_i for 2i = d - 1
          const last = Array.from({ length: 40 }, (_, p) => got[p * d + d - 1]);
          assertAllClose(last, Array.from({ length: 40 }, (_, p) => Math.sin(p * w)), TOL.f32, `d=${d} last column`);
          assertAllClose(got, ref.sinusoidal(40, d), TOL.f32, `d=${d}`);
        }
      });

      test('sinusoidal({offset}) starts the rows at offset and stays within 2e-6 up to position 100000', () => {
        const got = pe.sinusoidal(101, 64, { offset: 99900 });
        assertAllClose(got, ref.sinusoidal(101, 64, { offset: 99900 }), TOL.f32Far);
      });

      test('sinusoidal(100001, 8) stays within 2e-6 absolute at every position 0..100000', () => {
        const got = pe.sinusoidal(100001, 8);
        const div = ref.sinusoidalFrequencies(8);
        const want = new Float64Array(got.length);
        for (let p = 0; p <= 100000; p++) {
          for (let i = 0; i < 4; i++) {
            want[p * 8 + 2 * i] = Math.sin(p * div[i]);
            want[p * 8 + 2 * i + 1] = Math.cos(p * div[i]);
          }
        }
        assertAllClose(got, want, TOL.f32Far);
      });

      test('sinusoidal({base}) uses the given base', () => {
        for (const base of [2, 100, 500000]) {
          assertAllClose(pe.sinusoidal(33, 12, { base }), ref.sinusoidal(33, 12, { base }), TOL.f32, `base ${base}`);
        }
      });

      test('sinusoidal(0, d) is an empty Float32Array', () => {
        const got = pe.sinusoidal(0, 16);
        assert.ok(got instanceof Float32Array);
        assert.equal(got.length, 0);
      });

      test('sinusoidalFrequencies(d) returns ceil(d/2) float64 frequencies exp(-2i ln(base)/d)', () => {
        for (const d of [1, 2, 3, 7, 16, 20, 511, 512, 8192]) {
          const got = pe.sinusoidalFrequencies(d);
          assert.ok(got instanceof Float64Array);
          assert.equal(got.length, Math.ceil(d / 2));
          assertAllClose(got, ref.sinusoidalFrequencies(d), TOL.f64, `d=${d}`);
        }
        assertAllClose(pe.sinusoidalFrequencies(10, { base: 500000 }), ref.sinusoidalFrequencies(10, { base: 500000 }), TOL.f64);
      });

      test('sinusoidalDot(m, n, d) equals PE(m)·PE(n) summed term by term, odd d and real m, n included', () => {
        const cases = [
          [0, 0, 2], [3, 8, 16], [2, 8, 8], [8, 2, 8], [-5, 7, 10], [1.5, -2.25, 6], [100000, 3, 64],
          [99999, 100000, 512], [4, 9, 5], [4, 9, 1], [12.5, 3, 7], [-2147483647, 2147483647, 4],
        ];
        for (const [m, n, d] of cases) {
          // The reference sums d products of rows each within 1 of 0; its own rounding is ~d ulps.
          assertClose(pe.sinusoidalDot(m, n, d), ref.sinusoidalDot(m, n, d), { abs: 1e-9 * d, rel: 1e-9 }, `m=${m} n=${n} d=${d}`);
        }
        assertClose(pe.sinusoidalDot(2, 8, 8, { base: 500 }), ref.sinusoidalDot(2, 8, 8, { base: 500 }), TOL.f64);
      });

      test('sinusoidalDot peaks at d/2 when m = n and depends only on m - n for even d', () => {
        for (const d of [2, 8, 16, 64]) {
          assertClose(pe.sinusoidalDot(7, 7, d), d / 2, TOL.f64, `d=${d}`);
          assertClose(pe.sinusoidalDot(10, 3, d), pe.sinusoidalDot(1007, 1000, d), { abs: 1e-9 * d, rel: 0 }, `d=${d}`);
        }
      });

      test('sinusoidalDot agrees with the dot of two rows of the float32 table', () => {
        const d = 64;
        const t = pe.sinusoidal(40, d);
        const table = dot(t.subarray(5 * d, 6 * d), t.subarray(37 * d, 38 * d));
        assertClose(pe.sinusoidalDot(5, 37, d), table, { abs: d * 1e-6, rel: 0 });
      });
    });
  });
}

describe('the SIMD and scalar builds agree', () => {
  const [simd, scalar] = modules;
  // Both builds are within 2e-7 of float64 sin/cos (trig contract), so within 4e-7 of each other.
  const trigPair = { abs: 4e-7, rel: 0 };

  test('sinusoidal agrees on random shapes with SIMD tails (d = 1..37) and positions up to 100000', () => {
    const rng = prng(101);
    for (let t = 0; t < 60; t++) {
      const d = rng.int(1, 37);
      const positions = rng.int(1, 40);
      const offset = rng.pick([0, rng.int(0, 5000), rng.int(0, 100000 - positions)]);
      assertAllClose(simd.sinusoidal(positions, d, { offset }), scalar.sinusoidal(positions, d, { offset }), trigPair, `d=${d} offset ${offset}`);
    }
  });

  test('the float64 outputs are identical in both builds', () => {
    assert.deepEqual(simd.sinusoidalFrequencies(77), scalar.sinusoidalFrequencies(77));
    assert.equal(simd.sinusoidalDot(3, 8, 16), scalar.sinusoidalDot(3, 8, 16));
  });
});
