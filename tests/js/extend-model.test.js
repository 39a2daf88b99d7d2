// web/steps/extend/model.js: the table's two scores per method (computed at once) are the whole
// curve's values at Δ = L and Δ = L′ (computed when first drawn), to the last bit, for every
// model, factor and reading length.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadPosenc } from '../../wasm/posenc.js';
import { extendModels } from '../../web/steps/extend/model.js';
import { FACTORS, METHODS, MODELS, READS, SAMPLES } from '../../web/steps/extend/setup.js';

test('every setting\'s table scores equal its curves at L and at L′', async () => {
  const computed = extendModels(await loadPosenc());
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
          assert.equal(m.random.length, SAMPLES + 1, where);
        }
      }
    }
  }
});
