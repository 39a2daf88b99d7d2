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
import { fileURLToPath } from 'node:url';
import { loadPosenc } from '../../wasm/posenc.js';
import { startBrowser } from './browser.js';
import { setSlider, urlParams } from './steps.js';
import { decodePng, imageStats, pixelDifference } from '../native/png.js';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let b;
let pe;
before(async () => {
  b = await startBrowser();
  pe = await loadPosenc();
});
after(async () => b?.close());

/** Waits until the figures show the Lab's current state and `frames` more frames were drawn. */
async function settle(page, frames = 2) {
  await page.waitForFunction(() => window.posencLab?.settled(), null, { timeout: 60000 });
  const n = await page.evaluate(() => window.posencLab.stat('frames'));
  await page.waitForFunction((target) => window.posencLab.stat('frames') >= target, n + frames, { timeout: 60000 });
}

async function openLab(query, { base = `${b.url}web/` } = {}) {
  const page = await b.newPage();
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
function t5BucketJs(rp, bidirectional, numBuckets, maxDistance) {
  let nb = numBuckets;
  let bucket = 0;
  let n;
  if (bidirectional) {
    nb /= 2;
    if (rp > 0) bucket += nb;
    n = Math.abs(rp);
  } else n = Math.max(-rp, 0);
  const exact = Math.floor(nb / 2);
  if (n < exact) return bucket + n;
  const large = exact + Math.floor((Math.log(n / exact) / Math.log(maxDistance / exact)) * (nb - exact));
  return bucket + Math.min(large, nb - 1);
}
const close = (a, e, tol, what) => assert.ok(Math.abs(a - e) <= tol, `${what}: ${a} vs ${e} (tolerance ${tol})`);

test('the Lab draws its figures, and every number it shows is the core\'s and the formula\'s', { timeout: 180000 }, async () => {
  const page = await openLab('?family=sinusoidal&len=64&d=16&base=100&pos=5&dim=3&qpos=40&kpos=30');
  const url = urlParams(page);
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
  // Attention: tokens are (1, ..., 1) + PE, queries = keys, scale 1/√16.
  const x = Array.from({ length: 64 }, (_, p) => Array.from({ length: 16 }, (_, i) => 1 + pe64(p, i, 16, 100)));
  const scores = x.map((row) => row.reduce((s, v, i) => s + v * x[40][i], 0) / 4);
  const weights = softmax(scores);
  const labRow = await readRow(page, 'attention', 40, 64);
  const labScores = await page.evaluate(() => Array.from({ length: 64 }, (_, j) => window.posencLab.readout('score', j)));
  for (let j = 0; j < 64; j++) {
    close(labRow[j], weights[j], 2e-5, `attention[40, ${j}]`);
    close(labScores[j], scores[j], 2e-4 * Math.max(1, Math.abs(scores[j])), `score of key ${j}`);
  }
  const xs = Float32Array.from({ length: 64 * 16 }, (_, k) => 1 + table[k]);
  const core = pe.attention(xs, xs, 16);
  for (let j = 0; j < 64; j++) close(labRow[j], core[40 * 64 + j], 1e-6, `attention[40, ${j}] vs pe.attention`);
  // N <= 512: the drawn table has a cell per query and key, the same numbers as the exact rows.
  assert.deepEqual([await readout(page, 'attentionRows'), await readout(page, 'attentionColumns')], [64, 64]);
  const drawn40 = await readRow(page, 'attentionCell', 40, 64);
  for (let j = 0; j < 64; j++) assert.equal(drawn40[j], labRow[j], `drawn cell [40, ${j}] vs the exact row`);
  // Another query's exact row (computed on demand for a hover): pe.attention's row 3.
  const row3 = await readRow(page, 'attention', 3, 64);
  for (let j = 0; j < 64; j++) close(row3[j], core[3 * 64 + j], 1e-6, `attention[3, ${j}] vs pe.attention`);

  // A scripted change: RoPE with YaRN. The pixels and the URL follow.
  await set(page, { family: 'rope', scaling: 'yarn', factor: 8, orig: 32 });
  const second = await canvasShot(page);
  const changed = pixelDifference(first, second);
  assert.ok(changed > 0.05, `switching to RoPE changed only ${(changed * 100).toFixed(2)} % of the pixels`);
  assert.deepEqual([urlParams(page).family, urlParams(page).scaling, urlParams(page).factor], ['rope', 'yarn', '8']);
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
  const alibiRef = softmax(Array.from({ length: 64 }, (_, j) => (j > 20 ? -Infinity : -0.5 * (20 - j))));
  for (let j = 0; j < 64; j++) close(alibiRow[j], alibiRef[j], 2e-6, `ALiBi attention[20, ${j}]`);
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
    assert.equal(got, t5BucketJs(rel[k], true, 32, 128), `bucket of ${rel[k]} vs the HF formula`);
  }

  // A learned table shorter than the sequence: the core's RangeError, shown, and no attention.
  await set(page, { family: 'learned', len: 64, table: 32, seed: 3 });
  assert.match(await page.evaluate(() => window.posencLab.error()), /positions\[32\] = 32 is past the learned table/);
  assert.ok(Number.isNaN(await readout(page, 'attention', 0, 0)));
  const row31 = pe.learned([31], 16, { maxPositions: 32, seed: 3, std: 0.02 });
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
  assert.equal(state.causal, '0');
  assert.equal(state.tok, '1', 'an unparsable number keeps the default');
  assert.equal(urlParams(page).len, '2048', 'the clamped state is written back to the URL');

  // N = 2048, d = 64, RoPE, tokens (1, ..., 1): the figure holds every 4th query and the keys
  // summed in 512 bins of 4, computed only for those rows. Checked against the core's full
  // pe.attention (the same queries from pe.ropeApply) and against the formula in float64:
  // score(i, j) = Σ_k 2·cos((i − j)·θ_k) / 8, θ_k = 10000^(−2k/64) (a unit pair per RoPE pair).
  await set(page, { d: 64, base: 10000, qpos: 1024, kpos: 1000 });
  assert.deepEqual([await readout(page, 'attentionRows'), await readout(page, 'attentionColumns')], [512, 512]);
  const n = 2048;
  const xs = pe.ropeApply(new Float32Array(n * 64).fill(1), Array.from({ length: n }, (_, i) => i), 64, { base: 10000 });
  const full = pe.attention(xs, xs, 64);
  const theta = Array.from({ length: 32 }, (_, k) => 10000 ** (-(2 * k) / 64));
  const formulaRow = (i) => softmax(Array.from({ length: n }, (_, j) => theta.reduce((a, t) => a + 2 * Math.cos((i - j) * t), 0) / 8));
  let worstCore = 0;
  let worstFormula = 0;
  for (const r of [0, 1, 255, 256, 511]) {
    const q = await readout(page, 'attentionQuery', r);
    assert.equal(q, 4 * r, `drawn row ${r} is query ${4 * r}`);
    const cells = await readRow(page, 'attentionCell', r, 512);
    const ref = formulaRow(q);
    for (let c = 0; c < 512; c++) {
      let fromCore = 0;
      let fromFormula = 0;
      for (let j = 4 * c; j < 4 * c + 4; j++) {
        fromCore += full[q * n + j];
        fromFormula += ref[j];
      }
      worstCore = Math.max(worstCore, Math.abs(cells[c] - fromCore));
      worstFormula = Math.max(worstFormula, Math.abs(cells[c] - fromFormula));
    }
    close(cells.reduce((a, c) => a + c, 0), 1, 1e-4, `drawn row ${r} sums to 1`);
  }
  t.diagnostic(`N = 2048 drawn cells: worst |Δ| ${worstCore.toExponential(1)} vs pe.attention, ${worstFormula.toExponential(1)} vs the formula`);
  assert.ok(worstCore <= 1e-7, `drawn cells vs pe.attention bins: ${worstCore}`);
  assert.ok(worstFormula <= 2e-6, `drawn cells vs the formula's bins: ${worstFormula}`);
  for (const [i, j] of [[2047, 2047], [2047, 0], [5, 1000]]) {
    close(await readout(page, 'attention', i, j), full[i * n + j], 1e-6, `exact attention[${i}, ${j}] vs pe.attention`);
  }
  const row1024 = await readRow(page, 'attention', 1024, n);
  close(row1024.reduce((a, c) => a + c, 0), 1, 1e-4, 'a row of 2048 weights sums to 1');
  const ref1024 = formulaRow(1024);
  for (let j = 0; j < n; j += 7) close(row1024[j], ref1024[j], 2e-6, `attention[1024, ${j}] vs the formula`);
  await page.waitForTimeout(1500);
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

test('the explainer links to the Lab with its state and loads none of it', { timeout: 120000 }, async () => {
  const page = await b.newPage();
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(`${b.url}?step=rope&qpos=5&kpos=9`);
  await page.waitForSelector('body[data-ready=true]', { timeout: 30000 });
  assert.deepEqual(requests.filter((u) => /lab/i.test(u)), [], 'the explainer fetched part of the Lab');
  const open = page.locator('#lab-link a');
  assert.equal(new URL(await open.getAttribute('href')).pathname, '/web/lab.html');
  const link = page.locator('#rope a.step-lab');
  // The Lab is in English whatever the page's language: both links say so to assistive tech.
  assert.deepEqual([await open.getAttribute('hreflang'), await link.getAttribute('hreflang')], ['en', 'en']);
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
  await page.locator('#lab-back').focus();
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'lab-canvas');
  const press = async (key) => {
    await page.keyboard.down(key);
    await page.waitForTimeout(120);
    await page.keyboard.up(key);
    await page.waitForTimeout(120);
  };
  const beforeKeys = await page.evaluate(() => window.posencLab.state());
  for (const key of ['ArrowDown', 'ArrowDown', 'Space', 'ArrowDown', 'Space', 'ArrowDown', 'Space',
    'ArrowRight', 'ArrowRight', 'ArrowRight', 'Space']) await press(key);
  await settle(page);
  const afterKeys = await page.evaluate(() => window.posencLab.state());
  assert.notEqual(afterKeys, beforeKeys, 'the keyboard changed no parameter');
  assert.equal(new URL(page.url()).search.slice(1), afterKeys, 'the URL follows a change made from the keyboard');
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
  const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
  await access(`${dist}lab.html`).catch(() => assert.fail('dist/lab.html is missing: run node web/tools/build-dist.mjs'));
  const site = await startBrowser({ root: dist, prefix: '/pe/' });
  try {
    const page = await site.newPage();
    const requests = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`${site.url}?step=alibi`);
    await page.waitForSelector('body[data-ready=true]', { timeout: 30000 });
    assert.deepEqual(requests.filter((u) => /lab/i.test(u)), [], 'the hosted explainer fetched part of the Lab');
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
  await single.goto(`file://${dist}positional-encoding.html`);
  await single.waitForSelector('body[data-ready=true]', { timeout: 30000 });
  assert.equal(await single.locator('#lab-link a, a.step-lab').count(), 0, 'the single file links to a Lab it does not have');
  await single.close();
});
