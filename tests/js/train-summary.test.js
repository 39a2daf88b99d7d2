// What the train step's readouts and the sentences under its table decide from a set's numbers
// (web/train/summary.js over aggregate.js), in Node: on every task of the reference run
// (web/data/train-reference.json, made a set as the page makes it) against the rows recomputed
// independently in tests/expect/train.js (which runs fit, which families learned, means over the
// seeds that fit, "at or above 90 % in most seeds"); and on small sets built here, one per
// branch of the sentences: all learned, none, some; one seed; seeds that agree or disagree; no
// family judged past the training lengths. Also the aggregates no other Node test covers:
// lengthAt's nearest tested length, accuracyByLength, accuracyTable, meanLoss, widestSpread.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DATA, aggregate, highInMostSeeds, learnedFamilies, lengthAt as expectedLengthAt, referenceRows } from '../expect/train.js';
import { MULTIPLES, accuracyByLength, accuracyTable, lengthAt, meanLoss, widestSpread } from '../../web/train/aggregate.js';
import { referenceSet } from '../../web/train/reference.js';
import { HIGH, LOW, readoutsOf, summaryPlan } from '../../web/train/summary.js';

test('every task of the reference run: the readouts and the 2× sentence against the rows recomputed here', () => {
  const tasks = Object.keys(DATA.tasks);
  assert.ok(tasks.length >= 2);
  for (const task of tasks) {
    const set = referenceSet(DATA, task);
    const { config } = DATA.tasks[task];
    const rows = referenceRows(task);
    const twice = expectedLengthAt(config, 2);
    const learned = learnedFamilies(rows, config);
    const families = [...new Set(rows.map((r) => r.family))];
    const at = aggregate(rows, config);
    const r = readoutsOf(set, 'exact');
    assert.equal(r.task, task);
    assert.equal(r.runs, DATA.tasks[task].runs.length, `${task}: runs`);
    assert.equal(r.longest, Math.max(...config.trainLengths), `${task}: longest`);
    const high = highInMostSeeds(rows, config, twice);
    assert.equal(r.above, high.length, `${task}: families at or above 90 % at 2×`);
    // The best learned family at 2×: the highest mean (the first in the set's order on a tie).
    let top = null;
    for (const f of set.families) {
      if (!learned.includes(f)) continue;
      const a = at(f, twice);
      if (a && (top === null || a.mean > top.mean)) top = { family: f, mean: a.mean };
    }
    if (top) {
      assert.equal(r.best.family, top.family, `${task}: best`);
      assert.ok(Math.abs(r.best.mean - top.mean) < 1e-12, `${task}: best mean`);
    } else assert.equal(r.best, null);

    const plan = summaryPlan(set, 'exact');
    const unlearned = families.filter((f) => !learned.includes(f));
    const said = (key) => plan.main.find((s) => s.key === key);
    if (unlearned.length) assert.deepEqual(said('sumUnlearned').families, unlearned, `${task}: unlearned named`);
    else assert.equal(said('sumUnlearned'), undefined);
    if (learned.length) {
      assert.ok(plan.verdict && plan.verdict.key.startsWith('sumPast') && plan.verdict.multiple === 2, `${task}: a 2× sentence`);
      assert.equal(plan.verdict.length, twice);
      assert.deepEqual(plan.verdict.high, high, `${task}: at or above 90 % at 2×`);
      // Every learned family is in exactly one of the three lists.
      assert.deepEqual([...plan.verdict.high, ...plan.verdict.low, ...plan.verdict.mid].sort(), [...learned].sort());
    } else assert.equal(plan.verdict, null, `${task}: nothing past the training lengths when no family learned`);
    // The training-length sentence judges every family; it and the 4× one sit in the fold.
    const atTrain = plan.later.find((s) => s.multiple === 1);
    assert.deepEqual([...atTrain.high, ...atTrain.low, ...atTrain.mid].sort(), [...families].sort());
    assert.deepEqual(atTrain.high, highInMostSeeds(rows, config, Math.max(...config.trainLengths)), `${task}: at the training length`);
  }
});

