// The committed reference run (web/data/train-reference.json, written by `npm run experiment`):
// it holds, for each task it reached, every fix × family × seed of the protocol the tool has
// today, and says why any other task is missing (dropped, or not reached); every run's fit
// flag is what its accuracy says (web/train/fit.js); every plain family fits every task in every
// seed, except the exceptions the tool declares (EXCEPTIONS: a family no affordable protocol
// made fit, recorded in the experiment log), each of which really did not fit; and rerunning
// runs of it with the native trainer gives exactly the committed numbers (curves, accuracy, the
// trained FIRE tensors and the attention maps). The native trainer is deterministic (same config,
// same bits: tests/core/train_test.cpp), so any difference means the file is stale.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { loadTrainer } from '../../wasm/posenc.js';
import { fitOf } from '../../web/train/fit.js';
import { DEFAULT_TASK, trainedTask } from '../../web/train/reference.js';
import {
  DROPPED, EXCEPTIONS, FAMILIES, FIX_NAMES, MALLOC_ENV, REFERENCE, SEEDS, TASKS, TRAINER, fixFields, round4, summarise,
  summariseFixed, trainedPieces, trainerArgs,
} from '../../web/tools/experiment.mjs';

const data = JSON.parse(readFileSync(REFERENCE, 'utf8'));
const trainer = await loadTrainer();

function rerun(task, family, seed, fix, extra = []) {
  return JSON.parse(execFileSync(TRAINER, [...trainerArgs(task, family, seed, fix), ...extra],
    { maxBuffer: 1 << 28, env: { ...process.env, ...MALLOC_ENV } }));
}

test('the reference run holds each task it reached under the tool\'s protocol, at least 5 seeds, and says why any other is missing', () => {
  const tasks = Object.keys(data.tasks);
  assert.deepEqual(tasks, Object.keys(TASKS).filter((t) => tasks.includes(t)), 'tasks in the tool\'s order');
  assert.ok(tasks.includes('offset'), 'the offset task, the first the run trains, is there');
  // Every task the tool or the trainer offers is in the file or listed as missing, with why.
  const missing = data.provenance.missing;
  for (const t of DROPPED) assert.equal(missing[t], 'dropped', t);
  for (const t of Object.keys(TASKS)) assert.equal(missing[t], tasks.includes(t) ? undefined : 'not reached', t);
  assert.deepEqual(data.families, FAMILIES);
  assert.deepEqual(data.fixes, FIX_NAMES);
  assert.deepEqual(data.seeds, SEEDS);
  assert.ok(data.seeds.length >= 5);
  for (const p of ['cpu', 'jobs', 'wallSeconds', 'runSeconds']) assert.ok(data.provenance[p], p);
  for (const [task, entry] of Object.entries(data.tasks)) {
    assert.deepEqual(entry.protocol, TASKS[task], task);
    // The plain protocol of today's trainer: the config it resolves for this task.
    const config = trainer.config({ task, family: 'none', ...TASKS[task] });
    assert.deepEqual({ ...entry.config, family: undefined, seed: undefined }, { ...config, family: undefined, seed: undefined }, task);
    // Each invocation that trained some of the task's fixes, with its command, commit and wall time.
    const runs = data.provenance.tasks[task].runs;
    assert.deepEqual(runs.flatMap((r) => r.fixes).sort(), ['plain', ...Object.keys(entry.fixes)].sort(), task);
    for (const r of runs) {
      assert.match(r.command, /^npm run experiment -- --tasks [a-z]+ --fixes [a-z,]+$/);
      assert.match(r.commit, /^[0-9a-f]{40}$/);
      assert.ok(r.wallSeconds > 0 && r.runSeconds > 0);
    }
    // The total as the tool stores it: the invocations' sum, to 4 significant digits.
    assert.equal(data.provenance.tasks[task].wallSeconds, round4(runs.reduce((a, r) => a + r.wallSeconds, 0)), task);
    assert.deepEqual(Object.keys(entry.fixes), FIX_NAMES.filter((f) => entry.fixes[f]), 'fixes in order');
    for (const [fix, fixed] of Object.entries(entry.fixes)) {
      assert.deepEqual(fixed.fields, fixFields(task, fix));
      // A fix changes only its own fields: the resolved config is the plain one with them.
      const withFix = trainer.config({ task, family: 'none', ...TASKS[task], ...fixed.fields });
      assert.deepEqual({ ...withFix, family: undefined, seed: undefined }, { ...config, ...fixed.fields, family: undefined, seed: undefined });
    }
    for (const family of FAMILIES) {
      for (const seed of data.seeds) {
        const run = entry.runs.find((r) => r.family === family && r.seed === seed);
        assert.ok(run, `${task} ${family} seed ${seed}`);
        assert.equal(run.status, 'done');
        assert.equal(run.steps, entry.config.steps);
        assert.deepEqual(run.accuracy.map((a) => a.length), entry.config.testLengths);
        for (const fix of Object.keys(entry.fixes)) {
          const f = entry.fixes[fix].runs.find((r) => r.family === family && r.seed === seed);
          assert.ok(f, `${task} ${fix} ${family} seed ${seed}`);
          assert.equal(f.status, 'done');
          assert.equal(f.exact.length, entry.config.testLengths.length);
        }
      }
      const trained = entry.trained[family];
      assert.equal(trained.inspections.length, 2);
      assert.equal(Boolean(trained.table), family === 'learned');
      assert.equal(Boolean(trained.bias), family === 't5');
      assert.equal(Boolean(trained.fire), family === 'fire');
    }
  }
});

