// The committed reference run (web/data/train-reference.json, written by `npm run experiment`):
// it holds every task × family × seed of the protocol the trainer has today, and rerunning two
// of its runs with the native trainer gives exactly the committed numbers (curves, accuracy,
// the trained T5 biases and the attention maps). The native trainer is deterministic (same
// config, same bits: tests/core/train_test.cpp), so any difference means the file is stale.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { loadTrainer } from '../../wasm/posenc.js';
import { DEFAULT_TASK } from '../../web/train/reference.js';
import { FAMILIES, REFERENCE, TASKS, TRAINER, round4, summarise, trainerArgs } from '../../web/tools/experiment.mjs';

const data = JSON.parse(readFileSync(REFERENCE, 'utf8'));
const trainer = await loadTrainer();

function rerun(task, family, seed, extra = []) {
  return JSON.parse(execFileSync(TRAINER, [...trainerArgs(task, family, seed), ...extra], { maxBuffer: 1 << 28 }));
}

test('the reference run covers every task, family and seed under the trainer\'s current protocol', () => {
  assert.deepEqual(Object.keys(data.tasks).sort(), Object.keys(TASKS).sort());
  assert.deepEqual(data.families, FAMILIES);
  assert.deepEqual(data.seeds, [0, 1, 2]);
  for (const p of ['command', 'commit', 'date', 'cpu', 'wallSeconds', 'runSeconds']) assert.ok(data.provenance[p], p);
  assert.match(data.provenance.command, /^npm run experiment$/);
  for (const [task, entry] of Object.entries(data.tasks)) {
    // The protocol of today's trainer: the config it resolves for this task.
    const config = trainer.config({ task, family: 'none', ...TASKS[task] });
    assert.deepEqual({ ...entry.config, family: undefined, seed: undefined }, { ...config, family: undefined, seed: undefined }, task);
    assert.equal(entry.runs.length, FAMILIES.length * 3);
    for (const family of FAMILIES) {
      for (const seed of data.seeds) {
        const run = entry.runs.find((r) => r.family === family && r.seed === seed);
        assert.ok(run, `${task} ${family} seed ${seed}`);
        assert.equal(run.status, 'done');
        assert.equal(run.steps, entry.config.steps);
        assert.deepEqual(run.accuracy.map((a) => a.length), entry.config.testLengths);
      }
      const trained = entry.trained[family];
      assert.equal(trained.inspections.length, 2);
      assert.equal(Boolean(trained.table), family === 'learned');
      assert.equal(Boolean(trained.bias), family === 't5');
    }
  }
});

test('the page opens on the trainer\'s default task', () => {
  assert.equal(DEFAULT_TASK, trainer.preset('tiny').task);
});

test('rerunning repeat/t5 seed 0 gives the committed curves, accuracy, trained biases and attention maps', () => {
  const entry = data.tasks.repeat;
  const out = rerun('repeat', 't5', 0, ['--parameters', '--inspect', 'max:0', '--inspect', '2max:0']);
  assert.deepEqual(summarise(out), { ...entry.runs.find((r) => r.family === 't5' && r.seed === 0), seconds: round4(out.seconds) });
  const t = out.tensors.find((x) => x.name === 'position.bias');
  assert.deepEqual(entry.trained.t5.bias.values, out.parameters.slice(t.offset, t.offset + t.rows * t.cols).map(round4));
  out.inspections.forEach((x, k) => {
    const committed = entry.trained.t5.inspections[k];
    assert.deepEqual(committed.tokens, x.tokens);
    assert.deepEqual(committed.predicted, x.predicted);
    const bytes = Buffer.from(committed.attention, 'base64');
    assert.equal(bytes.length, x.attention.length);
    x.attention.forEach((p, i) => assert.equal(bytes[i], Math.round(p * 255)));
  });
});

test('rerunning retrieval/rope seed 2 gives the committed curves and accuracy', () => {
  const out = rerun('retrieval', 'rope', 2);
  const committed = data.tasks.retrieval.runs.find((r) => r.family === 'rope' && r.seed === 2);
  assert.deepEqual(summarise(out), { ...committed, seconds: round4(out.seconds) });
});
