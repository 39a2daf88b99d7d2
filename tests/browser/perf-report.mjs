// Prints the p50/p95/max of every step's update time recorded by the browser tests
// (tests/out/perf/<step>.json, written by updateTimes()): Chromium alone (tests/out/perf/quiet/,
// tests/quiet/), Chromium beside the other tests, then Firefox and WebKit from the cross-engine timing
// test, run alone with the same changes as Chromium's (tests/out/perf/quiet/<engine>/<step>.json),
// and the three engines' p95 side by side against the budgets (with, for a p95 over its budget,
// the updates it comes from); the long tasks of the attention
// and train steps; and the soak's memory figures (tests/out/perf/soak.json). A report, never a
// pass/fail.
import { readdir, readFile } from 'node:fs/promises';
import { percentile } from './steps.js';
import { TRAIN_FAMILIES } from '../../wasm/train.js';
import { ATTENTION_PAGES } from './perf-moves.js';

const dir = new URL('../out/perf/', import.meta.url);
let files = [];
try {
  files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
} catch {
  console.log('perf: no update timings recorded');
  process.exit(0);
}
const load = files.includes('load.json') ? JSON.parse(await readFile(new URL('load.json', dir), 'utf8')) : [];
// training.json (tests/browser/train.test.js): the page's main thread while the train step trains.
const training = files.includes('training.json') ? JSON.parse(await readFile(new URL('training.json', dir), 'utf8')) : null;
const soak = files.includes('soak.json') ? JSON.parse(await readFile(new URL('soak.json', dir), 'utf8')) : null;
// attention-longtasks.json (tests/browser/attention.test.js): main-thread tasks over 50 ms in its 2,048-token changes.
const longTasks = files.includes('attention-longtasks.json') ? JSON.parse(await readFile(new URL('attention-longtasks.json', dir), 'utf8')) : null;
files = files.filter((f) => !['load.json', 'training.json', 'soak.json', 'attention-longtasks.json'].includes(f));

/**
 * One engine's table from the <step>.json files in `folder`; with `cpu` (a folder of the same
 * steps' main-thread CPU times, task-trace.js), those columns too.
 */