test('every run\'s fit flag is its accuracy\'s, and every plain family fits every task in every seed but the declared exceptions', () => {
  for (const [task, entry] of Object.entries(data.tasks)) {
    const { trainLengths, testLengths, testExamples } = entry.config;
    const share = (exact) => exact.map((count, i) => ({ length: testLengths[i], exact: count / testExamples }));
    const unfit = new Set();
    for (const r of entry.runs) {
      const fit = fitOf(share(r.accuracy.map((a) => a.exact)), trainLengths);
      assert.equal(r.fit, fit, `${task} ${r.family} seed ${r.seed}`);
      if (!fit) unfit.add(r.family);
    }
    for (const [fix, fixed] of Object.entries(entry.fixes)) {
      for (const r of fixed.runs) assert.equal(r.fit, fitOf(share(r.exact), trainLengths), `${task} ${fix} ${r.family} seed ${r.seed}`);
    }
    // Each exception is a family that really did not fit in some seed; no other family failed.
    assert.deepEqual([...unfit].sort(), [...(EXCEPTIONS[task] ?? [])].sort(), `${task}: the plain families that did not fit`);
  }
});

test('the trained panels of the learned and relative-bias steps read the trainer\'s default task, or the first the file holds', () => {
  assert.equal(DEFAULT_TASK, trainer.preset('tiny').task);
  assert.equal(trainedTask(data), data.tasks[DEFAULT_TASK] ? DEFAULT_TASK : Object.keys(data.tasks)[0]);
  assert.ok(data.tasks[trainedTask(data)].trained.learned.table);
});

test('rerunning offset/fire seed 0 gives the committed curves, accuracy, FIRE tensors and attention maps', () => {
  const entry = data.tasks.offset;
  const out = rerun('offset', 'fire', 0, 'plain', ['--parameters', '--inspect', 'max:0', '--inspect', '2max:0']);
  assert.deepEqual(summarise(out), { ...entry.runs.find((r) => r.family === 'fire' && r.seed === 0), seconds: round4(out.seconds) });
  assert.deepEqual(trainedPieces(out), entry.trained.fire);
});

test('rerunning the first run with a fix in the file (learned, seed 1) gives its committed accuracy', () => {
  const [task, fix] = Object.entries(data.tasks).flatMap(([t, e]) => Object.keys(e.fixes).map((f) => [t, f]))[0] ?? [];
  assert.ok(task, 'the reference run has runs with a fix');
  const out = rerun(task, 'learned', 1, fix);
  const committed = data.tasks[task].fixes[fix].runs.find((r) => r.family === 'learned' && r.seed === 1);
  assert.deepEqual(summariseFixed(out), { ...committed, seconds: round4(out.seconds) }, `${task} learned ${fix}`);
});
