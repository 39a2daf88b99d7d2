// web/steps/choose/model.js: recommend() on all 40 answer sets against the rule table written
// from seed 001's when-to-use list (tests/expect/choose.js), every method reachable; and on both
// builds what each method makes of the distance k = 0..64, against formulas computed here in
// float64 (sinusoid dot products, RoPE rotations of all-ones and of random pairs redrawn from
// the seeded normal rows, T5 buckets, ALiBi slopes, 2-D sin-cos), with the claims the plot's
// text makes: the learned table stops at its 32 rows, T5's last bucket starts past the plot,
// random pairs under RoPE stay near 0, stretched RoPE at 64 is plain RoPE at 32, ALiBi head 3
// reaches −8 at 64.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FAMILIES, FAR, METHODS, QUESTIONS, TRAIN, familyOf, recommend, signals } from '../../web/steps/choose/model.js';
import { ANSWERS, RULES, ROW, expected } from '../expect/choose.js';
import { learnedRow, t5Bucket } from './reference.js';
import { assertAllClose, assertClose, loadBoth, moduleName } from './helpers.js';

const cores = await loadBoth();

test('recommend() agrees with the rule table on all 40 answer sets, every method is reachable, and each has its table row', () => {
  assert.deepEqual(QUESTIONS, ANSWERS);
  const seen = new Set();
  let count = 0;
  for (const data of ANSWERS.data) for (const model of ANSWERS.model) for (const length of ANSWERS.length) {
    for (const want of ANSWERS.want) {
      const a = { data, model, length, want };
      const got = recommend(a);
      assert.equal(got.method, expected(a), JSON.stringify(a));
      // The rule names the first row of the table that applies: its conditions hold for a.
      assert.equal(typeof got.rule, 'string');
      seen.add(got.method);
      count++;
    }
  }
  assert.equal(count, 40);
  assert.deepEqual([...seen].sort(), [...new Set(RULES.map(([, m]) => m))].sort());
  assert.deepEqual([...METHODS].sort(), [...seen].sort());
  for (const method of METHODS) {
    assert.equal(familyOf(method), ROW[method] ?? method);
    assert.ok(FAMILIES.includes(familyOf(method)), `${method}: a row of the table`);
  }
});

// What each method does with distance k, in float64. d = 16, base 10000.
const sinSim = (k, d) => {
  let s = 0;
  for (let i = 0; i < d / 2; i++) s += Math.cos(k * 10000 ** (-(2 * i) / d));
  return s;
};
// RoPE on independent random pairs: 32 queries (seed 23) and keys (seed 24) of the seeded normal
// draws, std 1, rotate_half pairs (i, i + 8); the mean of q(k)·k(0), over d.
const RANDOM = Array.from({ length: 32 }, (_, p) => [learnedRow(p, 16, { seed: 23, std: 1 }), learnedRow(p, 16, { seed: 24, std: 1 })]);
function ropeRandom(k) {
  let sum = 0;
  for (const [q, key] of RANDOM) {
    for (let i = 0; i < 8; i++) {
      const t = k * 10000 ** (-(2 * i) / 16);
      sum += (q[i] * key[i] + q[i + 8] * key[i + 8]) * Math.cos(t) + (q[i] * key[i + 8] - q[i + 8] * key[i]) * Math.sin(t);
    }
  }
  return sum / RANDOM.length / 16;
}
// The learned stand-in: cosine of row 0 with row k of the seeded table (seed 7, 32 rows).
const TABLE = Array.from({ length: TRAIN }, (_, p) => learnedRow(p, 16, { seed: 7 }));
const cosine = (u, v) => {
  let [uv, uu, vv] = [0, 0, 0];
  for (let c = 0; c < u.length; c++) [uv, uu, vv] = [uv + u[c] * v[c], uu + u[c] ** 2, vv + v[c] ** 2];
  return uv / Math.sqrt(uu * vv);
};
const WANT = {
  sinusoidal: { sinusoidal: (k) => sinSim(k, 16) / 8 },
  learned: { learned: (k) => cosine(TABLE[0], TABLE[k]) },
  t5: { t5: (k) => t5Bucket(-k) },
  rope: { rope: (k) => sinSim(k, 16) / 8, ropeRandom },
  'rope-scaled': { ropeScaled: (k) => sinSim(k / 2, 16) / 8, rope: (k) => sinSim(k, 16) / 8 },
  alibi: { alibi3: (k) => -k / 8, alibi1: (k) => -k / 2, alibi8: (k) => -k / 256 },
  vision: { visionRow: (k) => (4 + sinSim(k, 8)) / 8, visionDiagonal: (k) => sinSim(k, 8) / 4 },
};

for (const pe of cores) {
  const name = moduleName(pe);
  const all = signals(pe);

  test(`${name}: every method's curves against distance, against the formulas; each fits its y domain`, () => {
    for (const method of METHODS) {
      const sig = all.get(method);
      assert.deepEqual(sig.series.map((s) => s.key), Object.keys(WANT[method]), method);
      for (const s of sig.series) {
        const n = method === 'learned' ? TRAIN : FAR + 1;  // the learned table has no row 32
        assert.deepEqual(Array.from(s.x), Array.from({ length: n }, (_, k) => k), `${method} ${s.key}: x`);
        assertAllClose(s.y, Array.from(s.x, WANT[method][s.key]), { abs: 2e-6, rel: 1e-6 }, `${method} ${s.key}`);
        assert.ok(s.y.every((v) => v >= sig.yDomain[0] - 1e-6 && v <= sig.yDomain[1] + 1e-6), `${method} ${s.key}: within ${sig.yDomain}`);
      }
    }
  });

  test(`${name}: the claims the plot's words make`, () => {
    // T5: with maximum distance 128 the last bucket of a direction (15) starts past the plot.
    let from = 0;
    while (t5Bucket(-from) < 15) from++;
    assert.ok(from > FAR);
    assert.deepEqual(all.get('t5').vars, { maxd: 128, lastBucket: 15, lastFrom: from, exact: 8 });
    // RoPE: random pairs stay within 0.25 of 0; the spread quoted is the largest |mean|.
    const spread = Math.max(...Array.from({ length: FAR + 1 }, (_, k) => Math.abs(ropeRandom(k))));
    assert.ok(spread < 0.25, `spread ${spread}`);
    assertClose(all.get('rope').vars.spread, spread, { abs: 2e-6, rel: 0 }, 'spread');
    assert.equal(all.get('rope').vars.pairs, 32);
    // Stretched ×2, RoPE reaches at 64 what plain RoPE has at 32.
    const [scaled, plain] = all.get('rope-scaled').series;
    assertClose(scaled.y[FAR], plain.y[TRAIN], { abs: 2e-6, rel: 0 }, 'stretched at 64 = plain at 32');
    // ALiBi, the third of eight heads: −8 at distance 64.
    assert.equal(all.get('alibi').series[0].y[FAR], -8);
    // The learned table: cosine 1 with itself.
    assertClose(all.get('learned').series[0].y[0], 1, { abs: 1e-6, rel: 0 }, 'learned at 0');
  });
}