/** A set of runs: rows [family, seed, exact at length 1, 2 (trained), 4 (2×), 8 (4×)]. */
function setOf(rows) {
  const families = [...new Set(rows.map((r) => r[0]))];
  return {
    id: 'x', source: 'yours', task: 'offset', config: { trainLengths: [1, 2], testLengths: [1, 2, 4, 8] }, families,
    seeds: [...new Set(rows.map((r) => r[1]))],
    runs: rows.map(([family, seed, a, b, c, d]) => ({
      family, seed, fit: a >= 0.95 && b >= 0.95,
      accuracy: [[1, a], [2, b], [4, c], [8, d]].map(([length, exact]) => ({ length, exact, tokens: exact / 2 + 0.5 })),
      loss: { steps: [0, 10, 20].slice(0, 2 + (seed % 2)), values: [2, 1 - seed / 10, 0.5].slice(0, 2 + (seed % 2)) },
    })),
  };
}
const keys = (plan) => [...plan.main, ...plan.later].map((s) => s.key);

test('the sentences, branch by branch', () => {
  // Every family learned in every seed; the seeds disagree most for learned at 2×.
  let plan = summaryPlan(setOf([
    ['rope', 0, 1, 1, 1, 0.5], ['rope', 1, 1, 1, 0.95, 0.4],
    ['learned', 0, 1, 1, 0, 0], ['learned', 1, 1, 1, 0.5, 0],
  ]), 'exact');
  assert.deepEqual(keys(plan), ['sumAllLearned', 'sumPast', 'sumSpread', 'sumAtTrain', 'sumPast']);
  assert.equal(plan.main[0].seeds, 2);
  assert.deepEqual([plan.verdict.high, plan.verdict.low, plan.verdict.mid], [['rope'], [], ['learned']]);
  assert.deepEqual(plan.main[2], { key: 'sumSpread', family: 'learned', length: 4, min: 0, max: 0.5, seeds: 2 });
  assert.deepEqual(plan.later.map((s) => s.multiple), [1, 4]);
  assert.deepEqual(plan.later[1].low, ['learned'], 'at 4×: learned at 0 in both seeds');
  assert.equal(plan.verdict.metric, 'exact');
  // The per-token metric reads the other numbers: rope at 0.975 and 0.9 per token is high, learned (0.5, 0.75) in between.
  plan = summaryPlan(setOf([['rope', 0, 1, 1, 0.95, 1], ['rope', 1, 1, 1, 0.8, 1], ['learned', 0, 1, 1, 0, 0], ['learned', 1, 1, 1, 0.5, 0]]), 'tokens');
  assert.deepEqual([plan.verdict.high, plan.verdict.mid, plan.verdict.metric], [['rope'], ['learned'], 'tokens']);

  // Some seeds learned, one family never did; the seeds agree exactly at 2×.
  plan = summaryPlan(setOf([
    ['rope', 0, 1, 1, 1, 1], ['rope', 1, 1, 0.5, 1, 1],
    ['none', 0, 0.5, 0.2, 0, 0], ['none', 1, 0.4, 0.1, 0, 0],
  ]), 'exact');
  // (rope's numbers are over its one seed that fit, and NoPE is left out: no family has two
  // counted seeds, so there is no spread to show, and the set has two seeds, so not "one seed".)
  assert.deepEqual(keys(plan), ['sumUnlearned', 'sumPartly', 'sumPast', 'sumNoLearnedPair', 'sumAtTrain', 'sumPast']);
  assert.deepEqual(plan.main[3], { key: 'sumNoLearnedPair', length: 4 });
  assert.deepEqual(plan.main[0].families, ['none']);
  assert.deepEqual(plan.main[1].partly, [{ family: 'rope', fit: 1, of: 2 }]);
  assert.deepEqual(plan.verdict.high, [], 'rope at 100 % in 1 of its 2 seeds: not most');
  assert.deepEqual(plan.verdict.mid, ['rope']);
  // Two seeds that fit and agree exactly at 2×: no spread.
  plan = summaryPlan(setOf([['rope', 0, 1, 1, 0.5, 0], ['rope', 1, 1, 1, 0.5, 0.2]]), 'exact');
  assert.deepEqual(plan.main.at(-1), { key: 'sumNoSpread', length: 4 });

  // One seed: the sentences say "this set's one seed", and there is no spread.
  plan = summaryPlan(setOf([['rope', 0, 1, 1, 1, 0], ['alibi', 0, 1, 1, 0.5, 0.2]]), 'exact');
  assert.deepEqual(keys(plan), ['sumAllLearned', 'sumPastOne', 'sumOneSeed', 'sumAtTrainOne', 'sumPastOne']);
  assert.deepEqual([plan.verdict.high, plan.verdict.mid], [['rope'], ['alibi']]);

  // No family learned: nothing past the training lengths, no verdict to speak.
  plan = summaryPlan(setOf([['rope', 0, 0.5, 0.5, 1, 1], ['none', 0, 0.1, 0.1, 1, 1]]), 'exact');
  assert.deepEqual(keys(plan), ['sumUnlearned', 'sumOneSeed', 'sumAtTrainOne']);
  assert.equal(plan.verdict, null);
  const r = readoutsOf(setOf([['rope', 0, 0.5, 0.5, 1, 1], ['none', 0, 0.1, 0.1, 1, 1]]), 'exact');
  assert.deepEqual([r.above, r.best, r.runs, r.longest], [0, null, 2, 2], '100 % at 2× from families that never learned counts for nothing');
  assert.deepEqual([HIGH, LOW], [0.9, 0.1]);
});

