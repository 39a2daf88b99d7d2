// attention and softmax (core/attention.hpp) on both builds, against the float64 reference in
// ./reference.js.
//
// Tolerances live in ./helpers.js (TOL), each with the reason for its size.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { TOL, assertAllClose, assertClose, loadBoth, moduleName, prng } from './helpers.js';
import * as ref from './reference.js';

const modules = await loadBoth();

for (const pe of modules) {
  describe(moduleName(pe), () => {
    // [ATTENTION] -------------------------------------------------------------------------
    describe('attention', () => {
      const rng = prng(0xa77);

      test('attention(q, k, dim) is the row softmax of q·k/sqrt(dim), rows summing to 1', () => {
        for (const [qRows, kRows, dim] of [[1, 1, 1], [4, 4, 8], [7, 7, 3], [16, 16, 64], [5, 9, 17], [9, 5, 33], [3, 2, 5]]) {
          const q = rng.floats(qRows * dim);
          const k = rng.floats(kRows * dim);
          const got = pe.attention(q, k, dim);
          assert.ok(got instanceof Float32Array);
          assertAllClose(got, ref.attention(q, k, dim), TOL.attention, `${qRows}x${kRows} dim ${dim}`);
          for (let i = 0; i < qRows; i++) {
            assertClose(got.subarray(i * kRows, (i + 1) * kRows).reduce((a, b) => a + b, 0), 1, { abs: 1e-5, rel: 0 }, `row ${i} sum`);
          }
        }
      });

      test('attention({causal: true}) masks keys after each query, with rectangular queries at the last positions', () => {
        for (const [qRows, kRows, dim] of [[6, 6, 8], [1, 7, 4], [3, 10, 16], [5, 6, 7]]) {
          const q = rng.floats(qRows * dim);
          const k = rng.floats(kRows * dim);
          const got = pe.attention(q, k, dim, { causal: true });
          assertAllClose(got, ref.attention(q, k, dim, { causal: true }), TOL.attention, `${qRows}x${kRows}`);
          const shift = kRows - qRows;
          for (let i = 0; i < qRows; i++) {
            for (let j = i + shift + 1; j < kRows; j++) assert.equal(got[i * kRows + j], 0, `(${i}, ${j}) is masked`);
          }
        }
        // One query over 7 keys sees all of them (it is the last position).
        const q = rng.floats(4);
        const k = rng.floats(28);
        assert.deepEqual(pe.attention(q, k, 4, { causal: true }), pe.attention(q, k, 4));
      });

      test('attention({softmax: false}) returns the scaled, biased scores with −Infinity where masked', () => {
        const q = rng.floats(3 * 6);
        const k = rng.floats(5 * 6);
        const bias = Float32Array.from({ length: 15 }, () => rng.next() - 0.5);
        const options = { softmax: false, causal: true, bias, scale: 0.7 };
        const got = pe.attention(q, k, 6, options);
        assertAllClose(got, ref.attention(q, k, 6, options), TOL.attention);
        assert.equal(got[0 * 5 + 3], -Infinity);
        assert.equal(got[0 * 5 + 4], -Infinity);
        assert.equal(got[1 * 5 + 4], -Infinity);
        assert.notEqual(got[2 * 5 + 4], -Infinity);
      });

      test('attention({scale}) replaces 1/sqrt(dim), including 0 and negative scales', () => {
        const q = rng.floats(4 * 8);
        const k = rng.floats(4 * 8);
        for (const scale of [1, 0.125, 0, -2, 10]) {
          assertAllClose(pe.attention(q, k, 8, { scale }), ref.attention(q, k, 8, { scale }), TOL.attention, `scale ${scale}`);
        }
        assert.ok(pe.attention(q, k, 8, { scale: 0 }).every((v) => Math.abs(v - 0.25) < 1e-7));
      });

      test('attention({bias}) adds the bias, and a −Infinity bias entry gets zero weight', () => {
        const q = rng.floats(4 * 8);
        const k = rng.floats(6 * 8);
        const bias = Array.from({ length: 24 }, (_, i) => (i % 5 === 0 ? -Infinity : rng.next() * 2 - 1));
        const got = pe.attention(q, k, 8, { bias });
        assertAllClose(got, ref.attention(q, k, 8, { bias }), TOL.attention);
        bias.forEach((b, i) => b === -Infinity && assert.equal(got[i], 0));
        assert.deepEqual(pe.attention(q, k, 8, { bias: null }), pe.attention(q, k, 8));
      });

      test('attention gives zeros for a row with every key masked', () => {
        const q = rng.floats(2 * 4);
        const k = rng.floats(3 * 4);
        const bias = [-Infinity, -Infinity, -Infinity, 0, 0, 0];
        const got = pe.attention(q, k, 4, { bias });
        assert.deepEqual([...got.subarray(0, 3)], [0, 0, 0]);
        assertAllClose(got, ref.attention(q, k, 4, { bias }), TOL.attention);
      });

      test('attention is stable for large scores (max-subtracted softmax)', () => {
        const q = Float32Array.of(100, 100);
        const k = Float32Array.of(100, 100, -100, 100, 99, 100);
        const got = pe.attention(q, k, 2, { scale: 1 });
        assert.ok(got.every(Number.isFinite));
        assertAllClose(got, ref.attention(q, k, 2, { scale: 1 }), TOL.attention);
      });

      test('attention over RoPE-rotated q and k with an ALiBi bias and a causal mask matches the reference', () => {
        const dim = 16;
        const L = 10;
        const q = pe.ropeApply(rng.floats(L * dim), L, dim);
        const k = pe.ropeApply(rng.floats(L * dim), L, dim);
        const bias = pe.alibiBias(L, pe.alibiSlopes(8)[2], { causal: false });
        assertAllClose(pe.attention(q, k, dim, { bias, causal: true }), ref.attention(q, k, dim, { bias, causal: true }), TOL.attention);
      });

      test('attention with no query rows or no key rows returns an empty array', () => {
        assert.equal(pe.attention([], rng.floats(8), 4).length, 0);
        assert.equal(pe.attention(rng.floats(8), [], 4).length, 0);
      });
    });

    describe('softmax', () => {
      const rng = prng(0x50f7);
      const rowsOf = (x, cols) => Array.from({ length: x.length / cols }, (_, r) => ref.softmax(Array.from(x.subarray(r * cols, (r + 1) * cols))));

      test('softmax(x, cols) is the stable softmax of each row, for cols 1..37 (SIMD tails included)', () => {
        for (let cols = 1; cols <= 37; cols++) {
          const x = rng.floats(3 * cols).map((v) => 8 * v);
          const got = pe.softmax(x, cols);
          assert.ok(got instanceof Float32Array);
          assertAllClose(got, rowsOf(x, cols).flat(), TOL.attention, `cols ${cols}`);
        }
      });

      test('softmax gives −Infinity entries weight 0 and an all −Infinity row zeros', () => {
        const x = Float32Array.of(0, -Infinity, 1, -Infinity, -Infinity, -Infinity);
        const got = pe.softmax(x, 3);
        assertAllClose(got, [1 / (1 + Math.E), 0, Math.E / (1 + Math.E), 0, 0, 0], TOL.attention);
      });

      test('softmax is stable for large inputs and does not modify its input', () => {
        const x = Float32Array.of(1e30, 1e30 - 1e24, -1e30, 88, 89, 90);
        const copy = Float32Array.from(x);
        const got = pe.softmax(x, 3);
        assert.ok(got.every(Number.isFinite));
        assertAllClose(got, rowsOf(x, 3).flat(), TOL.attention);
        assert.deepEqual(x, copy);
        assert.equal(pe.softmax([], 4).length, 0);
      });

      test('attention({softmax: false}) followed by softmax(scores, rows(k)) equals attention()', () => {
        const q = rng.floats(5 * 8);
        const k = rng.floats(7 * 8);
        const scores = pe.attention(q, k, 8, { softmax: false, causal: true });
        assertAllClose(pe.softmax(scores, 7), pe.attention(q, k, 8, { causal: true }), { abs: 1e-7, rel: 1e-6 });
      });
    });
  });
}

