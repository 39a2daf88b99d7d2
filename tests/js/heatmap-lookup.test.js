// web/kit/heatmap.js cellColoursLookedUp: every channel within 1 of cellColours' (the colour
// interpolated on the scale), gaps (NaN) transparent, values past ±limit at the scale's ends.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cellColours, cellColoursLookedUp } from '../../web/kit/heatmap.js';

const channels = (word) => [0, 8, 16, 24].map((shift) => (word >>> shift) & 255);

test('looked-up colours are within 1 of the interpolated ones, for seeded values, gaps and values past the limit', () => {
  let s = 7;
  const random = () => { s = (s * 16807) % 2147483647; return s / 2147483647; };
  for (const limit of [0.06, 1, 3.5, 0]) {
    const values = Float32Array.from({ length: 5000 }, () => (random() - 0.5) * 3 * (limit || 1));
    values.set([NaN, Infinity, -Infinity, limit, -limit, 0, 2 * limit + 1, -2 * limit - 1], 0);
    const want = cellColours(values, limit);
    const got = cellColoursLookedUp(values, limit);
    assert.equal(got[0], 0, 'NaN: transparent');
    for (let i = 0; i < values.length; i++) {
      const [a, b] = [channels(got[i]), channels(want[i])];
      assert.ok(a.every((c, k) => Math.abs(c - b[k]) <= 1), `limit ${limit}, value ${values[i]}: ${a} against ${b}`);
    }
  }
});