test('the aggregates: nearest tested length, accuracy by length and in the table, mean loss, widest spread', () => {
  const config = { trainLengths: [1, 2, 3], testLengths: [1, 2, 3, 4, 6, 7, 12] };
  // 1×: 3; 1.5×: 4.5 is as near 4 as 5 (not tested) … nearest tested is 4; 2×: 6; 4×: 12.
  assert.deepEqual(MULTIPLES.map((k) => lengthAt(config, k)), [3, 4, 6, 12]);
  // A tie goes to the lower length: 1.5 × 4 = 6 between 5 and 7.
  assert.equal(lengthAt({ trainLengths: [4], testLengths: [5, 7] }, 1.5), 5);
  MULTIPLES.forEach((k) => assert.equal(lengthAt(config, k), expectedLengthAt(config, k)));

  const set = setOf([
    ['rope', 0, 1, 1, 0.8, 0.1], ['rope', 1, 1, 1, 0.6, 0.3], ['rope', 2, 1, 0.5, 0, 0],  // seed 2 did not fit
    ['t5', 0, 1, 1, 0.2, 0], ['t5', 1, 1, 1, 0.9, 0.1],
  ]);
  const byLength = accuracyByLength(set, 'rope');
  assert.deepEqual(byLength.lengths, [1, 2, 4, 8]);
  assert.deepEqual(byLength.seeds, [0, 1], 'over the seeds that fit');
  assert.ok(Math.abs(byLength.mean[2] - 0.7) < 1e-12);
  assert.deepEqual([byLength.min[2], byLength.max[2]], [0.6, 0.8]);
  assert.ok(Math.abs(accuracyByLength(set, 'rope', 'tokens').mean[2] - 0.85) < 1e-12);
  const table = accuracyTable(set);
  assert.deepEqual(table.map((row) => row.family), ['rope', 't5']);
  // 1.5 × 2 = 3 lies as near 2 as 4: the lower.
  assert.deepEqual(table[0].cells.map((c) => [c.multiple, c.length]), [[1, 2], [1.5, 2], [2, 4], [4, 8]]);
  assert.ok(Math.abs(table[1].cells[2].mean - 0.55) < 1e-12 && table[1].cells[2].n === 2);
  // Mean loss over all of a family's runs, on the points every run has (seeds 0 and 2: 2 points, seed 1: 3).
  assert.deepEqual(meanLoss(set, 'rope'), { steps: [0, 10], mean: [2, (1 + 0.9 + 0.8) / 3] });
  // The widest min–max at 2× among learned families: t5's 0.2–0.9 beats rope's 0.6–0.8.
  const wide = widestSpread(set, 2);
  assert.deepEqual([wide.family, wide.min, wide.max, wide.n, wide.length], ['t5', 0.2, 0.9, 2, 4]);
  assert.equal(widestSpread(setOf([['rope', 0, 1, 1, 1, 1]]), 2), null, 'one seed: no spread');
});
