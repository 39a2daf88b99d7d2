// The Lab (web/lab.html: wasm/lab/ compiled to WebAssembly, Dear ImGui on a WebGL2 canvas) in
// headless Chromium: it draws a non-blank frame, a scripted change of a parameter changes the
// pixels, the numbers it shows are the explainer core's (the JS API returns the same for the
// same parameters) and match the formulas computed here, its state lives in the URL (bad
// values clamped), the explainer links to it without loading any of it, and dist/ carries it.
// Frame times at N = 2048 are reported (tests/out/perf/lab-2048-*.json), never asserted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile, access } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadPosenc } from '../../wasm/posenc.js';
import { DIST, SOURCE, startBrowser } from './browser.js';
import { openStep, readout as stepReadout, setSlider, urlParams, pageUrl } from './steps.js';
import { decodePng, imageStats, pixelDifference } from '../native/png.js';
import { token } from '../expect/attention.js';
import { t5Bucket } from '../js/reference.js';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let b;
let pe;
before(async () => {
  // From source: the Lab's own files (web/lab.html, wasm/lab/), which the explainer links to there.
  b = await startBrowser({ root: SOURCE });
  pe = await loadPosenc();
});
after(async () => b?.close());

/** Waits until the figures show the Lab's current state and `frames` more frames were drawn. */
async function settle(page, frames = 2) {
  await page.waitForFunction(() => window.posencLab?.settled(), null, { timeout: 60000 });
  const n = await page.evaluate(() => window.posencLab.stat('frames'));
  await page.waitForFunction((target) => window.posencLab.stat('frames') >= target, n + frames, { timeout: 60000 });
}

async function openLab(query, { base = `${b.url}web/`, init } = {}) {
  const page = await b.newPage();
  if (init) await page.addInitScript(init);
  await page.goto(`${base}lab.html${query}`);
  await page.waitForSelector('body[data-ready=true]', { timeout: 30000 });
  await settle(page);
  return page;
}

const readout = (page, name, i = 0, j = 0) =>
  page.evaluate(([n, a, c]) => window.posencLab.readout(n, a, c), [name, i, j]);
const readRow = (page, name, i, count) =>
  page.evaluate(([n, a, c]) => Array.from({ length: c }, (_, j) => window.posencLab.readout(n, a, j)), [name, i, count]);
async function set(page, patch) {
  await page.evaluate((p) => {
    for (const [k, v] of Object.entries(p)) if (!window.posencLab.set(k, String(v))) throw new Error(`lab.set(${k}) refused`);
  }, patch);
  await settle(page);
}
const canvasShot = async (page) => decodePng(await page.locator('#lab-canvas').screenshot());

// Plain-JS references, from the formulas (float64).
const pe64 = (pos, i, d, base) => {
  const w = pos * base ** (-(2 * Math.floor(i / 2)) / d);
  return i % 2 === 0 ? Math.sin(w) : Math.cos(w);
};
function softmax(xs) {
  const m = Math.max(...xs.filter(Number.isFinite));
  const e = xs.map((x) => (Number.isFinite(x) ? Math.exp(x - m) : 0));
  const s = e.reduce((a, c) => a + c, 0);
  return e.map((x) => x / s);
}
const close = (a, e, tol, what) => assert.ok(Math.abs(a - e) <= tol, `${what}: ${a} vs ${e} (tolerance ${tol})`);