describe('the SIMD and scalar builds agree', () => {
  const [simd, scalar] = modules;
  test('attention agrees on random shapes (dim 1..33, rows 1..17), causal and not', () => {
    const rng = prng(303);
    for (let t = 0; t < 60; t++) {
      const dim = rng.int(1, 33);
      const kRows = rng.int(1, 17);
      const qRows = rng.int(1, kRows);
      const q = rng.floats(qRows * dim);
      const k = rng.floats(kRows * dim);
      const causal = rng.next() < 0.5;
      assertAllClose(simd.attention(q, k, dim, { causal }), scalar.attention(q, k, dim, { causal }), TOL.attention, `${qRows}x${kRows} dim ${dim}`);
      assertAllClose(simd.attention(q, k, dim, { causal, softmax: false }), scalar.attention(q, k, dim, { causal, softmax: false }), { abs: 1e-6, rel: 1e-6 }, 'scores');
    }
  });

  test('softmax agrees on random shapes (cols 1..40)', () => {
    const rng = prng(404);
    for (let t = 0; t < 60; t++) {
      const cols = rng.int(1, 40);
      const x = rng.floats(rng.int(1, 6) * cols).map((v) => 10 * v);
      assertAllClose(simd.softmax(x, cols), scalar.softmax(x, cols), TOL.attention, `cols ${cols}`);
    }
  });
});
