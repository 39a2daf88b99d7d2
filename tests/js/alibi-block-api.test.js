// alibiBiasBlock on both builds: values against the paper's bias computed here, the full
// alibiBias matrix it is a piece of, and bad input (a named RangeError/TypeError, after which
// the instance keeps working).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { loadBoth, moduleName } from './helpers.js';

const modules = await loadBoth();

// −m·(q − k) for a key at or before the query; after it, −Infinity when causal and −m·(k − q)
// otherwise. One float32 rounding of the double value.
const paper = (m, q, k, causal) => (k > q ? (causal ? -Infinity : -m * (k - q)) : -m * (q - k));
const f32 = (v) => Math.fround(v);

for (const pe of modules) {
  describe(`alibiBiasBlock (${moduleName(pe)})`, () => {
    test('alibiBiasBlock([2047], 2048, 1/256) is the last row of a 2048-token causal bias', () => {
      const row = pe.alibiBiasBlock([2047], 2048, 1 / 256);
      assert.ok(row instanceof Float32Array);
      assert.equal(row.length, 2048);
      for (let k = 0; k < 2048; k++) assert.equal(row[k], f32(paper(1 / 256, 2047, k, true)), `k ${k}`);
    });

    test('alibiBiasBlock(n, n, m) equals alibiBias(n, m) entry for entry, causal or not', () => {
      for (const causal of [true, false]) {
        for (const m of [0.5, 2 ** -0.5, 1 / 256]) {
          assert.deepEqual([...pe.alibiBiasBlock(9, 9, m, { causal })], [...pe.alibiBias(9, m, { causal })]);
        }
      }
    });

    test('explicit positions in any order, masked where the key comes after the query', () => {
      const q = [5, 0, 9];
      const k = [9, 2, 5, 0, 7];
      for (const causal of [true, false, undefined]) {
        const got = pe.alibiBiasBlock(q, Int32Array.from(k), 0.125, causal === undefined ? undefined : { causal });
        const want = q.flatMap((qq) => k.map((kk) => f32(paper(0.125, qq, kk, causal ?? true))));
        assert.deepEqual([...got], want, `causal ${causal}`);
      }
    });

    test('a corner 3000 positions down holds the same numbers as the top-left corner', () => {
      const far = Array.from({ length: 6 }, (_, i) => 3000 + i);
      assert.deepEqual([...pe.alibiBiasBlock(far, far, 1 / 16)], [...pe.alibiBiasBlock(6, 6, 1 / 16)]);
    });

    test('bad arguments throw a RangeError or TypeError naming them, and the instance keeps working', () => {
      const cases = [
        [() => pe.alibiBiasBlock([-1], 2, 0.5), RangeError, /queries\[0\] must be an integer in \[0, 2147483647\]/],
        [() => pe.alibiBiasBlock(2, [0, 1.5], 0.5), RangeError, /keys\[1\] must be an integer/],
        [() => pe.alibiBiasBlock(2, 2, NaN), RangeError, /slope must be a finite number in \[0, 1000000\]/],
        [() => pe.alibiBiasBlock(2, 2, -1), RangeError, /slope must be a finite number/],
        [() => pe.alibiBiasBlock(2, 2, '0.5'), TypeError, /slope/],
        [() => pe.alibiBiasBlock('2', 2, 0.5), TypeError, /queries must be a count or an array/],
        [() => pe.alibiBiasBlock(2, {}, 0.5), TypeError, /keys must be a count or an array/],
        [() => pe.alibiBiasBlock(2, 2, 0.5, { causal: 'yes' }), TypeError, /options\.causal/],
        [() => pe.alibiBiasBlock(2, 2, 0.5, 7), TypeError, /options/],
        [() => pe.alibiBiasBlock(-3, 2, 0.5), RangeError, /queries must be an integer in \[0, 1048576\]/],
        [() => pe.alibiBiasBlock(4096, 8192, 0.5), RangeError, /queries\.length \* keys\.length must be at most 16777216/],
      ];
      for (const [call, kind, message] of cases) {
        assert.throws(call, (e) => e instanceof kind && message.test(e.message), String(call));
        assert.deepEqual([...pe.alibiBiasBlock([3], 4, 0.5)], [-1.5, -1, -0.5, -0]);
      }
    });
  });
}