test('the Lab draws its figures, and every number it shows is the core\'s and the formula\'s', { timeout: 180000 }, async () => {
  const page = await openLab('?family=sinusoidal&len=64&d=16&base=100&pos=5&dim=3&qpos=40&kpos=30');
  const url = (await urlParams(page));
  assert.deepEqual([url.family, url.len, url.d, url.base, url.pos, url.dim, url.qpos, url.kpos],
    ['sinusoidal', '64', '16', '100', '5', '3', '40', '30'], 'the URL holds the state');
  assert.equal(url.scaling, 'default');

  // A non-blank frame.
  const first = await canvasShot(page);
  const stats = imageStats(first);
  assert.ok(stats.colours > 200, `the canvas looks blank: ${stats.colours} colours`);
  assert.ok(stats.foreground > 0.3, `the canvas looks blank: ${(stats.foreground * 100).toFixed(1)} % drawn`);

  // Sinusoidal table: the same float32 as the JS API's, and the paper's formula.
  const table = pe.sinusoidal(64, 16, { base: 100 });
  for (const [p, i] of [[5, 3], [0, 0], [0, 1], [63, 15], [17, 8], [40, 14]]) {
    const v = await readout(page, 'table', p, i);
    assert.equal(v, table[p * 16 + i], `table[${p}, ${i}] vs pe.sinusoidal`);
    close(v, pe64(p, i, 16, 100), 2e-6, `table[${p}, ${i}] vs sin/cos(pos·100^(-2i/16))`);
  }
  const freqs = pe.sinusoidalFrequencies(16, { base: 100 });
  for (let i = 0; i < 8; i++) {
    const w = await readout(page, 'wavelength', i);
    assert.equal(w, (2 * Math.PI) / freqs[i], `wavelength ${i} vs pe.sinusoidalFrequencies`);
    close(w, 2 * Math.PI * 100 ** ((2 * i) / 16), 1e-9 * w, `wavelength ${i} vs 2π·100^(2i/16)`);
  }
  // Attention: the core's familyAttention (the attention step's function: seeded contents + PE,
  // causal by default), the same float32 numbers; and the softmax of its scores, here.
  const fa = (q) => pe.familyAttention('sinusoidal', 64, 16, { base: 100, query: q, rows: [], columns: 1 });
  const ref40 = fa(40);
  const labRow = await readRow(page, 'attention', 40, 64);
  const labScores = await page.evaluate(() => Array.from({ length: 64 }, (_, j) => window.posencLab.readout('score', j)));
  const weights = softmax(Array.from(ref40.scores));
  for (let j = 0; j < 64; j++) {
    close(labRow[j], ref40.probs[j], 1e-7, `attention[40, ${j}] vs pe.familyAttention`);
    close(labRow[j], weights[j], 2e-6, `attention[40, ${j}] vs the softmax of the scores`);
    if (j > 40) assert.equal(labScores[j], -Infinity, `score of key ${j} past the causal query`);
    else close(labScores[j], ref40.scores[j], 1e-5 * Math.max(1, Math.abs(ref40.scores[j])), `score of key ${j}`);
  }
  // N <= 512: the drawn table has a cell per query and key, the same numbers as the exact rows.
  assert.deepEqual([await readout(page, 'attentionRows'), await readout(page, 'attentionColumns')], [64, 64]);
  const drawn40 = await readRow(page, 'attentionCell', 40, 64);
  for (let j = 0; j < 64; j++) assert.equal(drawn40[j], labRow[j], `drawn cell [40, ${j}] vs the exact row`);
  // Another query's exact row (computed on demand for a hover): pe.attention's row 3.
  const row3 = await readRow(page, 'attention', 3, 64);
  const ref3 = fa(3).probs;
  for (let j = 0; j < 64; j++) close(row3[j], ref3[j], 1e-7, `attention[3, ${j}] vs pe.familyAttention`);

  // A scripted change: RoPE with YaRN. The pixels and the URL follow.
  await set(page, { family: 'rope', scaling: 'yarn', factor: 8, orig: 32 });
  const second = await canvasShot(page);
  const changed = pixelDifference(first, second);
  assert.ok(changed > 0.05, `switching to RoPE changed only ${(changed * 100).toFixed(2)} % of the pixels`);
  assert.deepEqual([(await urlParams(page)).family, (await urlParams(page)).scaling, (await urlParams(page)).factor], ['rope', 'yarn', '8']);
  const rope = pe.ropeFrequencies(16, { base: 100, scaling: { type: 'yarn', factor: 8, originalMaxPositions: 32 } });
  const af = await readout(page, 'attentionFactor');
  assert.equal(af, rope.attentionFactor);
  close(af, 0.1 * Math.log(8) + 1, 1e-12, 'YaRN attention factor 0.1·ln 8 + 1');
  for (let i = 0; i < 8; i++) {
    assert.equal(await readout(page, 'wavelength', i), (2 * Math.PI) / rope.invFreq[i], `YaRN wavelength ${i}`);
    close(await readout(page, 'wavelengthBase', i), 2 * Math.PI * 100 ** ((2 * i) / 16), 1e-9 * 100 ** ((2 * i) / 16) * 7,
      `unscaled wavelength ${i}`);
    for (const p of [0, 9, 63]) {  // half layout: column i holds cos, column i + 8 sin (times the factor)
      close(await readout(page, 'table', p, i), Math.cos(p * rope.invFreq[i]) * af, 2e-6, `rotated cos[${p}, ${i}]`);
      close(await readout(page, 'table', p, i + 8), Math.sin(p * rope.invFreq[i]) * af, 2e-6, `rotated sin[${p}, ${i}]`);
    }
  }

  // ALiBi, 6 heads (not a power of two), causal: slopes in the reference order, weights ∝ e^(-m·(i-j)).
  await set(page, { family: 'alibi', heads: 6, head: 4, causal: 1 });
  const slopes = pe.alibiSlopes(6);
  const expected = [1 / 4, 1 / 16, 1 / 64, 1 / 256, 1 / 2, 1 / 8];
  for (let h = 0; h < 6; h++) {
    assert.equal(await readout(page, 'slope', h), slopes[h]);
    close(slopes[h], expected[h], 1e-15, `slope ${h}`);
  }
  const alibiRow = await readRow(page, 'attention', 20, 64);
  const alibiRef = pe.familyAttention('alibi', 64, 16, { heads: 6, head: 4, query: 20, rows: [], columns: 1 });
  const noneRef = pe.familyAttention('none', 64, 16, { query: 20, rows: [], columns: 1 });
  for (let j = 0; j < 64; j++) {
    close(alibiRow[j], alibiRef.probs[j], 1e-7, `ALiBi attention[20, ${j}] vs pe.familyAttention`);
    // The bias is −m·(i − j) on top of the contents' scores (NoPE's), m = 1/2 for head 4 of 6.
    if (j <= 20) close(alibiRef.scores[j], noneRef.scores[j] - 0.5 * (20 - j), 1e-5, `ALiBi score[20, ${j}]`);
  }
  assert.equal(await readout(page, 'bias', 20, 7), -0.5 * 13);
  assert.equal(await readout(page, 'bias', 7, 20), -Infinity);

  // T5 buckets on a longer sequence (log-spaced buckets beyond 8).
  await set(page, { family: 't5', len: 300, buckets: 32, maxDistance: 128, causal: 0 });
  const rel = [0, 1, -1, 7, 8, -9, 15, 16, 40, -100, 127, 128, 200, -299];
  const coreBuckets = pe.t5Bucket(rel, { numBuckets: 32, maxDistance: 128 });
  for (let k = 0; k < rel.length; k++) {
    const [q, key] = rel[k] >= 0 ? [0, rel[k]] : [-rel[k], 0];
    const got = await readout(page, 'bucket', q, key);
    assert.equal(got, coreBuckets[k], `bucket of ${rel[k]} vs pe.t5Bucket`);
    assert.equal(got, t5Bucket(rel[k], { bidirectional: true, numBuckets: 32, maxDistance: 128 }), `bucket of ${rel[k]} vs the HF formula (tests/js/reference.js)`);
  }

  // A learned table shorter than the sequence: the core's RangeError, shown, and no attention.
  await set(page, { family: 'learned', len: 64, table: 32, seed: 3 });
  assert.match(await page.evaluate(() => window.posencLab.error()), /positions\[32\] = 32 is past the learned table/);
  assert.ok(Number.isNaN(await readout(page, 'attention', 0, 0)));
  // The learned table is familyAttention's stand-in: seed 3·seed + 2, std √½.
  const row31 = pe.learned([31], 16, { maxPositions: 1024, seed: 3 * 3 + 2, std: Math.SQRT1_2 });
  for (let i = 0; i < 16; i++) assert.equal(await readout(page, 'table', 31, i), row31[i], `learned row 31, dim ${i}`);
  const third = await canvasShot(page);
  assert.ok(imageStats(third).colours > 100, 'the refused state still draws the Lab');

  assert.deepEqual(page.errors, []);
  await page.close();
});

