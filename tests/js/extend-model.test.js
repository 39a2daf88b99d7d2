// web/steps/extend/model.js: for every model, factor, reading length and method, the table's two
// scores (computed up front) are the curves' values at Δ = L and Δ = L′ (computed on first
// read), to the last bit, in both builds; and the curves are computed once, when first read or prepared.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extendModels } from '../../web/steps/extend/model.js';
import { FACTORS, METHODS, MODELS, READS, SAMPLES } from '../../web/steps/extend/setup.js';
import { loadBoth, moduleName } from './helpers.js';

const cores = await loadBoth();

/** The core, with the rows of every query ropeApply is given counted. */
function counting(core) {
  const rows = [];
  const ropeApply = (x, positions, ...rest) => {
    rows.push(positions.length);
    return core.ropeApply(x, positions, ...rest);
  };
  return { core: { ...core, ropeApply }, rows };
}

for (const pe of cores) {
  test(`${moduleName(pe)}: every setting's table scores equal its curves at L and at L′`, () => {
    const computed = extendModels(pe);
    for (const model of Object.keys(MODELS)) {
      for (const factor of FACTORS) {
        for (const read of READS) {
          const c = computed(model, factor, read);
          assert.equal(c.distances[SAMPLES / read], c.L);
          assert.equal(c.distances[SAMPLES], c.readLength);
          for (const method of METHODS) {
            const m = c.methods[method];
            const where = `${model} ×${factor} read ${read} ${method}`;
            assert.equal(m.scoreAtL, m.scores[SAMPLES / read], `${where}: at L`);
            assert.equal(m.scoreAtEnd, m.scores[SAMPLES], `${where}: at L′`);
          }
        }
      }
    }
  });

  test(`${moduleName(pe)}: a setting rotates 2 positions per method up front, and a method's 129 once, when its curves are first read or prepared`, () => {
    const { core, rows } = counting(pe);
    const computed = extendModels(core);
    const c = computed('llama3', 8, 16);
    // Per method: the query at L and L′, and the key at 0 (two rows at position 0).
    assert.deepEqual(rows, METHODS.flatMap(() => [2, 2]));
    assert.equal(c.methods.yarn.curvesReady, false);
    rows.length = 0;
    const scores = c.methods.yarn.scores;
    assert.deepEqual(rows, [SAMPLES + 1, 2]);
    assert.equal(c.methods.yarn.curvesReady, true);
    assert.equal(c.methods.yarn.random.length, SAMPLES + 1);
    assert.equal(c.methods.yarn.scores, scores, 'read again, the same array');
    assert.deepEqual(rows, [SAMPLES + 1, 2], 'no second computation');
    assert.equal(c.methods.ntk.curvesReady, false, 'the other methods still wait');
    // prepareCurves() (extend's idle fill) computes the curves once however often it is called;
    // a read afterwards computes nothing.
    rows.length = 0;
    c.methods.ntk.prepareCurves();
    c.methods.ntk.prepareCurves();
    assert.deepEqual(rows, [SAMPLES + 1, 2], 'prepared twice, computed once');
    assert.equal(c.methods.ntk.curvesReady, true);
    assert.equal(c.methods.ntk.scores.length, SAMPLES + 1);
    assert.deepEqual(rows, [SAMPLES + 1, 2], 'read after preparing: no second computation');
  });
}
