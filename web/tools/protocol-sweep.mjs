// The protocol search behind the reference run (/work/notes/experiment-log.md keeps its results):
// trains every family on one task under one candidate protocol, for some seeds, scores the
// training lengths only, and prints the fit table (fit: at least 95 % exact match at every
// training length) and the seconds each run took. Niced, two trainings at a time by default.
//
//   node web/tools/protocol-sweep.mjs --task copy --seeds 0-4 [--families rope,none]
//        [--fix plain|random|ssmax] [--jobs 2] [--out FILE.jsonl] [--trainer PATH] [--test]
//        -- --steps 3000 --learningRate 0.001
//
// Everything after `--` goes to the trainer as it is (the protocol under test). --test also scores
// the test lengths (what the reference run does), to time a whole run.
import { execFile } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { TRAIN_FAMILIES } from '../../wasm/train.js';
import { FIT_EXACT, MALLOC_ENV, TASKS, TRAINER, fitOf, trainerArgs } from './experiment.mjs';

const run = promisify(execFile);

function range(text) {
  return text.split(',').flatMap((part) => {
    const [a, b] = part.split('-').map(Number);
    return b === undefined ? [a] : Array.from({ length: b - a + 1 }, (_, i) => a + i);
  });
}

function parse(argv) {
  const o = { task: 'repeat', seeds: [0, 1, 2], families: TRAIN_FAMILIES, fix: 'plain', jobs: 2, out: null, test: false, extra: [],
    trainer: TRAINER };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    if (k === '--') { o.extra = argv.slice(i + 1); break; }
    if (k === '--test') { o.test = true; continue; }
    const v = argv[++i];
    if (k === '--task') o.task = v;
    else if (k === '--seeds') o.seeds = range(v);
    else if (k === '--families') o.families = v.split(',');
    else if (k === '--fix') o.fix = v;
    else if (k === '--jobs') o.jobs = Number(v);
    else if (k === '--out') o.out = v;
    else if (k === '--trainer') o.trainer = v;  // a copy, so a rebuild cannot pull it away mid-sweep
    else throw new Error(`unknown argument ${k}`);
  }
  return o;
}

async function main() {
  const o = parse(process.argv.slice(2));
  const jobs = o.seeds.flatMap((seed) => o.families.map((family) => ({ family, seed })));
  const results = [];
  let next = 0;
  const started = Date.now();
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++];
      // The task's reference protocol, the fix, then the candidate's own fields (which win).
      const args = [...trainerArgs(o.task, job.family, job.seed, o.fix), ...o.extra];
      const train = TASKS[o.task]?.trainLengths ?? [1, 2, 3, 4, 5, 6, 7, 8];
      if (!o.test) args.push('--testLengths', String(train.join(',')));
      // CPU seconds as well as wall ones: on a shared machine the wall clock says more about the
      // neighbours than about the protocol's cost.
      const { stdout, stderr } = await run('/usr/bin/time', ['-f', 'cpu %U %S', 'nice', '-n', '5', o.trainer, ...args], { maxBuffer: 1 << 28, env: { ...process.env, ...MALLOC_ENV } });
      const out = JSON.parse(stdout);
      const [user, sys] = stderr.match(/cpu ([\d.]+) ([\d.]+)/).slice(1).map(Number);
      const atTrain = out.accuracy.filter((a) => out.config.trainLengths.includes(a.length));
      const r = {
        task: o.task, fix: o.fix, family: job.family, seed: job.seed, extra: o.extra.join(' '),
        fit: fitOf(out.accuracy, out.config.trainLengths), worst: Math.min(...atTrain.map((a) => a.exact)),
        seconds: out.seconds, evalSeconds: out.evalSeconds, cpuSeconds: user + sys,
      };
      results.push(r);
      if (o.out) appendFileSync(o.out, `${JSON.stringify(r)}\n`);
      process.stderr.write(`${r.family} seed ${r.seed}: worst ${r.worst.toFixed(3)} ${r.fit ? 'fit' : 'NOT FIT'} (${r.seconds.toFixed(1)} + ${r.evalSeconds.toFixed(1)} s wall, ${r.cpuSeconds.toFixed(1)} s CPU)\n`);
    }
  };
  await Promise.all(Array.from({ length: o.jobs }, worker));
  const wall = (Date.now() - started) / 1000;
  console.log(`task ${o.task}, fix ${o.fix}, protocol: ${o.extra.join(' ') || '(the task\'s reference protocol)'}; fit = exact >= ${FIT_EXACT} at every training length`);
  console.log('family        ' + o.seeds.map((s) => `s${s}`.padStart(7)).join('') + '   fit   wall s  CPU s');
  for (const family of o.families) {
    const rows = o.seeds.map((seed) => results.find((r) => r.family === family && r.seed === seed));
    const cells = rows.map((r) => `${r.worst.toFixed(2)}${r.fit ? ' ' : '*'}`.padStart(7)).join('');
    const mean = rows.reduce((s, r) => s + r.seconds + r.evalSeconds, 0) / rows.length;
    const cpu = rows.reduce((s, r) => s + r.cpuSeconds, 0) / rows.length;
    console.log(`${family.padEnd(14)}${cells}   ${rows.filter((r) => r.fit).length}/${rows.length}  ${mean.toFixed(1).padStart(6)} ${cpu.toFixed(1).padStart(6)}`);
  }
  console.log(`(worst exact match over the training lengths; * not fit) wall ${wall.toFixed(0)} s`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