test('bad URL values are clamped; frame times at N = 2048 (reported)', { timeout: 180000 }, async (t) => {
  const page = await openLab('?family=bogus&len=99999&d=7&base=-5&heads=0&qpos=-3&causal=maybe&scaling=nope&tok=x');
  const state = Object.fromEntries(new URLSearchParams(await page.evaluate(() => window.posencLab.state())));
  assert.equal(state.family, 'rope', 'an unknown family keeps the default');
  assert.equal(state.scaling, 'default');
  assert.equal(state.len, '2048', 'len clamps to 2048');
  assert.equal(state.d, '6', 'an odd d becomes even');
  assert.equal(state.base, '2', 'base clamps to 2');
  assert.equal(state.heads, '1');
  assert.equal(state.qpos, '0');
  assert.equal(state.causal, '1', 'an unparsable flag keeps the default');
  assert.equal(state.tok, undefined, 'an unknown key is ignored');
  assert.equal((await urlParams(page)).len, '2048', 'the clamped state is written back to the URL');
  // The ranges are the ones the sliders show, from one table (wasm/lab/lab_state.cpp,
  // kNumberFields): a seed past the seed slider's top clamps to it (the URL took up to 1,000,000
  // while the slider stopped at 1,000), and a field whose top is another's value − 1 clamps to it.
  const other = await openLab('?seed=99999&heads=4&head=9&d=32&dim=900&len=100&kpos=150');
  const clamped = Object.fromEntries(new URLSearchParams(await other.evaluate(() => window.posencLab.state())));
  assert.deepEqual([clamped.seed, clamped.head, clamped.dim, clamped.kpos], ['1000', '3', '31', '99']);
  await other.close();

  // N = 2048, d = 64, RoPE: the figure holds every 4th query and the keys summed in 512 bins
  // of 4, computed only for those rows; the same cells as pe.familyAttention for those rows.
  await set(page, { d: 64, base: 10000, qpos: 1024, kpos: 1000, causal: 0 });
  assert.deepEqual([await readout(page, 'attentionRows'), await readout(page, 'attentionColumns')], [512, 512]);
  const n = 2048;
  const picked = [0, 1, 255, 256, 511];
  const ref = pe.familyAttention('rope', n, 64, { rows: picked.map((r) => 4 * r), columns: 512, query: 1024, causal: false });
  let worst = 0;
  for (const [k, r] of picked.entries()) {
    assert.equal(await readout(page, 'attentionQuery', r), 4 * r, `drawn row ${r} is query ${4 * r}`);
    const cells = await readRow(page, 'attentionCell', r, 512);
    for (let c = 0; c < 512; c++) worst = Math.max(worst, Math.abs(cells[c] - ref.cells[k * 512 + c]));
    close(cells.reduce((a, c) => a + c, 0), 1, 1e-4, `drawn row ${r} sums to 1`);
  }
  t.diagnostic(`N = 2048 drawn cells: worst |Δ| ${worst.toExponential(1)} vs pe.familyAttention`);
  assert.ok(worst <= 1e-7, `drawn cells vs pe.familyAttention: ${worst}`);
  const row1024 = await readRow(page, 'attention', 1024, n);
  close(row1024.reduce((a, c) => a + c, 0), 1, 1e-4, 'a row of 2048 weights sums to 1');
  for (let j = 0; j < n; j += 7) close(row1024[j], ref.probs[j], 1e-7, `attention[1024, ${j}] vs pe.familyAttention`);
  await settle(page, 60);  // idle frames after the last change, counted by the Lab itself
  const idle = await page.evaluate(() => ({ frame: posencLab.stat('frameMs'), worst: posencLab.stat('maxFrameMs'),
    interval: posencLab.stat('intervalMs'), frames: posencLab.stat('frames'), drawn: posencLab.stat('drawn') }));
  const changes = [];
  for (let k = 0; k < 4; k++) {
    const start = Date.now();
    await set(page, { causal: k % 2 === 0 ? 1 : 0 });
    changes.push({ total: Date.now() - start, compute: await page.evaluate(() => posencLab.stat('computeMs')) });
  }
  t.diagnostic(`N = 2048 idle: ${idle.frame.toFixed(1)} ms CPU per frame (worst ${idle.worst.toFixed(1)}), ` +
    `${idle.interval.toFixed(1)} ms between frames; ${idle.drawn} of ${idle.frames} frames drawn so far`);
  t.diagnostic(`N = 2048 change → 2 frames later: ${changes.map((c) => c.total).join(', ')} ms; ` +
    `recompute ${changes.map((c) => c.compute.toFixed(0)).join(', ')} ms`);
  const dir = new URL('../out/perf/', import.meta.url);
  await mkdir(dir, { recursive: true });
  await writeFile(new URL('lab-2048-recompute.json', dir), JSON.stringify(changes.map((c) => c.compute)));
  assert.ok(changes.every((c) => Number.isFinite(c.compute) && c.compute > 0));
  assert.deepEqual(page.errors, []);
  await page.close();
});

