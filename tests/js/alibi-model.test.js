// web/steps/alibi/model.js on both builds: every readout the step shows, against the formulas
// computed here in float64: slopes 2^(−8h/H) for powers of two (the reference code's order from
// tests/js/reference.js otherwise), bias −m·(i − j), weights e^(−m·d) / Σ e^(−m·d') (every
// content score equal), the share of keys at distance ≥ 1024, the steepest and shallowest heads
// and the corner; and the step's claim that the bias depends on the distance only.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HEAD_COUNTS, LEN_STEP, MAX_LEN, TRAIN, WINDOW, alibiModel } from '../../web/steps/alibi/model.js';
import { alibiSlopes } from './reference.js';
import { TOL, assertAllClose, assertClose, loadBoth, moduleName } from './helpers.js';

const cores = await loadBoth();

/** Weights of the last query by distance d = 0..len − 1, in float64. */
function weights(m, len) {
  const raw = Array.from({ length: len }, (_, d) => Math.exp(-m * d));
  const z = raw.reduce((a, v) => a + v, 0);
  return raw.map((v) => v / z);
}

const LENS = [LEN_STEP, 64, 640, TRAIN - LEN_STEP, TRAIN, TRAIN + LEN_STEP, 1536, MAX_LEN];

for (const pe of cores) {
  const name = moduleName(pe);

  test(`${name}: slopes 2^(−8h/H) for 8 and 32 heads, the reference order for 6 and 112`, () => {
    const model = alibiModel(pe);
    for (const heads of HEAD_COUNTS) {
      const got = model.slopes(heads);
      assert.equal(got.length, heads);
      if (Number.isInteger(Math.log2(heads))) {
        assertAllClose(got, Array.from({ length: heads }, (_, h) => 2 ** ((-8 * (h + 1)) / heads)), TOL.alibi, `${heads} heads`);
      }
      assertAllClose(got, alibiSlopes(heads), TOL.alibi, `${heads} heads, reference order`);
    }
    // 6 heads: the powers of two of 4 heads, then every other one of 8 heads.
    assertAllClose(model.slopes(6), [1 / 4, 1 / 16, 1 / 64, 1 / 256, 1 / 2, 1 / 8], TOL.alibi, '6 heads');
  });

  test(`${name}: slope, positions, bias, weight and the share past ${TRAIN} for every head count, edge heads, lengths and distances`, () => {
    const model = alibiModel(pe);
    for (const heads of HEAD_COUNTS) {
      const ms = alibiSlopes(heads);
      for (const head of new Set([1, 2, Math.ceil(heads / 2), heads - 1, heads])) {
        const m = ms[head - 1];
        for (const len of LENS) {
          const p = weights(m, len);
          const far = p.slice(TRAIN).reduce((a, v) => a + v, 0);
          for (const dist of new Set([0, 1, 3, Math.floor(len / 2), TRAIN - 1, TRAIN, len - 2, len - 1].filter((d) => d >= 0 && d < len))) {
            const where = `${heads} heads, head ${head}, len ${len}, dist ${dist}`;
            const s = model.state({ heads, head, len, dist });
            assertClose(s.slope, m, TOL.alibi, `${where}: slope`);
            assert.equal(s.i, len - 1, `${where}: i`);
            assert.equal(s.j, len - 1 - dist, `${where}: j`);
            // The bias is a float32 rounding of −m·d; at d = 0 it reads +0, not −0.
            assertClose(s.b, -m * dist, TOL.f32Round, `${where}: bias`);
            assert.ok(!Object.is(s.b, -0), `${where}: bias −0`);
            assertClose(s.p, p[dist], TOL.attention, `${where}: weight`);
            assertClose(s.far, far, { abs: 1e-6, rel: 1e-5 }, `${where}: share at distance ≥ ${TRAIN}`);
          }
          if (len <= TRAIN) assert.equal(model.state({ heads, head, len, dist: 0 }).far, 0, `${len}: nothing past training`);
        }
      }
    }
  });

  test(`${name}: the whole row, the steepest and shallowest heads, the corner`, () => {
    const model = alibiModel(pe);
    for (const heads of HEAD_COUNTS) {
      const ms = alibiSlopes(heads);
      const s = model.state({ heads, head: 1, len: 640, dist: 0 });
      assert.equal(s.steep, ms.indexOf(Math.max(...ms)) + 1, `${heads}: steepest`);
      assert.equal(s.shallow, ms.indexOf(Math.min(...ms)) + 1, `${heads}: shallowest`);
      const m = ms[0];
      assertAllClose(s.bias, Array.from({ length: 640 }, (_, jj) => -m * (639 - jj)), TOL.f32Round, `${heads}: bias row`);
      assertAllClose(s.prob, weights(m, 640).reverse(), TOL.attention, `${heads}: weight row`);
    }
    for (const len of [LEN_STEP, 1536, MAX_LEN]) {
      const m = alibiSlopes(8)[4];
      const { first, values } = model.corner(len, m);
      assert.equal(first, len - WINDOW);
      const want = [];
      for (let r = 0; r < WINDOW; r++) for (let c = 0; c < WINDOW; c++) want.push(c > r ? -Infinity : -m * (r - c));
      assertAllClose(values, want, TOL.f32Round, `corner at ${len}`);
    }
  });

  test(`${name}: the bias depends on the distance only, not on the length (the step's claim)`, () => {
    const model = alibiModel(pe);
    for (const heads of [6, 112]) {
      for (const head of [1, heads]) {
        for (const dist of [0, 5, 31, 700]) {
          const at = LENS.filter((len) => len > dist).map((len) => model.state({ heads, head, len, dist }).b);
          assert.ok(at.every((b) => b === at[0]), `${heads}/${head}/${dist}: ${at}`);
        }
      }
    }
    // The shallowest of 8 heads at 2048 still gives the keys past 1024 about e^−4 ≈ 2 %.
    const { far } = model.state({ heads: 8, head: 8, len: MAX_LEN, dist: 0 });
    assert.ok(far > 0.01 && far < 0.03, `far ${far}`);
  });
}
