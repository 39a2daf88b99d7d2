// t5Bucket (core/t5.hpp) on both builds: T5's buckets against the float64 reference in
// ./reference.js (HF _relative_position_bucket), and its option checks.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { loadBoth, moduleName, prng } from './helpers.js';
import * as ref from './reference.js';

const modules = await loadBoth();

for (const pe of modules) {
  describe(moduleName(pe), () => {
    describe('t5Bucket', () => {
      const range = Array.from({ length: 601 }, (_, i) => i - 300);

      test('t5Bucket (bidirectional, 32 buckets, max distance 128) matches the reference on -300..300', () => {
        const got = pe.t5Bucket(range);
        assert.ok(got instanceof Int32Array);
        assert.deepEqual(got, ref.t5Buckets(range));
        assert.deepEqual(pe.t5Bucket(range, { bidirectional: true, numBuckets: 32, maxDistance: 128 }), got);
      });

      test('t5Bucket unidirectional matches the reference on -300..300 and maps rp > 0 to bucket 0', () => {
        const got = pe.t5Bucket(range, { bidirectional: false });
        assert.deepEqual(got, ref.t5Buckets(range, { bidirectional: false }));
        assert.ok(got.slice(301).every((b) => b === 0));
      });

      test('t5Bucket lands exactly on the log boundaries ±16, ±32, ±64 in both directions', () => {
        const rps = [-65, -64, -63, -33, -32, -31, -17, -16, -15, -8, -7, 0, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129];
        // n = 16, 32, 64 -> 8 + log2(n/8)/log2(16) * 8 = 10, 12, 14 exactly; rp > 0 adds 16.
        const bidirectional = [14, 14, 13, 12, 12, 11, 10, 10, 9, 8, 7, 0, 23, 24, 25, 26, 26, 27, 28, 28, 29, 30, 30, 31, 31, 31];
        // n = max(-rp, 0), 16 exact buckets, log-spaced by 8^(1/16): n = 16 is the boundary
        // (log 1 = 0 -> 16, n = 15 -> 15); 31..33 -> 16 + floor(5.1..5.4) = 21; 63..65 -> 26.
        const causal = [26, 26, 26, 21, 21, 21, 16, 16, 15, 8, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        assert.deepEqual([...pe.t5Bucket(rps)], bidirectional);
        assert.deepEqual([...pe.t5Bucket(rps, { bidirectional: false })], causal);
        assert.deepEqual([...ref.t5Buckets(rps)], bidirectional, 'the reference agrees with the hand table');
        assert.deepEqual([...ref.t5Buckets(rps, { bidirectional: false })], causal, 'the reference agrees with the hand table');
      });

      test('t5Bucket honours numBuckets and maxDistance', () => {
        const rps = Array.from({ length: 2001 }, (_, i) => i - 1000);
        for (const options of [
          { numBuckets: 64, maxDistance: 256 }, { numBuckets: 8, maxDistance: 16 }, { numBuckets: 4, maxDistance: 2 },
          { numBuckets: 32, maxDistance: 1000 }, { bidirectional: false, numBuckets: 2, maxDistance: 5 },
          { bidirectional: false, numBuckets: 64, maxDistance: 512 }, { numBuckets: 4096, maxDistance: 16777216 },
        ]) {
          assert.deepEqual(pe.t5Bucket(rps, options), ref.t5Buckets(rps, options), JSON.stringify(options));
        }
      });

      test('t5Bucket floors exactly on a log boundary for any numBuckets and maxDistance, as HF (float32) does', () => {
        // Found by sweeping numBuckets <= 128 and maxDistance <= 1024 against the exact reference
        // (96 of ~95 million cases; the defaults are not affected). In each, ln(n/e)/ln(d/e)·R is an
        // integer (18 buckets, max 128, n = 8: e = 4, R = 5, ln 2 / ln 32 · 5 = 1), a quotient of two
        // double logarithms lands just below it, and truncation drops one bucket. HF computes in
        // float32 and gets these right.
        const cases = [
          [{ numBuckets: 18, maxDistance: 128 }, [-8, -16, -64, 8, 16, 64], [5, 6, 8, 14, 15, 17]],
          [{ numBuckets: 20, maxDistance: 160 }, [-10, -20, -80], [6, 7, 9]],
          [{ numBuckets: 38, maxDistance: 16 }, [-12], [14]],
          [{ numBuckets: 38, maxDistance: 288 }, [-18, -36, -144], [11, 13, 17]],
          [{ numBuckets: 78, maxDistance: 608 }, [76], [66]],
        ];
        for (const [options, rps, want] of cases) {
          assert.deepEqual([...ref.t5Buckets(rps, options)], want, `reference, ${JSON.stringify(options)}`);
          assert.deepEqual([...pe.t5Bucket(rps, options)], want, JSON.stringify(options));
        }
      });

      test('t5Bucket matches the reference for random numBuckets and maxDistance over every distance up to maxDistance', () => {
        const rng = prng(0x75);
        for (let t = 0; t < 60; t++) {
          const bidirectional = rng.next() < 0.5;
          const numBuckets = bidirectional ? 2 * rng.int(2, 64) : rng.int(2, 128);
          const exact = Math.floor((bidirectional ? numBuckets / 2 : numBuckets) / 2);
          const maxDistance = rng.int(exact + 1, 1024);
          const options = { bidirectional, numBuckets, maxDistance };
          const rps = Array.from({ length: 2 * maxDistance + 1 }, (_, i) => i - maxDistance);
          assert.deepEqual(pe.t5Bucket(rps, options), ref.t5Buckets(rps, options), JSON.stringify(options));
        }
      });

      test('t5Bucket caps far distances at the last bucket, up to ±(2^31 − 1)', () => {
        const rps = [-2147483647, -1000000, 1000000, 2147483647];
        assert.deepEqual([...pe.t5Bucket(rps)], [15, 15, 31, 31]);
        assert.deepEqual([...pe.t5Bucket(rps, { bidirectional: false })], [31, 31, 0, 0]);
      });

      test('t5Bucket matches the reference on random distances and accepts typed arrays', () => {
        const rng = prng(55);
        const rps = Int32Array.from({ length: 5000 }, () => rng.int(-200000, 200000));
        assert.deepEqual(pe.t5Bucket(rps), ref.t5Buckets(rps));
        assert.deepEqual(pe.t5Bucket(Float64Array.from(rps), { bidirectional: false }), ref.t5Buckets(rps, { bidirectional: false }));
        assert.equal(pe.t5Bucket([]).length, 0);
      });
    });
  });
}

test('the SIMD and scalar builds give identical buckets', () => {
  const [simd, scalar] = modules;
  const rps = Array.from({ length: 1001 }, (_, i) => i - 500);
  assert.deepEqual(simd.t5Bucket(rps), scalar.t5Bucket(rps));
  assert.deepEqual(simd.t5Bucket(rps, { bidirectional: false }), scalar.t5Bucket(rps, { bidirectional: false }));
});