/**
 * Whether a URL is one of the Lab's files, from source or from dist/: lab.html, lab.js, lab.css,
 * anything under a lab/ folder, the Lab's modules (posenc-lab-*) and its catalog part lab.json.
 * By path, not by any name holding "lab": a bundle chunk's content hash can spell it
 * (chunk-RELABYIJ.js did, in a CI run).
 */
const labFile = (u) => /\/lab(\/|\.(html|js|css|json)$)|\/posenc-lab-/.test(new URL(u).pathname);

test('the explainer links to the Lab with its state and loads none of it', { timeout: 120000 }, async () => {
  const page = await b.newPage();
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(`${b.url}?step=rope&qpos=5&kpos=9`);
  await page.waitForSelector('body[data-ready=true]', { timeout: 30000 });
  assert.deepEqual(requests.filter(labFile), [], 'the explainer fetched part of the Lab');
  const open = page.locator('#lab-link a');
  assert.equal(new URL(await open.getAttribute('href')).pathname, '/web/lab.html');
  const link = page.locator('#rope a.step-lab');
  // The Lab speaks the page's language: the links claim no other.
  assert.deepEqual([await open.getAttribute('hreflang'), await link.getAttribute('hreflang')], [null, null]);
  let href = new URL(await link.getAttribute('href'));
  assert.deepEqual([href.pathname, href.searchParams.get('family'), href.searchParams.get('qpos'), href.searchParams.get('kpos')],
    ['/web/lab.html', 'rope', '5', '9']);
  await setSlider(page, 'rope', 'qpos', 7);
  await link.focus();
  href = new URL(await link.getAttribute('href'));
  assert.equal(href.searchParams.get('qpos'), '7', 'the link follows the step\'s controls');
  await link.click();
  await page.waitForSelector('body[data-ready=true]', { timeout: 30000 });
  await settle(page);
  const state = Object.fromEntries(new URLSearchParams(await page.evaluate(() => window.posencLab.state())));
  assert.deepEqual([state.family, state.qpos, state.kpos], ['rope', '7', '9'], 'the Lab opened the step\'s state');
  const back = new URL(await page.locator('#lab-back').evaluate((a) => a.href));
  assert.deepEqual([back.pathname, back.searchParams.get('step'), back.searchParams.get('qpos')], ['/index.html', 'rope', '7']);
  // The keyboard: Tab reaches the canvas after the back link; the arrow keys and Space change a
  // value (keys are held for a moment: Dear ImGui 1.86 samples key state once per frame);
  // Escape hands the focus back to the page.
  const frames = async (k) => {
    const n = await page.evaluate(() => window.posencLab.stat('frames'));
    await page.waitForFunction((target) => window.posencLab.stat('frames') >= target, n + k);
  };
  // Held down and let go for two of the Lab's frames each, so a frame sees either state.
  const press = async (key) => {
    await page.keyboard.down(key);
    await frames(2);
    await page.keyboard.up(key);
    await frames(2);
  };
  const beforeKeys = await page.evaluate(() => window.posencLab.state());
  let afterKeys = beforeKeys;
  // Up to three tries, each from the state the link opened: on a loaded machine two frames can
  // outlast Dear ImGui's key-repeat delay (0.275 s), so a held arrow moves the navigation twice and
  // the keys below land on other items. A keyboard that changes nothing fails all three.
  for (let attempt = 0; attempt < 3 && afterKeys === beforeKeys; attempt++) {
    if (attempt > 0) {
      await pageUrl(page);  // the Lab's latest state written before the reload takes the address
      await page.reload();
      await page.waitForSelector('body[data-ready=true]', { timeout: 30000 });
      await settle(page);
      assert.equal(await page.evaluate(() => window.posencLab.state()), beforeKeys, 'the reload reopened the same state');
    }
    await page.locator('#lab-switches button').last().focus();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'lab-canvas');
    for (const key of ['ArrowDown', 'ArrowDown', 'Space', 'ArrowDown', 'Space', 'ArrowDown', 'Space',
      'ArrowRight', 'ArrowRight', 'ArrowRight', 'Space']) await press(key);
    await settle(page);
    afterKeys = await page.evaluate(() => window.posencLab.state());
  }
  assert.notEqual(afterKeys, beforeKeys, 'the keyboard changed no parameter');
  assert.equal(new URL(await pageUrl(page)).search.slice(1), afterKeys, 'the URL follows a change made from the keyboard');
  // Escape is Dear ImGui's own while it uses the keyboard (web/lab.js): the keys above may leave
  // an item active or a list open (a key held over a slow frame repeats), and Escape closes that
  // first, keeping the focus; once nothing is open, Escape leaves the canvas.
  const busy = () => page.evaluate(() => window.posencLab.stat('busy'));
  for (let k = 0; k < 3 && await busy(); k++) {
    await press('Escape');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'lab-canvas', 'Escape closes what Dear ImGui has open first');
  }
  assert.equal(await busy(), 0, 'Escape closed what Dear ImGui had open');
  await press('Escape');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'lab-back', 'Escape leaves the canvas');

  // The page around the canvas: WCAG 2.1 AA by axe (the canvas is labelled and described).
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => (await window.axe.run(document, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    resultTypes: ['violations'] })).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`));
  assert.deepEqual(violations, [], 'axe on lab.html');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('dist/ serves the Lab as its own page under the strict CSP; the single file has no Lab link', { timeout: 120000 }, async () => {
  await access(`${DIST}lab.html`).catch(() => assert.fail('dist/lab.html is missing: run node web/tools/build-dist.mjs'));
  const site = await startBrowser({ root: DIST, prefix: '/pe/' });
  try {
    const page = await site.newPage();
    const requests = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`${site.url}?step=alibi`);
    await page.waitForSelector('body[data-ready=true]', { timeout: 30000 });
    assert.deepEqual(requests.filter(labFile), [], 'the hosted explainer fetched part of the Lab');
    const href = await page.locator('#lab-link a').getAttribute('href');
    assert.equal(new URL(href).pathname, '/pe/lab.html');
    await page.goto(href);
    await page.waitForSelector('body[data-ready=true]', { timeout: 30000 });
    await settle(page);
    assert.ok(imageStats(decodePng(await page.locator('#lab-canvas').screenshot())).colours > 200, 'dist/lab.html draws');
    assert.equal(new URL(await page.locator('#lab-back').evaluate((a) => a.href)).pathname, '/pe/index.html');
    assert.deepEqual(page.errors, [], 'no errors (and no CSP violations) in dist/lab.html');
    await page.close();
  } finally {
    await site.close();
  }
  const single = await b.newPage();
  await single.goto(`file://${DIST}positional-encoding.html`);
  await single.waitForSelector('body[data-ready=true]', { timeout: 30000 });
  assert.equal(await single.locator('#lab-link a, a.step-lab').count(), 0, 'the single file links to a Lab it does not have');
  await single.close();
});

