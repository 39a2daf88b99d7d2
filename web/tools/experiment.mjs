// `npm run experiment`: the reference run the train step shows before anyone presses Train.
//
// Trains every position family with the native trainer (build/native/posenc-train) on every
// task, for each seed, under one protocol (the same model, steps, learning rate and data for
// every family of a task), and writes web/data/train-reference.json with its provenance.
// Runs as many trainings at once as the machine has cores.
//
//   node web/tools/experiment.mjs [--tasks repeat,copy] [--seeds 0,1,2] [--steps N] [--out FILE]
//
// What the file holds, per task: the config, and per family and seed the loss and batch
// exact-match curves (averaged into at most CURVE_POINTS points, 4 significant digits), the
// accuracy at every test length (exact match and per token, as counts over the test set), and
// for seed 0 the trained learned table or T5 biases and the attention maps of one test example
// at the longest training length and at twice it (probabilities as bytes, 0..255, base64).
// tests/js/train-reference.test.js reruns runs of it and must get the same numbers.
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { TRAIN_FAMILIES } from '../../wasm/train.js';
import { windowedCurve } from '../train/curve.js';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url);
const at = (p) => fileURLToPath(new URL(p, root));
export const TRAINER = at('build/native/posenc-train');
export const REFERENCE = at('web/data/train-reference.json');

export const FAMILIES = TRAIN_FAMILIES;  // every family of the registry
export const SEEDS = [0, 1, 2];
// One protocol for every family (no family is tuned on its own): the trainer's defaults, the
// 'tiny' preset (core/train/config.hpp). What differs between tasks: retrieval draws distinct
// keys, so it needs as many keys as its longest test length.
export const TASKS = { repeat: {}, copy: {}, reverse: {}, retrieval: { symbols: 32 } };
export const CURVE_POINTS = 200;

/** The trainer's arguments for one run. */
export function trainerArgs(task, family, seed, overrides = {}) {
  const fields = { task, family, seed, ...TASKS[task], ...overrides };
  return Object.entries(fields).flatMap(([k, v]) => [`--${k}`, String(v)]);
}

/** 4 significant digits: what the file stores of a real number. */
export const round4 = (v) => (v === null || v === undefined ? null : Number(v.toPrecision(4)));

/** The page's windows (web/train/curve.js), each mean rounded as the file stores it. */
export function curve(series, points = CURVE_POINTS) {
  const { steps, values } = windowedCurve(series, points);
  return { steps, values: values.map(round4) };
}

/** What the file keeps of one run's output (the trainer's JSON). */
export function summarise(out) {
  const { config } = out;
  return {
    family: config.family, seed: config.seed, status: out.status, steps: out.steps,
    seconds: round4(out.seconds),
    loss: curve(out.log.loss), exact: curve(out.log.exact),
    accuracy: out.accuracy.map((a) => ({
      length: a.length,
      exact: Math.round(a.exact * a.examples),
      tokens: round4(a.tokens),
      loss: round4(a.loss),
    })),
  };
}

const bytes = (values) => Buffer.from(Uint8Array.from(values, (p) => Math.round(Math.min(1, Math.max(0, p)) * 255))).toString('base64');

function tensorOf(out, name) {
  const t = out.tensors.find((x) => x.name === name);
  if (!t) return null;
  return { rows: t.rows, cols: t.cols, values: out.parameters.slice(t.offset, t.offset + t.rows * t.cols).map(round4) };
}

async function train(args) {
  const { stdout } = await run(TRAINER, args, { maxBuffer: 1 << 28 });
  return JSON.parse(stdout);
}

function parseArgs(argv) {
  const o = { tasks: Object.keys(TASKS), seeds: SEEDS, steps: undefined, out: REFERENCE };
  for (let i = 0; i < argv.length; i += 2) {
    const [k, v] = [argv[i], argv[i + 1]];
    if (k === '--tasks') o.tasks = v.split(',');
    else if (k === '--seeds') o.seeds = v.split(',').map(Number);
    else if (k === '--steps') o.steps = Number(v);
    else if (k === '--out') o.out = v;
    else throw new Error(`unknown argument ${k}`);
  }
  return o;
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const overrides = o.steps ? { steps: o.steps } : {};
  const jobs = [];
  for (const task of o.tasks) {
    for (const seed of o.seeds) {
      for (const family of FAMILIES) {
        const extra = seed === 0 ? ['--parameters', '--inspect', 'max:0', '--inspect', '2max:0'] : [];
        jobs.push({ task, family, seed, args: [...trainerArgs(task, family, seed, overrides), ...extra] });
      }
    }
  }
  const started = Date.now();
  const results = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const k = next++;
      const job = jobs[k];
      results[k] = await train(job.args);
      process.stderr.write(`${job.task} ${job.family} seed ${job.seed}: ${results[k].seconds.toFixed(1)} s\n`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, cpus().length) }, worker));

  const commit = (await run('git', ['rev-parse', 'HEAD'], { cwd: at('.') })).stdout.trim();
  const cpu = (readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/) ?? [])[1] ?? 'unknown';
  const data = {
    provenance: {
      command: `npm run experiment${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
      trainer: 'build/native/posenc-train (core/train/, g++ -O3, one thread per run)',
      commit, date: new Date().toISOString(), cpu, cores: cpus().length,
      wallSeconds: round4((Date.now() - started) / 1000),
      runSeconds: round4(results.reduce((s, r) => s + r.seconds, 0)),
    },
    families: FAMILIES, seeds: o.seeds, tasks: {},
  };
  jobs.forEach((job, k) => {
    const out = results[k];
    const entry = (data.tasks[job.task] ??= { config: { ...out.config, family: undefined, seed: undefined }, runs: [], trained: {} });
    entry.runs.push(summarise(out));
    if (job.seed !== 0) return;
    entry.trained[job.family] = {
      table: tensorOf(out, 'position.table'),
      bias: tensorOf(out, 'position.bias'),
      inspections: out.inspections.map((x) => ({
        length: x.length, index: x.index, tokens: x.tokens, answerStart: x.answerStart, predicted: x.predicted,
        rows: x.rows, attention: bytes(x.attention),
      })),
    };
  });
  writeFileSync(o.out, `${JSON.stringify(data)}\n`);
  process.stderr.write(`wrote ${o.out} (${jobs.length} runs, ${data.provenance.wallSeconds} s)\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
