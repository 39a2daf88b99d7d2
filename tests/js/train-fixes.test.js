// The fixes and the fit rule in what the train step shows (web/train/fixes.js, aggregate.js): the
// fields each fix adds, checked against the trainer's own limit; a family's numbers over the runs
// that learned the task; verdicts that hold in most seeds; families that did not learn the task
// left out past the training lengths; which fix moved which family, seed by seed.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadTrainer } from '../../wasm/posenc.js';
import { accuracyAt, best, countedRuns, fitCount, fixEffects, verdicts } from '../../web/train/aggregate.js';
import { FIX_NAMES, fixFields, fixOf } from '../../web/train/fixes.js';
import { referenceSet } from '../../web/train/reference.js';

const trainer = await loadTrainer();

test('randomised positions draw from 4 × the longest test sequence\'s positions, which the trainer accepts and one fewer it refuses', () => {
  assert.deepEqual(FIX_NAMES, ['plain', 'random', 'ssmax']);
  for (const task of ['copy', 'reverse', 'repeat', 'retrieval', 'offset']) {
    for (const trainLengths of [[1, 2, 3, 4], [1, 2, 3, 4, 5, 6, 7, 8]]) {
      const symbols = task === 'retrieval' ? 64 : 8;
      const { randomPositions: M } = fixFields('random', { task, trainLengths, offset: 3 });
      assert.equal(M % 4, 0, `${task}: a multiple of 4`);
      // The trainer's own floor is the longest test sequence's positions: M / 4 must be exactly it.
      const base = { task, trainLengths, symbols };
      assert.doesNotThrow(() => trainer.config({ ...base, randomPositions: M / 4 }), `${task} ${trainLengths.length}`);
      assert.throws(() => trainer.config({ ...base, randomPositions: M / 4 - 1 }), /^RangeError: randomPositions must be 0 \(off\) or an integer in/);
      assert.equal(fixOf(trainer.config({ ...base, ...fixFields('random', { task, trainLengths }) })), 'random');
    }
  }
  assert.deepEqual(fixFields('ssmax', { task: 'repeat' }), { scalableSoftmax: true });
  assert.equal(fixOf(trainer.config({ scalableSoftmax: true })), 'ssmax');
  assert.equal(fixOf(trainer.config({})), 'plain');
  assert.throws(() => fixFields('yarn', { task: 'repeat' }), /^RangeError: fix must be one of plain, random, ssmax, got yarn$/);
});

/** A set of runs: rows [family, seed, exact at length 1, 2 (trained), 4 (2×)]. */
function setOf(rows, extra = {}) {
  const families = [...new Set(rows.map((r) => r[0]))];
  return {
    id: 'x', source: 'yours', task: 'offset', config: { trainLengths: [1, 2], testLengths: [1, 2, 3, 4] }, families,
    seeds: [...new Set(rows.map((r) => r[1]))], ...extra,
    runs: rows.map(([family, seed, a, b, c]) => {
      const accuracy = [[1, a], [2, b], [3, c], [4, c]].map(([length, exact]) => ({ length, exact, tokens: exact }));
      return { family, seed, accuracy, fit: a >= 0.95 && b >= 0.95 };
    }),
  };
}

test('a family\'s numbers are over the seeds that learned the task; one that never did is left out past the training lengths', () => {
  const s = setOf([
    ['rope', 0, 1, 1, 1], ['rope', 1, 1, 1, 0.92], ['rope', 2, 1, 0.5, 0],       // 2 of 3 learned, both carry on
    ['learned', 0, 1, 1, 0], ['learned', 1, 1, 1, 0.05], ['learned', 2, 1, 1, 1], // 3 of 3, 2 of 3 fail
    ['none', 0, 0.4, 0.2, 0.9], ['none', 1, 0.3, 0.1, 1], ['none', 2, 0.2, 0.1, 1], // never learned
  ]);
  assert.deepEqual(fitCount(s, 'rope'), { fit: 2, of: 3 });
  assert.equal(countedRuns(s, 'rope').length, 2);
  assert.equal(countedRuns(s, 'none').length, 3, 'a family that never learned is shown over all its runs');
  const a = accuracyAt(s, 'rope', 4);
  assert.deepEqual([a.mean, a.min, a.max, a.n], [(1 + 0.92) / 2, 0.92, 1, 2]);
  const past = verdicts(s, 2);
  assert.deepEqual(past.high, ['rope'], 'rope: 2 of 3 seeds at or above 90 %, most of them');
  assert.deepEqual(past.low, ['learned'], 'learned: 2 of 3 seeds below 10 %');
  assert.deepEqual(past.unlearned, ['none'], 'NoPE\'s 90–100 % at 2× does not count: it never learned the task');
  assert.equal(best(s, 2).family, 'rope');
  const atTrain = verdicts(s, 1);
  assert.deepEqual(atTrain.unlearned, [], 'at the training lengths every family is judged');
  assert.deepEqual(atTrain.low, []);
  assert.deepEqual(atTrain.high, ['rope', 'learned'], 'rope at 90 % or more at n = 2 in 2 of 3 seeds: most of them');
  assert.deepEqual(atTrain.mid, ['none'], 'NoPE at 10–20 % at n = 2');
  // One seed in three is not "most seeds".
  const split = setOf([['t5', 0, 1, 1, 1], ['t5', 1, 1, 1, 0.5], ['t5', 2, 1, 1, 0]]);
  assert.deepEqual(verdicts(split, 2).mid, ['t5']);
});