async function table(title, folder, names, cpu = null) {
  const rows = [];
  const fmt = (v) => v.toFixed(2);
  const stats = (times) => `${times.length} | ${fmt(percentile(times, 50))} | ${fmt(percentile(times, 95))} | ${fmt(Math.max(...times))}`;
  for (const f of names) {
    const times = JSON.parse(await readFile(new URL(f, folder), 'utf8'));
    if (!times.length) continue;
    let row = `| ${f.replace('.json', '')} | ${stats(times)} |`;
    if (cpu) {
      const c = await readFile(new URL(f, cpu), 'utf8').then(JSON.parse, () => []);
      row += c.length ? ` ${stats(c)} |` : ' – | – | – | – |';
    }
    rows.push(row);
  }
  if (!rows.length) return;
  console.log(`Update time per control change (performance.measure around each step update), ${title}:`);
  if (cpu) {
    console.log('(wall: the measure; CPU: the same updates\' main-thread time from Chrome\'s trace, at most the wall time.');
    console.log(' Where wall is far above CPU, the main thread was not running: waiting for a core or for other threads.)');
    console.log('| step | updates | wall p50 ms | wall p95 ms | wall max ms | traced | CPU p50 ms | CPU p95 ms | CPU max ms |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  } else {
    console.log('| step | updates | p50 ms | p95 ms | max ms |');
    console.log('|---|---:|---:|---:|---:|');
  }
  for (const r of rows) console.log(r);
}
// quiet/ (tests/quiet/chromium.test.js): every step's update times with nothing else running.
const quiet = new URL('quiet/', dir);
// host.json (tests/quiet/host-speed.mjs): how fast one core ran JavaScript just before the quiet tables were taken.
const host = await readFile(new URL('host.json', quiet), 'utf8').then(JSON.parse, () => null);
// Files in a timing folder that are not a step's update times.
const notRows = (f) => ['host.json', 'threads.json', 'pinned.json', 'floor.json', 'floor-composited.json'].includes(f) || f.startsWith('longtasks-') || f.startsWith('loads-');
const quietNames = await readdir(quiet).then((l) => l.filter((f) => f.endsWith('.json') && !notRows(f)).sort(), () => []);
await table('headless Chromium with nothing else running (tests/quiet/: seeded random changes one frame apart; attention-2048: the Chromium test\'s sequence)', quiet, quietNames, new URL('cpu/', quiet));
await table('headless Chromium, beside the other tests (CPU only for the test files that trace the browser: attention and train, for their long tasks)', dir, files, new URL('cpu/', dir));
for (const [engine, title, more] of [['firefox', 'Firefox', ''], ['webkit', 'WebKit, accelerated compositing off', '; the two WebKit frame floors below show why']]) {
  const folder = new URL(`${engine}/`, quiet);
  const names = await readdir(folder).then((l) => l.filter((f) => f.endsWith('.json') && !notRows(f)).sort(), () => []);
  await table(`${title} (the cross-engine timing test, nothing else running: the same changes as Chromium's${more})`, folder, names);
}
// The three engines side by side: each row's p95 (nothing else running) against its budget, a
// 16 ms frame for the attention step (up to 2,048 tokens) and 8 ms for every other step.
{
  const budgetOf = (row) => (row.startsWith('attention') ? 16 : 8);
  // Over by more than a nanosecond: a duration is the difference of two performance.now() values,
  // so WebKit's whole milliseconds come out as e.g. 8.000000000003638, which is 8, on budget.
  const overBudget = (v, row) => v !== null && v - budgetOf(row) > 1e-6;
  // To 0.1 ms, or to 0.01 where that would print an over-budget p95 as the budget itself.
  const shown = (v, row) => (overBudget(v, row) && Number(v.toFixed(1)) <= budgetOf(row) ? v.toFixed(2) : v.toFixed(1));
  const engines = [['Chromium', quiet], ['Firefox', new URL('firefox/', quiet)], ['WebKit, compositing off', new URL('webkit/', quiet)]];
  const p95s = new Map();  // row → [p95 per engine]
  const series = new Map();  // `${engine}|${row}` → the update times in the order of the changes
  for (const [k, [, folder]] of engines.entries()) {
    const names = await readdir(folder).then((l) => l.filter((f) => f.endsWith('.json') && !notRows(f)), () => []);
    for (const f of names) {
      const times = JSON.parse(await readFile(new URL(f, folder), 'utf8'));
      if (!times.length) continue;
      const row = f.replace('.json', '');
      if (!p95s.has(row)) p95s.set(row, engines.map(() => null));
      p95s.get(row)[k] = percentile(times, 95);
      series.set(`${engines[k][0]}|${row}`, times);
    }
  }
  if (p95s.size) {
    console.log('Update time p95 per engine, nothing else running (ms; * over its budget: 16 for the attention step, 8 for every other step):');
    if (host) console.log(`(this host: tests/quiet/host-speed.mjs's fixed workload took ${host.medianMs.toFixed(0)} ms just before; a slower figure there usually means slower updates too: compare it with an earlier run's before blaming the code)`);
    // How each engine's pages were timed (tests/quiet/pin.js): their main thread on a core of its own, or why not.
    const pins = await Promise.all(engines.map(([e, folder]) => readFile(new URL('pinned.json', folder), 'utf8')
      .then((t) => `${e}: ${JSON.parse(t).map((p) => (p.pinned ? `${p.pages} page main thread${p.pages === 1 ? '' : 's'} on core ${p.core}, ${p.others} other threads on the rest` : `not pinned (${p.why})`)).join('; then ')}`,
        () => `${e}: no record`)));
    console.log(`(pinning while timed, the walk, then each attention-2048 page load: ${pins.join(' | ')})`);
    console.log(`| row | budget | ${engines.map(([e]) => e).join(' | ')} |`);
    console.log(`|---|---:|${engines.map(() => '---:').join('|')}|`);
    let over = 0;
    for (const [row, values] of [...p95s].sort(([a], [b]) => a.localeCompare(b))) {
      const budget = budgetOf(row);
      const cells = values.map((v) => (v === null ? '–' : `${shown(v, row)}${overBudget(v, row) ? ' *' : ''}`));
      over += values.filter((v) => overBudget(v, row)).length;
      console.log(`| ${row} | ${budget} | ${cells.join(' | ')} |`);
    }
    console.log(`${over} of ${[...p95s.values()].flat().filter((v) => v !== null).length} p95s over their budget.`);
    // attention-2048's updates come from ATTENTION_PAGES page loads making the same changes
    // (perf-moves.js); loads-attention-2048.json says how many each made: the spread between the
    // loads, beside the p95 over all. A run cut short has fewer loads, and no such line.
    const byPage = [];
    for (const [e, folder] of engines) {
      const times = series.get(`${e}|attention-2048`);
      const counts = await readFile(new URL('loads-attention-2048.json', folder), 'utf8').then(JSON.parse, () => null);
      if (!times || counts?.length !== ATTENTION_PAGES || counts.reduce((a, b) => a + b, 0) !== times.length) continue;
      let from = 0;
      byPage.push(`${e}: ${counts.map((n) => percentile(times.slice(from, from += n), 95).toFixed(1)).join(', ')}`);
    }
    if (byPage.length) console.log(`  attention-2048, p95 of each of its ${ATTENTION_PAGES} page loads (ms): ${byPage.join('; ')}`);
    // Where each p95 over its budget comes from: its five slowest updates, each with its place
    // among the row's updates (a step's first changes run code the engine has not compiled yet),
    // and, for a step (attention-2048's several page loads each start afresh), the p95 of the
    // updates after the first ten. The budget still applies to the p95 over all of them; the rest
    // is a diagnosis.
    let placesSaid = false;
    for (const [row, values] of [...p95s].sort(([a], [b]) => a.localeCompare(b))) {
      values.forEach((v, k) => {
        if (!overBudget(v, row)) return;
        const times = series.get(`${engines[k][0]}|${row}`);
        if (!placesSaid) {
          console.log('  (#n: the nth update timed on that row: for a step, counted from when the walk reached it; for attention-2048, among the moves that changed something, one page load after another)');
          placesSaid = true;
        }
        const slowest = times.map((t, i) => [t, i + 1]).sort((a, b) => b[0] - a[0]).slice(0, 5);
        const after = times.length > 10 && row !== 'attention-2048' ? `; p95 of updates #11-#${times.length}: ${percentile(times.slice(10), 95).toFixed(1)} ms` : '';
        console.log(`  ${engines[k][0]} ${row}, p95 ${shown(v, row)} ms: slowest of its ${times.length} updates (#n: ms) ` +
          `${slowest.map(([t, i]) => `#${i}: ${t.toFixed(1)}`).join(', ')}${after}`);
      });
    }
  }
}
// Where the CPU went during each engine's timed walks (tests/quiet/threads.js).
for (const [engine, folder] of [['Chromium', quiet], ['Firefox', new URL('firefox/', quiet)], ['WebKit', new URL('webkit/', quiet)]]) {
  const t = await readFile(new URL('threads.json', folder), 'utf8').then(JSON.parse, () => null);
  if (!t) continue;
  const s = (v) => v.toFixed(2);
  console.log(`${engine}'s timed walks, ${s(t.seconds)} s: the machine's threads ran ${s(t.ran)} s on its ${t.cores} cores; the busiest ` +
    `(process/thread: s on a core, s waiting for one): ${t.threads.map((r) => `${r.process}/${r.thread} ${s(r.ran)}, ${s(r.waited)}`).join('; ')}`);
}
// Each engine's frame floor (tests/quiet/frame-floor.js): a blank page, one character changed per
// frame, the CPU of every thread on the machine summed. WebKit's is measured as it was timed
// (accelerated compositing off) and in its default mode, through llvmpipe (engines.js startEngine).
const floors = [
  ['Chromium', quiet, 'floor.json', ''],
  ['Firefox', new URL('firefox/', quiet), 'floor.json', ''],
  ['WebKit', new URL('webkit/', quiet), 'floor.json', ', accelerated compositing off, as in WebKit\'s table'],
  ['WebKit', new URL('webkit/', quiet), 'floor-composited.json', ', accelerated compositing on, the default, through llvmpipe'],
];
for (const [engine, folder, file, mode] of floors) {
  const f = await readFile(new URL(file, folder), 'utf8').then(JSON.parse, () => null);
  if (!f) continue;
  const perFrame = (seconds) => (1000 * seconds / f.frames).toFixed(1);
  console.log(`${engine}'s frame floor (a blank page, one character changed per frame${mode}; ${f.frames} frames, one every ${perFrame(f.seconds)} ms on average): ` +
    `the machine's threads used ${perFrame(f.ran)} ms of CPU per frame, of the ${perFrame(f.cores * f.seconds)} ms its ${f.cores} cores offer; ` +
    `the busiest (process/thread: ms per frame): ${f.threads.map((r) => `${r.process}/${r.thread} ${perFrame(r.ran)}`).join('; ')}`);
}
/**
 * The long tasks of a traced page (long-tasks.js) with their CPU times (cpu/longtask-<name>.json):
 * "; their main-thread CPU: max X ms, K over 50 ms", or '' when there are none or no trace.
 */
async function longTaskCpu(name, tasks, folder = dir) {
  if (!tasks.length) return '';
  const traced = await readFile(new URL(`cpu/longtask-${name}.json`, folder), 'utf8').then(JSON.parse, () => []);
  const cpu = tasks.map((t) => traced.find((c) => Math.abs(c.start - t.start) < 0.01)?.cpu).filter((c) => c !== undefined);
  if (!cpu.length) return '';
  return `; their traced main-thread CPU, a lower bound (${cpu.length} traced): max ${Math.max(...cpu).toFixed(0)} ms, ` +
    `at least ${cpu.filter((c) => c > 50).length} over 50 ms`;
}
const maxOf = (list) => Math.max(0, ...list.map((t) => t.duration)).toFixed(0);
const quietLong = await readFile(new URL('longtasks-attention-2048.json', quiet), 'utf8').then(JSON.parse, () => null);
if (quietLong) {
  console.log(`Attention step at 2,048 tokens (Chromium, nothing else running): ${quietLong.length} main-thread tasks over 50 ms during its changes in ${ATTENTION_PAGES} page loads` +
    (quietLong.length ? ` (max ${maxOf(quietLong)} ms)` : '') + await longTaskCpu('attention-quiet', quietLong, quiet));
}
if (longTasks) {
  const max = (list) => (list.length ? ` (max ${maxOf(list)} ms)` : '');
  const changes = longTasks.filter((t) => t.change);
  console.log(`Attention step at 2,048 tokens (Chromium, beside the other tests): ${longTasks.length} main-thread tasks over 50 ms during its changes${max(longTasks)}` +
    (longTasks.length ? `; ${changes.length} of them ran a control change${max(changes)}, the others were the page's own work meanwhile` : '') +
    await longTaskCpu('attention', longTasks));
}
if (soak) {
  const mb = (v) => (v / 2 ** 20).toFixed(2);
  const line = (what, k, f = (v) => v) => `${what} ${f(soak.early[k])} / ${f(soak.baseline[k])} -> ${f(soak.final[k])}`;
  console.log(`Soak, ${soak.changes} control changes in ${soak.seconds.toFixed(0)} s (figures after ~100 changes / after ` +
    `${soak.settledAfter} / at the end, each after forced GC): ${line('JS heap MB', 'jsHeap', mb)} (of which V8 code ${line('MB', 'jsCode', mb)}); ` +
    `${line('JS objects MB', 'jsObjects', mb)}; ${line('wasm MB', 'wasm', mb)}; ` +
    `${line('DOM nodes', 'domNodes')}; ${line('elements', 'elements')}; ${line('listeners', 'listeners')}; ${line('performance entries', 'entries')}`);
}
if (load.length) {
  console.log(`First screen interactive (dist/ from 127.0.0.1, navigation start to ready), ${load.length} loads: ` +
    `median ${percentile(load, 50).toFixed(0)} ms, max ${Math.max(...load).toFixed(0)} ms`);
}
if (training) {
  const line = async (what, t, name) => t && console.log(`Train step, ${what}: ${t.longTasks.length} main-thread long tasks ` +
    `(max ${maxOf(t.longTasks)} ms)${await longTaskCpu(name, t.longTasks)}; p95 frame gap ${t.p95Gap.toFixed(1)} ms (max ${t.maxGap.toFixed(0)} ms)`);
  await line(`${TRAIN_FAMILIES.length} 40-step runs in Web Workers`, training.workers, 'train-workers');
  await line(`${TRAIN_FAMILIES.length} 20-step runs on the page thread (single file)`, training.mainThread, 'train-page-thread');
  const families = TRAIN_FAMILIES.filter((f) => f in training);
  if (families.length) console.log(`Train step, seconds per 40-step run in a worker: ${families.map((f) => `${f} ${training[f].toFixed(2)}`).join(', ')}`);
}
