// web/steps/learned/model.js against this suite's own transcription of the core's stand-in
// generator (tests/js/reference.js learnedRow: SplitMix64, Box-Muller, std 0.02) and the formulas
// in float64 (tests/expect/learned.js), in both builds: each preset's drawn map (its first 64
// columns, zeros past the table), the row at every position of the small table and at sampled
// positions of BERT's and GPT-2's incl. both sides of each edge, the core's refusal past it, the
// sinusoidal and RoPE rows at the same position, the size and parameter count; and the step's
// claim on the model's numbers: a learned table has a row up to its last position and none
// after, while both formulas give a row at every position the slider reaches.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BAR_DIMS, MAP_DIMS, PRESETS, PRESET_IDS, learnedModel, reach } from '../../web/steps/learned/model.js';
import { TABLES, rope, sinusoid } from '../expect/learned.js';
import { learnedRow } from './reference.js';
import { TOL, assertAllClose, loadBoth, moduleName } from './helpers.js';

const cores = await loadBoth();
// The core draws in double and rounds to float32, as learnedRow does: at most a float32 rounding
// apart (a last-bit difference of the two libms' cos/log may move a rounding).
const ROW = { abs: 1e-12, rel: 2 ** -23 };
// The positions a test reads per preset: the small table's all; the large ones' edges and a sample.
const positionsOf = (preset) => {
  const T = PRESETS[preset].positions;
  if (preset === 'small') return Array.from({ length: reach(preset) }, (_, p) => p);
  return [0, 1, 300, T - 2, T - 1, T, T + 1, reach(preset) - 1];
};

test('the presets are the tables the expected values describe; the slider reaches 1.5 × each', () => {
  assert.deepEqual(PRESET_IDS, Object.keys(TABLES));
  for (const p of PRESET_IDS) {
    assert.deepEqual(PRESETS[p], { positions: TABLES[p].T, d: TABLES[p].d });
    assert.equal(reach(p), 1.5 * TABLES[p].T);
  }
});

for (const core of cores) {
  const model = learnedModel(core);
  test(`${moduleName(core)}: each preset's map holds the first 64 columns of its rows, then zeros`, () => {
    for (const preset of PRESET_IDS) {
      const { T, d } = TABLES[preset];
      const map = model.map(preset);
      const cols = Math.min(d, MAP_DIMS);
      assert.equal(map.cols, cols);
      assert.equal(map.rows, 1.5 * T);
      assert.equal(map.values.length, 1.5 * T * cols);
      assert.equal(model.map(preset), map, `${preset}: computed once`);
      const step = preset === 'small' ? 1 : 37;
      for (let p = 0; p < T; p += step) {
        assertAllClose(map.values.subarray(p * cols, (p + 1) * cols), learnedRow(p, d).subarray(0, cols), ROW, `${preset} row ${p}`);
      }
      assertAllClose(map.values.subarray((T - 1) * cols, T * cols), learnedRow(T - 1, d).subarray(0, cols), ROW, `${preset} last row`);
      assert.ok(map.values.subarray(T * cols).every((v) => v === 0), `${preset}: no values past the table`);
    }
  });

  test(`${moduleName(core)}: every position read: size, parameters, the row or the core's refusal, both formulas' rows`, () => {
    for (const preset of PRESET_IDS) {
      const { T, d } = TABLES[preset];
      for (const pos of positionsOf(preset)) {
        const where = `${preset} pos ${pos}`;
        const r = model.readout({ preset, pos });
        assert.equal(r.T, T);
        assert.equal(r.d, d);
        assert.equal(r.dims, Math.min(d, BAR_DIMS));
        assert.equal(r.params, T * d);
        if (pos < T) {
          assert.equal(r.error, null, where);
          assertAllClose(r.row, learnedRow(pos, d), ROW, `${where}: row`);
        } else {
          assert.equal(r.row, null, where);
          assert.ok(r.error instanceof RangeError, `${where}: a RangeError`);
          // The message names the field, the position and the rows there are.
          assert.match(r.error.message, new RegExp(`positions\\[0\\] = ${pos} .*rows 0\\.\\.${T - 1}`), where);
        }
        const wantSin = Array.from({ length: d }, (_, c) => sinusoid(pos, c, d));
        const wantRope = Array.from({ length: d }, (_, c) => rope(pos, c, d));
        assertAllClose(r.sinRow, wantSin, TOL.f32Far, `${where}: sinusoidal row`);
        assertAllClose(r.ropeRow, wantRope, TOL.f32Far, `${where}: RoPE row`);
      }
    }
  });

  test(`${moduleName(core)}: the core's row at a position is the map's row, and rowAt refuses exactly past the end`, () => {
    for (const preset of PRESET_IDS) {
      const T = PRESETS[preset].positions;
      const map = model.map(preset);
      for (const pos of [0, T - 1]) {
        const { row } = model.rowAt(PRESETS[preset], pos);
        assert.deepEqual(row.subarray(0, map.cols), map.values.subarray(pos * map.cols, (pos + 1) * map.cols), `${preset} row ${pos}`);
      }
      assert.ok(model.rowAt(PRESETS[preset], T).error instanceof RangeError, `${preset}: row ${T}`);
      assert.ok(model.rowAt(PRESETS[preset], reach(preset) - 1).error instanceof RangeError);
    }
  });
}
