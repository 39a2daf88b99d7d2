// The fit rule (web/train/fit.js): a run fits when its exact match is at least 95 % at every
// training length. The reader's runs carry it (records.js), an imported file's runs get it
// worked out from their accuracy whatever the file says (exchange.js), and the reference run's
// from its counts (reference.js).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { exportSet, importSet } from '../../web/train/exchange.js';
import { FIT_EXACT, fitOf } from '../../web/train/fit.js';
import { recordOf } from '../../web/train/records.js';
import { referenceSet } from '../../web/train/reference.js';

const at = (pairs) => pairs.map(([length, exact]) => ({ length, exact, tokens: exact }));

test('fitOf: at least 95 % exact at every training length, whatever the longer lengths did', () => {
  assert.equal(FIT_EXACT, 0.95);
  assert.equal(fitOf(at([[1, 1], [2, 0.95], [3, 0.2]]), [1, 2]), true);
  assert.equal(fitOf(at([[1, 1], [2, 0.9499], [3, 1]]), [1, 2]), false);
  assert.equal(fitOf(at([[1, 1], [3, 1]]), [1, 2]), false, 'a training length never scored is not fit');
  assert.equal(fitOf(at([[1, 1]]), []), false, 'no training length: nothing learned');
  assert.equal(fitOf(at([[4, 0.96], [8, 0.97]]), [4, 8]), true);
});

function result(exacts) {
  const lengths = exacts.map((_, i) => i + 1);
  return {
    config: { family: 'rope', seed: 3, task: 'offset', trainLengths: [1, 2], testLengths: lengths, symbols: 8, dModel: 16,
      layers: 1, heads: 2, mlp: 32, steps: 4, batch: 8, testExamples: 8 },
    status: 'done', divergence: '', steps: 4, seconds: 0.1,
    log: { loss: Float32Array.of(3, 2, 1, 0.5), exact: Float32Array.of(0, 0, 0.5, 1) },
    accuracy: exacts.map((exact, i) => ({ length: i + 1, examples: 8, exact, tokens: exact, loss: 0.1 })),
    parameters: { tensors: [{ name: 'head', rows: 1, cols: 2, offset: 0, decay: false }], values: Float32Array.of(1, 2) },
  };
}

test('a reader\'s run records its fit, and an imported file\'s fit is worked out again from its accuracy', () => {
  const fit = recordOf(result([1, 0.96, 0, 0]));
  const unfit = recordOf(result([1, 0.5, 1, 1]));
  assert.equal(fit.fit, true);
  assert.equal(unfit.fit, false);
  const { family, seed, ...config } = result([1]).config;
  const set = { id: 'x', created: new Date(0).toISOString(), task: 'offset', size: null,
    config: { ...config, testLengths: [1, 2, 3, 4] }, seeds: [3], families: ['rope'], runs: [{ ...unfit, fit: true }] };
  const back = importSet(exportSet(set));
  assert.equal(back.runs[0].fit, false, 'a file that claims fit for an unfit run is not believed');
});

test('the reference run\'s sets carry each run\'s fit, from its exact-match counts', () => {
  const examples = 10;
  const data = {
    provenance: { date: new Date(0).toISOString() },
    families: ['none', 'rope'], seeds: [0],
    tasks: {
      offset: {
        config: { task: 'offset', trainLengths: [1, 2], testLengths: [1, 2, 3], testExamples: examples },
        runs: [
          { family: 'none', seed: 0, status: 'done', steps: 1, seconds: 1, loss: { steps: [1], values: [1] }, exact: { steps: [1], values: [0] },
            accuracy: [{ length: 1, exact: 10, tokens: 1 }, { length: 2, exact: 9, tokens: 0.99 }, { length: 3, exact: 0, tokens: 0.5 }] },
          { family: 'rope', seed: 0, status: 'done', steps: 1, seconds: 1, loss: { steps: [1], values: [1] }, exact: { steps: [1], values: [1] },
            accuracy: [{ length: 1, exact: 10, tokens: 1 }, { length: 2, exact: 10, tokens: 1 }, { length: 3, exact: 0, tokens: 0.5 }] },
        ],
      },
    },
  };
  const set = referenceSet(data, 'offset');
  assert.deepEqual(set.runs.map((r) => r.fit), [false, true]);
});
