// Times the reader's default set in Chromium (a tool for people, not a test): every family, the
// default task and steps, one seed, trained through the real step's Train button; reports the
// wall time, the runs' own seconds and the main thread's long tasks and frame gaps meanwhile.
//   node tests/browser/default-set-time.mjs [query] [away]   (query: "&steps=600&deeper=1", …; the fold closed unless it says so)
import { startBrowser } from './browser.js';
import { readLongTasks, watchLongTasks } from './long-tasks.js';
import { readFile } from 'node:fs/promises';
import { loadavg } from 'node:os';

const query = process.argv[2] ?? '';
const b = await startBrowser();
try {
  const page = await b.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${b.url}?step=train${query}`);
  await page.waitForSelector('#train[data-train-ready][data-train-store]', { timeout: 30000 });
  await page.waitForFunction(() => !document.querySelector('#train button[name=train]').disabled);
  const url = new URL(page.url());
  await watchLongTasks(page);
  await page.evaluate(() => {
    window.__gaps = [];
    let last = performance.now();
    const frame = (t) => { window.__gaps.push(t - last); last = t; if (!window.__stop) requestAnimationFrame(frame); };
    requestAnimationFrame(frame);
  });
  const load0 = loadavg()[0];
  const t0 = Date.now();
  await page.click('#train button[name=train]');
  // `away`: the reference run back on screen while the set trains, so the page draws nothing
  // live; what long tasks remain are the workers' messages and the machine's load.
  if (process.argv[3] === 'away') {
    await page.waitForSelector('#train input[name=source][value=reference]:not([disabled])', { state: 'attached' });
    await page.check('#train input[name=source][value=reference]', { force: true });
  }
  await page.waitForFunction(() => document.querySelector('#train').dataset.trainState === 'done', null, { timeout: 20 * 60 * 1000, polling: 500 });
  const wall = (Date.now() - t0) / 1000;
  const doneAt = await page.evaluate(() => performance.now());
  // The drawings after the last run (the figures, the maps inside) are part of what the reader waits for.
  await page.waitForSelector('#train:not([data-busy])', { timeout: 60000 });
  const settled = await page.evaluate(() => performance.now());
  // Each run's own seconds, from the step's "every run" CSV (in the fold).
  await page.evaluate(() => { document.querySelector('#train > details.deeper').open = true; });
  const [file] = await Promise.all([page.waitForEvent('download'), page.click('#train button[data-table=runs]')]);
  const csv = (await readFile(await file.path(), 'utf8')).trim().split('\n').map((l) => l.split(','));
  const col = (name) => csv[0].indexOf(name);
  const seconds = Object.fromEntries(csv.slice(1).map((r) => [r[col('family')], Number(r[col('seconds')])]));
  const longTasks = await readLongTasks(page, 'default-set');
  const gaps = await page.evaluate(() => { window.__stop = true; return [...window.__gaps].sort((x, y) => x - y); });
  const p95 = gaps[Math.ceil(0.95 * gaps.length) - 1];
  const mode = await page.textContent('#train .train-mode');
  console.log(JSON.stringify({
    url: url.search, wallSeconds: wall, loadBefore: load0, loadAfter: loadavg()[0], mode,
    settleSeconds: (settled - doneAt) / 1000, runSeconds: seconds,
    longTasks: longTasks.length, maxLongTask: Math.max(0, ...longTasks.map((t) => t.duration)),
    longTaskMs: Math.round(longTasks.reduce((a, t) => a + t.duration, 0)),
    // Where the long tasks fall: while the runs train, or once the last has finished.
    longTasksAfterDone: longTasks.filter((t) => t.start >= doneAt - 1000).map((t) => Math.round(t.duration)),
    p95FrameGap: p95, maxFrameGap: gaps.at(-1), frames: gaps.length, errors: page.errors,
  }, null, 1));
  await page.close();
} finally {
  await b.close();
}