test('fixEffects: moved up or down by 20 points in most seeds, paired by seed; a fixed run that did not learn is counted apart', () => {
  const plain = setOf([
    ['rope', 0, 1, 1, 0], ['rope', 1, 1, 1, 0.1], ['rope', 2, 1, 1, 0],
    ['learned', 0, 1, 1, 0], ['learned', 1, 1, 1, 0], ['learned', 2, 1, 1, 0],
    ['t5', 0, 1, 1, 1], ['t5', 1, 1, 1, 1], ['t5', 2, 1, 1, 1],
    ['alibi', 0, 1, 1, 0.5], ['alibi', 1, 1, 1, 0.5], ['alibi', 2, 1, 1, 0.5],
  ]);
  const fixed = setOf([
    ['rope', 0, 1, 1, 0.8], ['rope', 1, 1, 1, 0.9], ['rope', 2, 1, 1, 0.05], // up in 2 of 3
    ['learned', 0, 0.5, 0.4, 0.6], ['learned', 1, 0.5, 0.4, 0.6], ['learned', 2, 1, 1, 0.6], // 2 of 3 did not learn
    ['t5', 0, 1, 1, 0.5], ['t5', 1, 1, 1, 0.7], ['t5', 2, 1, 1, 1], // down in 2 of 3
    ['alibi', 0, 1, 1, 0.6], ['alibi', 1, 1, 1, 0.45], ['alibi', 2, 1, 1, 0.5], // under 20 points
  ]);
  const e = fixEffects(plain, fixed, 2);
  assert.equal(e.length, 4);
  assert.deepEqual(e.up.map((x) => x.family), ['rope']);
  assert.deepEqual([e.up[0].seeds, e.up[0].of], [2, 3]);
  assert.ok(Math.abs(e.up[0].from - 0.05) < 1e-12 && Math.abs(e.up[0].to - 0.85) < 1e-12);
  assert.deepEqual(e.down.map((x) => x.family), ['t5']);
  assert.ok(Math.abs(e.down[0].to - 0.6) < 1e-12);
  assert.deepEqual(e.unfit, ['learned'], 'learned\'s 60 % does not count as a move: it did not learn the task');
});

test('the reference file\'s fixes become sets of the plain set\'s shape, with the fix\'s fields and each run\'s fit', () => {
  const examples = 10;
  const curve = { steps: [1], values: [1] };
  const data = {
    provenance: { jobs: 2, cpu: 'x', tasks: { offset: { runs: [{ command: 'c', commit: 'abc', date: new Date(0).toISOString(), fixes: ['plain', 'random'], wallSeconds: 5, runSeconds: 9 }], wallSeconds: 5, runSeconds: 9 } } },
    families: ['rope'], seeds: [0],
    tasks: {
      offset: {
        config: { task: 'offset', trainLengths: [1, 2], testLengths: [1, 2, 3], testExamples: examples },
        runs: [{ family: 'rope', seed: 0, status: 'done', steps: 1, seconds: 1, loss: curve, exact: curve,
          accuracy: [{ length: 1, exact: 10, tokens: 1 }, { length: 2, exact: 10, tokens: 1 }, { length: 3, exact: 2, tokens: 0.5 }] }],
        fixes: { random: { fields: { randomPositions: 24 }, runs: [{ family: 'rope', seed: 0, status: 'done', steps: 1, seconds: 1, exact: [10, 9, 7], tokens: [1, 0.95, 0.8] }] } },
      },
    },
  };
  const set = referenceSet(data, 'offset');
  assert.deepEqual(Object.keys(set.fixes), ['random']);
  const r = set.fixes.random;
  assert.equal(r.config.randomPositions, 24);
  assert.deepEqual(r.runs[0].accuracy, [{ length: 1, exact: 1, tokens: 1 }, { length: 2, exact: 0.9, tokens: 0.95 }, { length: 3, exact: 0.7, tokens: 0.8 }]);
  assert.equal(r.runs[0].fit, false, '90 % at length 2');
  assert.equal(set.provenance.command, 'c');
  assert.deepEqual(set.provenance.invocations, [{ command: 'c', commit: 'abc', date: new Date(0).toISOString(), fixes: ['plain', 'random'] }]);
  // A fix trained later by another invocation, listed first in the file: the plain one leads.
  const later = structuredClone(data);
  later.provenance.tasks.offset.runs.unshift({ command: 'd', commit: 'def', date: new Date(1).toISOString(), fixes: ['ssmax'], wallSeconds: 1, runSeconds: 1 });
  assert.deepEqual(referenceSet(later, 'offset').provenance.invocations.map((c) => c.command), ['c', 'd']);
  assert.equal(set.provenance.wallSeconds, 5);
});
