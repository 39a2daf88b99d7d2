// alibiSlopes and alibiBias (core/alibi.hpp) on both builds, against the float64 reference in
// ./reference.js (fairseq get_slopes) and the paper's bias.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { TOL, assertAllClose, loadBoth, moduleName, prng } from './helpers.js';
import * as ref from './reference.js';

const modules = await loadBoth();

for (const pe of modules) {
  describe(moduleName(pe), () => {
    describe('alibi', () => {
      test('alibiSlopes(n) matches fairseq get_slopes (start·ratio^i) within 1e-12 for n = 1..64, 100, 4096', () => {
        for (const n of [...Array.from({ length: 64 }, (_, i) => i + 1), 100, 4096]) {
          const got = pe.alibiSlopes(n);
          assert.ok(got instanceof Float64Array);
          assertAllClose(got, ref.alibiSlopes(n), TOL.alibi, `n=${n}`);
        }
      });

      test("alibiSlopes keeps fairseq's unsorted order: 6 heads give 1/4, 1/16, 1/64, 1/256, 1/2, 1/8", () => {
        assertAllClose(pe.alibiSlopes(6), [1 / 4, 1 / 16, 1 / 64, 1 / 256, 1 / 2, 1 / 8], TOL.alibi);
      });

      test('alibiSlopes(12) is 2^-1..2^-8 followed by 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5', () => {
        const want = [...Array.from({ length: 8 }, (_, k) => 2 ** -(k + 1)), 2 ** -0.5, 2 ** -1.5, 2 ** -2.5, 2 ** -3.5];
        assertAllClose(pe.alibiSlopes(12), want, TOL.alibi);
      });

      test('alibiSlopes(1) is 1/256 and alibiSlopes(8) is 2^-1..2^-8', () => {
        assert.deepEqual([...pe.alibiSlopes(1)], [1 / 256]);
        assertAllClose(pe.alibiSlopes(8), Array.from({ length: 8 }, (_, k) => 2 ** -(k + 1)), TOL.alibi);
      });

      test('alibiBias(length, slope) is −slope·|i − j| with −Infinity above the diagonal (causal default)', () => {
        for (const slope of [...pe.alibiSlopes(6), 0, 0.3, 7]) {
          for (const length of [1, 2, 5, 33]) {
            const got = pe.alibiBias(length, slope);
            assert.ok(got instanceof Float32Array);
            assertAllClose(got, ref.alibiBias(length, slope), TOL.f32Round, `L=${length} m=${slope}`);
          }
        }
        // The sign of the zero on the diagonal is not part of the contract (=== compares it away).
        assertAllClose(pe.alibiBias(3, 0.5), [0, -Infinity, -Infinity, -0.5, 0, -Infinity, -1, -0.5, 0], { abs: 0, rel: 0 });
      });

      test('alibiBias({causal: false}) is symmetric −slope·|i − j| everywhere', () => {
        for (const slope of pe.alibiSlopes(12)) {
          assertAllClose(pe.alibiBias(17, slope, { causal: false }), ref.alibiBias(17, slope, { causal: false }), TOL.f32Round);
        }
        assert.equal(pe.alibiBias(0, 0.5).length, 0);
      });

      test("alibiBias under causal softmax equals the reference code's +m·j form (same weights per row)", () => {
        const rng = prng(77);
        const L = 12;
        const dim = 8;
        const q = rng.floats(L * dim);
        const k = rng.floats(L * dim);
        for (const m of pe.alibiSlopes(4)) {
          const got = pe.attention(q, k, dim, { bias: pe.alibiBias(L, m), causal: true });
          const fairseq = Array.from({ length: L * L }, (_, idx) => m * (idx % L)); // + m * j, mask added by causal
          assertAllClose(got, ref.attention(q, k, dim, { bias: fairseq, causal: true }), TOL.attention, `m=${m}`);
        }
      });
    });
  });
}

test('the SIMD and scalar builds give identical slopes and biases', () => {
  const [simd, scalar] = modules;
  assert.deepEqual(simd.alibiSlopes(48), scalar.alibiSlopes(48));
  assert.deepEqual(simd.alibiBias(9, 0.25), scalar.alibiBias(9, 0.25));
});
