// shawIndex (core/shaw.hpp) on both builds: Shaw et al.'s clipped relative index against the
// reference in ./reference.js (tensor2tensor _generate_relative_positions_matrix).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { loadBoth, moduleName } from './helpers.js';
import * as ref from './reference.js';

const modules = await loadBoth();

for (const pe of modules) {
  describe(moduleName(pe), () => {
    describe('shawIndex', () => {
      test('shawIndex(q, k, maxDistance) is clip(j − i, −k, k) + k on square shapes', () => {
        const got = pe.shawIndex(8, 8, 3);
        assert.ok(got instanceof Int32Array);
        assert.deepEqual(got, ref.shawIndex(8, 8, 3));
        assert.deepEqual([...got.subarray(0, 8)], [3, 4, 5, 6, 6, 6, 6, 6]);
        assert.deepEqual(pe.shawIndex(50, 50, 20), ref.shawIndex(50, 50, 20), 'transformer_relative uses k = 20');
      });

      test('shawIndex with fewer queries than keys puts the queries at the last positions', () => {
        assert.deepEqual([...pe.shawIndex(1, 5, 2)], [0, 0, 0, 1, 2]);
        for (const [q, k, d] of [[3, 10, 2], [1, 1, 0], [5, 64, 7], [17, 33, 100]]) {
          assert.deepEqual(pe.shawIndex(q, k, d), ref.shawIndex(q, k, d), `${q}x${k} k=${d}`);
        }
      });

      test('shawIndex with maxDistance 0 is all zeros and empty shapes are empty', () => {
        assert.ok(pe.shawIndex(4, 6, 0).every((v) => v === 0));
        assert.equal(pe.shawIndex(0, 5, 3).length, 0);
        assert.equal(pe.shawIndex(0, 0, 3).length, 0);
      });
    });
  });
}

test('the SIMD and scalar builds give identical indices', () => {
  const [simd, scalar] = modules;
  assert.deepEqual(simd.shawIndex(13, 29, 5), scalar.shawIndex(13, 29, 5));
});
