// Chromium's update times with nothing else running: `npm run perf` (tests/perf.sh) runs
// tests/quiet/ alone. npm test's browser tables are taken with another test file
// busy on the same two cores, where an update's wall time includes the time its renderer waited
// for a core; these come closer to what a reader's idle machine would see. Every step gets seeded random
// changes (tests/browser/drive.js), one per frame. The attention step at 2,048 tokens, where an
// update should fit in a 16 ms frame and no main-thread task should pass 50 ms, gets the
// sequence the Chromium test and the other engines make (perf-moves.js), in ATTENTION_PAGES page
// loads. Written to
// tests/out/perf/quiet/ (wall and, from Chrome's trace, CPU) and printed by perf-report.mjs:
// reported, never asserted.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { SOURCE, startBrowser } from '../browser/browser.js';
import { driveControls, TIMED_CHANGES, timedSeed } from '../browser/drive.js';
import { readLongTasks, watchLongTasks } from '../browser/long-tasks.js';
import { openStep, percentile, updateTimes } from '../browser/steps.js';
import { ATTENTION_MOVES, ATTENTION_PAGES, ATTENTION_START, setControl } from '../browser/perf-moves.js';
import { ALL_STEP_IDS } from '../browser/step-ids.js';
import { frameFloor } from './frame-floor.js';
import { pinPage } from './pin.js';
import { cpuSpans } from './threads.js';

let b;
before(async () => {
  assert.equal(process.env.POSENC_PERF_SET, 'quiet', 'run with POSENC_PERF_SET=quiet (tests/perf.sh does)');
  // From source, as the Firefox and WebKit timing test opens it (tests/engines/): the three
  // engines' tables time the same page.
  b = await startBrowser({ timed: true, root: SOURCE });
});
const cpu = cpuSpans();  // every thread's CPU time over each test's changes (threads.js)
const pinned = [];       // what pin.js pinned for each timed page, for the report
after(async () => { await b?.close(); });

test(`every step, ${TIMED_CHANGES} changes one frame apart: each is timed`, async (t) => {
  const page = await openStep(b, ALL_STEP_IDS[0], '', { whole: true });
  const pins = await pinPage('chromium');  // the page's main thread on a core of its own (pin.js)
  t.after(() => pins.release());
  pinned.push(pins);
  await cpu.start();
  for (const id of ALL_STEP_IDS) {
    const done = await page.evaluate(driveControls, { id, count: TIMED_CHANGES, seed: timedSeed(id), frames: true });
    assert.ok(done > 0, `step ${id}: no control to change`);
    const times = await updateTimes(page, id);
    // Every change runs at least one update, even one that leaves the values as they were (a
    // step's own redraws when its data arrives are measured apart, as arrival:<step>).
    assert.ok(times.length >= done, `step ${id}: ${times.length} updates timed for ${done} changes`);
  }
  await cpu.end();
  await pins.release();
  assert.deepEqual(page.errors, []);
  await page.close();
});

test(`the attention step at 2,048 tokens through the Chromium test's changes, in ${ATTENTION_PAGES} page loads: update times and long tasks`, async (t) => {
  const longTasks = [];
  const counts = [];  // updates per page load, for the report's p95 of each
  let all = [];
  for (let k = 0; k < ATTENTION_PAGES; k++) {
    const page = await openStep(b, 'attention', ATTENTION_START.replace('step=attention&', ''));
    await page.evaluate(`window.__setControl = ${setControl}`);
    await watchLongTasks(page);
    const pins = await pinPage('chromium');
    t.after(() => pins.release());
    pinned.push(pins);
    await cpu.start();
    let changed = 0;
    // One change per call: each is its own task, as a person's input is.
    for (const [control, value] of ATTENTION_MOVES) {
      if (await page.evaluate(([c, v]) => window.__setControl('attention', c, v), [control, value])) changed++;
    }
    // updateTimes adds each page load's updates to the row (tests/out/perf/quiet/attention-2048.json).
    const times = await updateTimes(page, 'attention', { row: 'attention-2048' });
    await cpu.end();
    await pins.release();
    assert.equal(times.length, changed, 'one update per change');
    assert.ok(changed >= 40, `${changed} changes`);
    longTasks.push(...await readLongTasks(page, 'attention-quiet'));
    counts.push(times.length);
    all = all.concat(times);
    assert.deepEqual(page.errors, []);
    await page.close();
  }
  const dir = new URL('../out/perf/quiet/', import.meta.url);
  await mkdir(dir, { recursive: true });
  await writeFile(new URL('longtasks-attention-2048.json', dir), JSON.stringify(longTasks));
  await writeFile(new URL('loads-attention-2048.json', dir), JSON.stringify(counts));
  const threads = cpu.result();
  if (threads) await writeFile(new URL('threads.json', dir), JSON.stringify(threads));
  await writeFile(new URL('pinned.json', dir), JSON.stringify(pinned.map(({ release, ...p }) => p)));
  console.log(`quiet: attention at 2,048 tokens, ${all.length} updates in ${ATTENTION_PAGES} page loads: p95 ${percentile(all, 95).toFixed(1)} ms; ${longTasks.length} long tasks`);
});

test('Chromium\'s frame floor: the CPU per frame of a blank page changing one character per frame', async () => {
  // In a browser of its own without the trace the timed one records, as Firefox and WebKit run.
  const plain = await startBrowser({ root: SOURCE });
  try {
    const page = await plain.newPage();
    const floor = await frameFloor((fn, arg) => page.evaluate(fn, arg));
    const dir = new URL('../out/perf/quiet/', import.meta.url);
    await mkdir(dir, { recursive: true });
    if (floor) await writeFile(new URL('floor.json', dir), JSON.stringify(floor));
    assert.deepEqual(page.errors, []);
  } finally {
    await plain.close();
  }
});