const catalog = (lang) => JSON.parse(readFileSync(new URL(`../../web/i18n/${lang}/lab.json`, import.meta.url), 'utf8'));
const meanLuminance = ({ data }) => {
  let sum = 0;
  for (let i = 0; i < data.length; i += 4) sum += 0.2126 * data[i] + 0.7152 * data[i + 1] + 0.0722 * data[i + 2];
  return sum / (data.length / 4);
};

test('the Lab follows the page\'s language (its catalog, a font with every glyph) and theme, live', { timeout: 180000 }, async () => {
  for (const lang of ['en', 'id', 'sv', 'ru']) {
    const page = await openLab(`?lang=${lang}&theme=light&family=t5&len=64`);
    const words = catalog(lang);
    assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
    assert.equal(await page.locator('#lab-back').textContent(), words['lab.page.back']);
    assert.equal(await page.title(), words['lab.page.title']);
    assert.equal(await page.locator('#lab-status').textContent(), words['lab.page.readySimd']);
    // Every code point of the catalog has a glyph in the Lab's font (none would show as '?').
    assert.equal(await readout(page, 'bucket', 5, 0), t5Bucket(-5, { bidirectional: false, numBuckets: 32, maxDistance: 128 }), 'the Lab computed (causal: one-directional buckets)');
    assert.equal(await page.evaluate(() => window.posencLab.stat('missingGlyphs')), 0, `${lang}: glyphs missing`);
    // The table's title says how much of the head turns: a quarter for partial RoPE (GPT-NeoX's
    // rotary_pct 0.25, whole pairs, at least one), all of it for RoPE.
    const title = () => page.evaluate(() => window.posencLab.tableTitle());
    await set(page, { family: 'partial-rope', d: 40 });
    assert.equal(await title(), words['lab.table.partialRope'].replace('{rotated}', String(Math.max(2, 2 * Math.floor(40 / 8)))).replace('{cols}', '40'));
    await set(page, { family: 'rope' });
    assert.equal(await title(), words['lab.table.rope']);
    assert.deepEqual(page.errors, []);
    await page.close();
  }
  // The theme: ?theme=light, then the header's switch, then the system's preference, live.
  const page = await openLab('?lang=ru&theme=light&family=rope&len=64');
  const dark = () => page.evaluate(() => window.posencLab.stat('dark'));
  assert.equal(await dark(), 0);
  const light = meanLuminance(await canvasShot(page));
  await page.locator('[data-theme-option=dark]').click();
  await settle(page);
  assert.equal(await dark(), 1, 'the switch made the Lab dark');
  const darkShot = meanLuminance(await canvasShot(page));
  assert.ok(darkShot < light - 60, `the dark canvas (${darkShot.toFixed(0)}) is not darker than the light one (${light.toFixed(0)})`);
  assert.equal((await urlParams(page)).theme, undefined, 'the chosen theme is remembered, not kept in the URL');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.locator('[data-theme-option=system]').click();
  await settle(page);
  assert.equal(await dark(), 0, 'system theme, the system light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForFunction(() => window.posencLab.stat('dark') === 1, null, { timeout: 10000 });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('without WebAssembly SIMD the Lab runs its scalar module, with the same numbers', { timeout: 120000 }, async () => {
  const hideSimd = () => {
    const validate = WebAssembly.validate;
    WebAssembly.validate = (bytes) => {
      const view = new Uint8Array(bytes.buffer ?? bytes);
      for (let i = 0; i + 1 < view.length; i++) if (view[i] === 0xfd) return false;  // SIMD prefix
      return validate.call(WebAssembly, bytes);
    };
  };
  const page = await b.newPage();
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.addInitScript(hideSimd);
  await page.goto(`${b.url}web/lab.html?lang=sv&family=rope&scaling=linear&factor=4&len=128&d=64&qpos=100&kpos=7`);
  await page.waitForSelector('body[data-ready=true]', { timeout: 30000 });
  await settle(page);
  assert.equal(await page.evaluate(() => window.posencLab.simd), false);
  assert.deepEqual(requests.filter((u) => /posenc-lab-/.test(u)).map((u) => u.replace(/.*\//, '')).sort(),
    ['posenc-lab-scalar.mjs', 'posenc-lab-scalar.wasm']);
  assert.equal(await page.locator('#lab-status').textContent(), catalog('sv')['lab.page.readyScalar']);
  // Scaled RoPE through familyAttention: the contents of seed 0 (tests/expect/attention.js
  // rebuilds them from core/learned.cpp's generator) rotated by pe.ropeApply with the linear
  // scaling, scored here: s = q·k/√64, the causal mask past the query.
  const n = 128;
  const positions = Array.from({ length: n }, (_, t) => t);
  const rotate = (kind) => pe.ropeApply(Float32Array.from(positions.flatMap((t) => Array.from(token(kind, t)))), positions, 64,
    { scaling: { type: 'linear', factor: 4 } });
  const q = rotate('a');
  const k = rotate('b');
  const scores = await page.evaluate(() => Array.from({ length: 128 }, (_, j) => window.posencLab.readout('score', j)));
  for (let j = 0; j < n; j++) {
    if (j > 100) {
      assert.equal(scores[j], -Infinity, `score of key ${j} past the query`);
      continue;
    }
    let dot = 0;
    for (let c = 0; c < 64; c++) dot += q[100 * 64 + c] * k[j * 64 + c];
    close(scores[j], dot / 8, 1e-4, `scaled RoPE score(100, ${j})`);
  }
  const unscaled = pe.familyAttention('rope', n, 64, { query: 100, rows: [], columns: 1 });
  assert.ok(Math.abs(scores[7] - unscaled.scores[7]) > 1e-3, 'the scaling changed the scores');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('without WebGL2 the Lab says why and links back to the steps', { timeout: 60000 }, async () => {
  const page = await b.newPage();
  await page.addInitScript(() => {
    const getContext = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
      return type === 'webgl2' ? null : getContext.call(this, type, ...rest);
    };
  });
  await page.goto(`${b.url}web/lab.html?lang=ru&family=alibi&heads=4`);
  await page.waitForSelector('body[data-ready=unavailable]', { timeout: 30000 });
  const words = catalog('ru');
  const status = await page.locator('#lab-status').textContent();
  assert.ok(status.startsWith(words['lab.page.noWebgl2']), status);
  const link = page.locator('#lab-status a#lab-steps');
  assert.equal(await link.textContent(), words['lab.page.noWebgl2Link']);
  const href = new URL(await link.evaluate((a) => a.href));
  assert.deepEqual([href.pathname, href.searchParams.get('step'), href.searchParams.get('heads'), href.searchParams.get('lang')],
    ['/index.html', 'alibi', '4', 'ru']);
  assert.equal(await page.locator('#lab-canvas').isVisible(), false, 'no blank canvas');
  assert.deepEqual(page.errors, []);
  await link.click();
  await page.waitForSelector('body[data-ready=true]', { timeout: 30000 });
  assert.equal(await page.locator('#alibi').isVisible(), true, 'the link opens the step');
  await page.close();
});

test('the Lab and the attention step show the same numbers for the same family, length and parameters', { timeout: 240000 }, async (t) => {
  // Every family of the registry, under the same names in the step and the Lab.
  const cases = [
    ['none', 'none', 128, true], ['sinusoidal', 'sinusoidal', 256, false], ['learned', 'learned', 64, true],
    ['t5', 't5', 512, false], ['rope', 'rope', 128, true], ['alibi', 'alibi', 1024, true],
  ];
  const lab = await openLab('?family=none');
  for (const [stepFamily, labFamily, n, causal] of cases) {
    const i = Math.min(100, n - 1);
    const j = Math.min(92, n - 1) - (causal ? 0 : 30);
    const step = await openStep(b, 'attention', `family=${stepFamily}&n=${n}&causal=${causal ? 1 : 0}&head=3&i=${i}&j=${j}`);
    const prob = await stepReadout(step, 'attention', 'prob');
    const score = await stepReadout(step, 'attention', 'score');
    await step.close();
    // The step's fixed parameters: d = 64, 8 ALiBi heads, seed 0, base 10000, 32 buckets up to 128.
    await set(lab, { family: labFamily, len: n, d: 64, heads: 8, head: 3, seed: 0, base: 10000, buckets: 32, maxDistance: 128, causal: causal ? 1 : 0, qpos: i, kpos: j });
    const labProb = await readout(lab, 'attention', i, j);
    const labScore = await readout(lab, 'score', j);
    t.diagnostic(`${labFamily} n=${n}: step p=${prob.value} s=${score.value}; Lab p=${labProb} s=${labScore}`);
    assert.ok(Number.isFinite(prob.value) && prob.value > 0, `${stepFamily}: the step shows a probability`);
    close(labProb, prob.value, 1e-7 + 1e-5 * prob.value, `${labFamily}: p(${i}, ${j}) Lab vs attention step`);
    close(labScore, score.value, 1e-5 * Math.max(1, Math.abs(score.value)), `${labFamily}: s(${i}, ${j}) Lab vs attention step`);
  }
  assert.deepEqual(lab.errors, []);
  await lab.close();
});
