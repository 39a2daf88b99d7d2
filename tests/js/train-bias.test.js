// web/train/bias-figure.js lastBucketStart: the distance the train step's T5 note names as the
// start of the shared last bucket, against Hugging Face's causal bucket formula
// (T5Attention._relative_position_bucket, bidirectional=False) written out here in float64.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lastBucketStart } from '../../web/train/bias-figure.js';
import { loadBoth, moduleName } from './helpers.js';

/** HF's bucket of a key d positions back (relative position −d), causal. */
function hfBucket(d, buckets, maxDistance) {
  const maxExact = buckets / 2;
  if (d < maxExact) return d;
  const large = maxExact + Math.trunc(Math.log(d / maxExact) / Math.log(maxDistance / maxExact) * (buckets - maxExact));
  return Math.min(large, buckets - 1);
}

for (const pe of await loadBoth()) {
  test(`${moduleName(pe)}: the last bucket starts where HF's formula first reaches it`, () => {
    for (const [buckets, maxd] of [[32, 128], [16, 64], [8, 32], [32, 1000]]) {
      const start = lastBucketStart(pe, { buckets, t5MaxDistance: maxd });
      assert.equal(hfBucket(start, buckets, maxd), buckets - 1, `${buckets}/${maxd}: bucket at ${start}`);
      assert.equal(hfBucket(start - 1, buckets, maxd), buckets - 2, `${buckets}/${maxd}: bucket before ${start}`);
      assert.ok(start < maxd, `${buckets}/${maxd}: ${start} is below the max distance`);
    }
  });
}
