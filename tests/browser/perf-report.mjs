// Prints the p50/p95/max of every step's update time recorded by the browser tests
// (tests/out/perf/<step>.json, written by updateTimes()). A report, never a pass/fail.
import { readdir, readFile } from 'node:fs/promises';
import { percentile } from './steps.js';

const dir = new URL('../out/perf/', import.meta.url);
let files = [];
try {
  files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
} catch {
  console.log('perf: no update timings recorded');
  process.exit(0);
}
console.log('Update time per control change (performance.measure around each step update, headless Chromium):');
console.log('| step | updates | p50 ms | p95 ms | max ms |');
console.log('|---|---:|---:|---:|---:|');
const load = files.includes('load.json') ? JSON.parse(await readFile(new URL('load.json', dir), 'utf8')) : [];
// training.json (tests/browser/train.test.js): the page's main thread while the train step trains.
const training = files.includes('training.json') ? JSON.parse(await readFile(new URL('training.json', dir), 'utf8')) : null;
files = files.filter((f) => f !== 'load.json' && f !== 'training.json');
for (const f of files) {
  const times = JSON.parse(await readFile(new URL(f, dir), 'utf8'));
  if (!times.length) continue;
  const fmt = (v) => v.toFixed(2);
  console.log(`| ${f.replace('.json', '')} | ${times.length} | ${fmt(percentile(times, 50))} | ${fmt(percentile(times, 95))} | ${fmt(Math.max(...times))} |`);
}
if (load.length) {
  console.log(`First screen interactive (dist/ from 127.0.0.1, navigation start to ready), ${load.length} loads: ` +
    `median ${percentile(load, 50).toFixed(0)} ms, max ${Math.max(...load).toFixed(0)} ms`);
}
if (training) {
  const line = (what, t) => t && console.log(`Train step, ${what}: ${t.longTasks.length} main-thread long tasks ` +
    `(max ${Math.max(0, ...t.longTasks).toFixed(0)} ms), p95 frame gap ${t.p95Gap.toFixed(1)} ms (max ${t.maxGap.toFixed(0)} ms)`);
  line('six 40-step runs in Web Workers', training.workers);
  line('six 20-step runs on the page thread (single file)', training.mainThread);
  const families = ['none', 'sinusoidal', 'learned', 't5', 'rope', 'alibi'].filter((f) => f in training);
  if (families.length) console.log(`Train step, seconds per 40-step run in a worker: ${families.map((f) => `${f} ${training[f].toFixed(2)}`).join(', ')}`);
}
