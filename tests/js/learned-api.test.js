// learned (core/learned.hpp) on both builds: the seeded stand-in for a learned position table.
//
// Tolerances live in ./helpers.js (TOL), each with the reason for its size.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { loadBoth, moduleName } from './helpers.js';

const modules = await loadBoth();

for (const pe of modules) {
  describe(moduleName(pe), () => {
    // [LEARNED] ---------------------------------------------------------------------------
    describe('learned', () => {
      test('learned(count, dModel) returns count rows of dModel float32 values', () => {
        const got = pe.learned(7, 10);
        assert.ok(got instanceof Float32Array);
        assert.equal(got.length, 70);
      });

      test('learned is deterministic: a count n and the array 0..n-1 give the same rows', () => {
        const a = pe.learned(6, 12);
        assert.deepEqual(pe.learned([0, 1, 2, 3, 4, 5], 12), a);
        assert.deepEqual(pe.learned(Int32Array.of(0, 1, 2, 3, 4, 5), 12), a);
        assert.deepEqual(pe.learned(6, 12), a);
      });

      test('learned rows depend only on (seed, position), not on which other rows are asked for', () => {
        const all = pe.learned(20, 9, { seed: 3 });
        const some = pe.learned([17, 2, 17], 9, { seed: 3 });
        assert.deepEqual(some.subarray(0, 9), all.subarray(17 * 9, 18 * 9));
        assert.deepEqual(some.subarray(9, 18), all.subarray(2 * 9, 3 * 9));
        assert.deepEqual(some.subarray(18, 27), all.subarray(17 * 9, 18 * 9));
      });

      test('learned({seed}) gives a different table for a different seed', () => {
        const a = pe.learned(4, 16, { seed: 0 });
        const b = pe.learned(4, 16, { seed: 1 });
        assert.ok(a.some((v, i) => v !== b[i]));
        assert.deepEqual(pe.learned(4, 16, { seed: 4294967295 }).length, 64);
      });

      test('learned({std}) scales the table linearly and std 0 gives zeros', () => {
        const a = pe.learned(8, 16, { std: 0.02 });
        const b = pe.learned(8, 16, { std: 0.04 });
        // A power-of-two scale commutes with float32 rounding, so this is exact.
        assert.deepEqual(b, a.map((v) => 2 * v));
        assert.ok(pe.learned(3, 5, { std: 0 }).every((v) => v === 0));
      });

      test('learned draws from N(0, std^2): the sample mean and std of 1024 x 64 values fit', () => {
        const v = pe.learned(1024, 64);
        const mean = v.reduce((a, b) => a + b, 0) / v.length;
        const sd = Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / v.length);
        // Standard error of the mean: 0.02 / 256 = 8e-5; of the std: 0.02 / sqrt(2 * 65536) = 6e-5.
        assert.ok(Math.abs(mean) < 5e-4, `mean ${mean}`);
        assert.ok(Math.abs(sd - 0.02) < 5e-4, `std ${sd}`);
      });

      test('learned accepts the last row maxPositions - 1 and odd dModel', () => {
        assert.equal(pe.learned([1023], 3).length, 3);
        assert.equal(pe.learned([9], 5, { maxPositions: 10 }).length, 5);
        assert.ok(pe.learned([9], 5, { maxPositions: 10 }).every(Number.isFinite));
      });

      test('learned rejects a position at maxPositions with a RangeError naming the position', () => {
        assert.throws(() => pe.learned([1024], 4), (e) => e instanceof RangeError && /positions\[0\]/.test(e.message));
        assert.throws(() => pe.learned(11, 4, { maxPositions: 10 }), RangeError);
      });
    });
  });
}

describe('the SIMD and scalar builds agree', () => {
  const [simd, scalar] = modules;

  test('the float32 outputs are identical in both builds', () => {
    assert.deepEqual(simd.learned(10, 13, { seed: 9 }), scalar.learned(10, 13, { seed: 9 }));
  });
});
