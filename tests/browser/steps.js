// Helpers for the step tests: open a step in a state, read readouts, collect update timings.
import { mkdir, writeFile } from 'node:fs/promises';

/**
 * Opens ?step=<id>&<query> and waits for the step's own signal that it is built, shown and drawn
 * (data-shown, and no data-busy: a step whose figures draw after a turn says so while they do).
 * The other steps' files load behind it; a test that needs the whole page (print, moving between
 * steps) also waits for body[data-ready=true], or passes { whole: true }.
 */
export async function openStep(b, id, query = '', { whole = false, ...options } = {}) {
  const page = await b.newPage(options);
  await page.goto(`${b.url}?step=${id}${query ? `&${query}` : ''}`);
  await page.waitForSelector(`#${id}[data-shown=true]:not([hidden]):not([data-busy])`);
  if (whole) await page.waitForSelector('body[data-ready=true]');
  return page;
}

/**
 * A download's bytes, read through the browser's stream: the tests' Chromium may be a shared one
 * they connect to (browser.js), where a download has no local path.
 */
export async function downloaded(download) {
  const chunks = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * Moves an open page to step `id` the way the step list does (a click on its entry) and waits for
 * the step's own signal, as openStep does. A walk over every step in one page loads the page
 * once instead of once per step.
 */
export async function showStep(page, id) {
  await page.evaluate((step) => document.querySelector(`#step-nav [data-step="${step}"]`).click(), id);
  await page.waitForSelector(`#${id}[data-shown=true]:not([hidden]):not([data-busy])`);
  // The step list's colours ease to the new current entry: a check of colours waits until they
  // are there (finite transitions only; a spinner would never end).
  await page.evaluate(() => Promise.all(document.getAnimations()
    .filter((a) => Number.isFinite(a.effect?.getComputedTiming().endTime)).map((a) => a.finished.catch(() => {}))));
}

/**
 * Opens step `id`'s Go deeper fold (kit/step.js) as a reader does, by its summary, if it has one
 * and it is closed: a test of every figure or readout then reaches those in the fold too.
 */
export async function openFold(page, id) {
  const fold = page.locator(`#${id} > details.deeper`);
  if (!(await fold.count()) || await fold.evaluate((d) => d.open)) return;
  await fold.locator('summary').click();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/**
 * In the page: whether a heatmap's canvas holds its map, one pixel per cell (kit/heatmap.js): its
 * size is the grid it was drawn with (data-grid, rows×cols), the browser scales it without
 * smoothing (image-rendering: pixelated), and some pixel is not transparent.
 * Pass it to $eval with the canvas, or call it inside another function run in the page.
 */
export function heatmapHolds(canvas) {
  const [rows, cols] = (canvas.dataset.grid ?? '0x0').split('x').map(Number);
  if (!rows || !cols || canvas.width !== cols || canvas.height !== rows) return false;
  if (getComputedStyle(canvas).imageRendering !== 'pixelated') return false;
  const data = canvas.getContext('2d').getImageData(0, 0, cols, rows).data;
  for (let i = 3; i < data.length; i += 4) if (data[i] > 0) return true;
  return false;
}

/** { text, value } of [data-readout=name] inside the step: the shown text and the exact number. */
export async function readout(page, id, name) {
  const el = page.locator(`#${id} [data-readout="${name}"]`);
  const text = (await el.textContent()).trim();
  const raw = await el.getAttribute('data-value');
  return { text, value: raw === null ? NaN : Number(raw) };
}

/** Sets a range input to a value the way a user's drag would end (fires input events). */
export async function setSlider(page, id, name, value) {
  await page.locator(`#${id} input[name="${name}"]`).fill(String(value));
}

// Read in the page: page.url() follows history.replaceState through a protocol event
// (navigatedWithinDocument) that can arrive after the key or click that caused it has returned
// (a quiz test failed so under load). It first waits for body[data-url-pending] to clear
// (web/state.js).
/** The page's URL once it holds the latest change (a promise). */
export async function pageUrl(page) {
  await page.waitForFunction(() => !document.body.dataset.urlPending);
  return page.evaluate(() => location.href);
}

/** The query string of the page's current URL as an object. */
export async function urlParams(page) {
  return Object.fromEntries(new URL(await pageUrl(page)).searchParams);
}

// Every page's update times per step id, in this test file's process: a test file opens several
// pages, and each page's moves (its first included) belong in the step's table.
// A page is told apart by its document's time origin, not by its Page object: the tab pool
// (tab-pool.js) hands the same Page to the next test, on a new document whose times start again.
const recorded = new Map();  // id → { all: durations, starts: their startTimes, seen: document's time origin → how many of its times all holds }
// POSENC_PERF_SET=<name> (tests/quiet/) keeps a run's tables apart, in tests/out/perf/<name>/.
const perfSet = process.env.POSENC_PERF_SET ?? '';
if (!/^[a-z]*$/.test(perfSet)) throw new RangeError(`POSENC_PERF_SET must be lower-case letters, not "${perfSet}"`);
/** Where this run's timing tables go: tests/out/perf/, or tests/out/perf/<POSENC_PERF_SET>/. */
export const perfDir = new URL(`../out/perf/${perfSet && `${perfSet}/`}`, import.meta.url);

/**
 * Durations (ms) of the step's update:<id> performance measures of this page's document so far.
 * Every document's are also written together to tests/out/perf/<row>.json so the p95 can be reported
 * (never asserted: timings are machine noise). `row` names the table's row (default: the step;
 * e.g. 'attention-2048' for the attention step at one length).
 */
export async function updateTimes(page, id, { row = id } = {}) {
  const measure = `update:${id}`;
  const { origin, entries } = await page.evaluate((name) => ({
    origin: performance.timeOrigin,
    entries: performance.getEntriesByName(name).map((e) => [e.startTime, e.duration]),
  }), measure);
  if (!recorded.has(row)) recorded.set(row, { measure, all: [], starts: [], seen: new Map() });
  const r = recorded.get(row);
  const fresh = entries.slice(r.seen.get(origin) ?? 0);
  r.all.push(...fresh.map(([, d]) => d));
  r.starts.push(...fresh.map(([t]) => t));
  r.seen.set(origin, entries.length);
  await mkdir(perfDir, { recursive: true });
  await writeFile(new URL(`${row}.json`, perfDir), JSON.stringify(r.all));
  return entries.map(([, d]) => d);
}

/**
 * Called as the browser closes, with the CPU times its trace holds (task-trace.js): writes
 * tests/out/perf/cpu/<row>.json for the same updates updateTimes collected (matched by their
 * start time), so the two columns of the report count the same changes, and the long tasks'.
 */
export async function writeUpdateCpu(traced) {
  const dir = new URL('cpu/', perfDir);
  await mkdir(dir, { recursive: true });
  for (const [row, r] of recorded) {
    // Start times count from each document's own origin, so two page loads can share one: such a
    // time names no update for sure, and is left out rather than matched to the wrong one.
    const cpu = new Map();
    const taken = new Set();
    for (const t of traced.filter((x) => x.name === r.measure)) {
      const key = t.startTime.toFixed(3);
      if (cpu.has(key)) taken.add(key);
      cpu.set(key, t.cpu);
    }
    const times = r.starts.map((t) => t.toFixed(3)).filter((k) => !taken.has(k)).map((k) => cpu.get(k)).filter((t) => t !== undefined);
    await writeFile(new URL(`${row}.json`, dir), JSON.stringify(times));
  }
  // Long tasks a test marked (long-tasks.js): cpu/longtask-<name>.json, [{ start, cpu }].
  const names = new Set(traced.filter((t) => t.name.startsWith('longtask:')).map((t) => t.name));
  for (const name of names) {
    const tasks = traced.filter((t) => t.name === name).map((t) => ({ start: t.startTime, cpu: t.cpu }));
    await writeFile(new URL(`${name.replace(':', '-')}.json`, dir), JSON.stringify(tasks));
  }
}

/** The p-th percentile of a list of numbers. */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** A number formatted by toFixed or Intl as the page writes it: a minus sign, U+2212, not a hyphen. */
export const minus = (text) => String(text).replace(/-(?=\d)/g, '\u2212');

/**
 * Runs in the page: pass it to evaluate() with a plot's <svg>. The points of the series of class
 * `cls`, which kit/path.js writes as one path.dots of zero-length lines ("Mx,yh0" per point),
 * each as { cx, cy } in the drawing's units and { x, y } in viewport px. It must be
 * self-contained: Playwright sends only its source to the page.
 */
export function plotDots(svg, cls = 'a') {
  const path = svg.querySelector(`path.dots.${cls}`);
  if (!path) return [];
  const ctm = svg.getScreenCTM();
  return [...path.getAttribute('d').matchAll(/M(-?[\d.]+),(-?[\d.]+)h0/g)].map(([, a, b]) => {
    const cx = Number(a);
    const cy = Number(b);
    return { cx, cy, x: ctm.a * cx + ctm.c * cy + ctm.e, y: ctm.b * cx + ctm.d * cy + ctm.f };
  });
}

/**
 * Whether two points [x, y] of a drawing are the same up to a dot's rounding: kit/path.js writes
 * a dot to the nearest hundredth of a unit (off by at most 0.005), a marker or the cursor ring
 * unrounded. Not for comparing two dots.
 */
export const samePoint = (p, q) => p !== null && q !== null && Math.abs(p[0] - q[0]) <= 0.0051 && Math.abs(p[1] - q[1]) <= 0.0051;
