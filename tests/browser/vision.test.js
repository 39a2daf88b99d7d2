// The patch-grid step in Chromium: 2-D sin-cos, axial 2-D RoPE and a learned grid resized
// bilinearly. Every similarity the page shows (readouts, the colour of every drawn cell) is
// compared with values this test computes in plain JS from the formulas: the MAE sin-cos
// vectors, q = k = (0.6, 0.4) per pair rotated pair by pair, PyTorch's bilinear resize
// (align_corners=False) of the trained table, and cosine similarity. Also: clicks and arrow
// keys, the URL (round trip, clamping), and the update times.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { divergingRgb } from '../../web/kit/palette.js';
import { startBrowser } from './browser.js';
import { downloaded, minus, openStep, pageUrl, setSlider, updateTimes, urlParams } from './steps.js';
import { D, bilinear, cosine, flatVector, ropeVector, sincosVector } from '../expect/vision.js';

let b;
// Update times of every page, written together at the end (updateTimes keeps only one page's).
const allTimes = [];
const collectTimes = async (page) => {
  const times = await updateTimes(page, 'vision');
  allTimes.push(...times);
  return times;
};
before(async () => { b = await startBrowser(); });
after(async () => {
  await b?.close();
  if (allTimes.length) await writeFile(new URL('../out/perf/vision.json', import.meta.url), JSON.stringify(allTimes));
});

// [REFERENCES] -------------------------------------------------------------------------------
// The vectors (2-D sin-cos, 1-D sinusoidal, axial RoPE), their cosine and the bilinear resize
// are in tests/expect/vision.js, shared with the cross-engine suite.

// [PAGE HELPERS] -----------------------------------------------------------------------------
/** Every readout of the step, { text, value } by name, in one round trip. */
const read = (page) => page.$$eval('#vision [data-readout]', (els) => Object.fromEntries(els.map((e) => [
  e.dataset.readout, { text: e.textContent.trim(), value: e.dataset.value === undefined ? NaN : Number(e.dataset.value) }])));

/**
 * Checks the readouts against vectors computed here: vec(row, col) is a patch's vector (the
 * sin-cos vector, the rotated q/k, or the resized learned vector); similarity is their cosine,
 * the dot product their dot product.
 */
async function checkReadouts(page, { n, r, c, r2, c2, vec, dotDigits = 3, label }) {
  const got = await read(page);
  const a = vec(r, c);
  const b2 = vec(r2, c2);
  const want = cosine(a, b2);
  const dot = a.reduce((acc, x, j) => acc + x * b2[j], 0);
  const fixed = (v, digits) => minus(v.toFixed(digits).replace(/^-(0\.0+)$/, '$1'));
  assert.equal(got.patch.text, `(${r}, ${c})`, label);
  assert.equal(got.patch.value, r * n + c, `${label}: patch index`);
  assert.equal(got.second.text, `(${r2}, ${c2})`, label);
  assert.equal(got.second.value, r2 * n + c2, `${label}: second index`);
  assert.equal(got.grid.text, `${n} × ${n}`, label);
  assert.equal(got.grid.value, n * n, label);
  assert.ok(Math.abs(got.similarity.value - want) < 2e-6, `${label}: similarity ${got.similarity.value} vs ${want}`);
  assert.equal(got.similarity.text, fixed(want, 3), `${label}: shown ${got.similarity.text}`);
  assert.ok(Math.abs(got.dot.value - dot) < 2e-5 * Math.max(1, Math.abs(dot)), `${label}: dot ${got.dot.value} vs ${dot}`);
  assert.equal(got.dot.text, fixed(dot, dotDigits), `${label}: dot shown ${got.dot.text}`);
  return want;
}

/** The colour of every cell's centre on a map (main or side), as [r, g, b] per cell (row-major). */
async function cellColours(page, n, which) {
  return page.$eval(`#vision .vision-${which} canvas.heatmap`, (canvas, cells) => {
    const ctx = canvas.getContext('2d');
    const { width, height } = canvas;
    const data = ctx.getImageData(0, 0, width, height).data;
    const out = [];
    for (let r = 0; r < cells; r++) {
      for (let c = 0; c < cells; c++) {
        const x = Math.floor(((c + 0.5) * width) / cells);
        const y = Math.floor(((r + 0.5) * height) / cells);
        const i = (y * width + x) * 4;
        out.push([data[i], data[i + 1], data[i + 2]]);
      }
    }
    return out;
  }, n);
}

/** Every drawn cell has the palette colour of the similarity computed here (±2 per channel). */
async function checkCells(page, n, wantAt, label, which = 'main') {
  const colours = await cellColours(page, n, which);
  assert.equal(colours.length, n * n);
  let bad = 0;
  let first = '';
  colours.forEach((rgb, i) => {
    const want = [0, 0, 0];
    divergingRgb(wantAt(Math.floor(i / n), i % n), 1, want, 0);
    if (want.some((w, k) => Math.abs(Math.round(w) - rgb[k]) > 2)) {
      bad++;
      first ||= `cell ${Math.floor(i / n)},${i % n}: drawn ${rgb}, want ${want.map(Math.round)}`;
    }
  });
  assert.equal(bad, 0, `${label}: ${bad} cells off; ${first}`);
}

async function downloadCsv(page, name) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.locator(`#vision button[data-table=${name}]`).click()]);
  const lines = (await downloaded(file)).toString('utf8').trim().split('\n');
  return lines.slice(1).map((l) => l.split(',').map(Number));
}

// [TESTS] ------------------------------------------------------------------------------------

test('2-D sin-cos: readouts and every drawn cell equal the cosine of MAE vectors computed here; second-patch sliders; grids', async () => {
  const page = await openStep(b, 'vision');
  // Defaults: sin-cos, 14 × 14, base 100, chosen (4, 5), second (9, 10).
  assert.deepEqual((await urlParams(page)), { step: 'vision', method: 'sincos', grid: '14', base: '100', train: '7', r: '4', c: '5', r2: '9', c2: '10' });
  const sc = (n, base, r, c) => (rr, cc) => cosine(sincosVector(r, c, base), sincosVector(rr, cc, base));
  await checkReadouts(page, { n: 14, r: 4, c: 5, r2: 9, c2: 10, vec: (rr, cc) => sincosVector(rr, cc, 100), label: 'default' });
  await checkCells(page, 14, sc(14, 100, 4, 5), 'default map');
  // Beside it the same grid with the patch number p = 14r + c encoded in 1-D.
  const flat = (p) => (rr, cc) => cosine(flatVector(p, 100), flatVector(rr * 14 + cc, 100));
  await checkCells(page, 14, flat(4 * 14 + 5), '1-D side map', 'side');
  // Only the offsets matter: (4, 5)→(9, 10) equals (0, 0)→(5, 5) computed here.
  assert.ok(Math.abs(sc(14, 100, 4, 5)(9, 10) - sc(14, 100, 0, 0)(5, 5)) < 1e-12);

  for (const [r2, c2] of [[0, 0], [4, 5], [13, 13], [4, 12], [11, 5]]) {
    await setSlider(page, 'vision', 'r2', r2);
    await setSlider(page, 'vision', 'c2', c2);
    await checkReadouts(page, { n: 14, r: 4, c: 5, r2, c2, vec: (rr, cc) => sincosVector(rr, cc, 100), label: `second (${r2}, ${c2})` });
  }
  // (4, 5)→(11, 5): Δr = 7, Δc = 0, so (16 + Σ_k cos(7 ω_k)) / 32 = 0.7272 at base 100.
  assert.equal((await read(page)).similarity.text, '0.727');

  // Base 10 000: the slow frequencies barely turn, every patch stays alike.
  await page.locator('#vision label', { hasText: '10,000' }).click();
  assert.equal((await urlParams(page)).base, '10000');
  await checkReadouts(page, { n: 14, r: 4, c: 5, r2: 11, c2: 5, vec: (rr, cc) => sincosVector(rr, cc, 10000), label: 'base 10000' });
  await checkCells(page, 14, sc(14, 10000, 4, 5), 'base 10000 map');

  // Each grid size; the second patch's sliders follow the grid.
  for (const n of [24, 7, 16]) {
    await page.locator('#vision .choice-item label', { hasText: `${n} × ${n}` }).first().click();
    const p = (await urlParams(page));
    assert.equal(p.grid, String(n));
    assert.equal(await page.getAttribute('#vision input[name=r2]', 'max'), String(n - 1));
    const [r, c, r2, c2] = [p.r, p.c, p.r2, p.c2].map(Number);
    assert.ok(Math.max(r, c, r2, c2) <= n - 1, `clamped into ${n} × ${n}: ${JSON.stringify(p)}`);
    await checkReadouts(page, { n, r, c, r2, c2, vec: (rr, cc) => sincosVector(rr, cc, 10000), label: `grid ${n}` });
    await checkCells(page, n, sc(n, 10000, r, c), `grid ${n} map`);
  }
  // 24 → 7 moved the second patch (11, 5) to (6, 5).
  assert.deepEqual([(await urlParams(page)).r2, (await urlParams(page)).c2], ['6', '5']);
  const times = await collectTimes(page);
  assert.ok(times.length >= 14, `every change was measured (${times.length})`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('clicking a patch chooses it, arrow keys move it; the map, readouts and URL follow', async () => {
  const page = await openStep(b, 'vision', 'grid=16&r=2&c=3&r2=15&c2=0');
  const canvas = page.locator('#vision .vision-main canvas.heatmap');
  const box = await canvas.boundingBox();
  const sc = (r, c) => (rr, cc) => cosine(sincosVector(r, c, 100), sincosVector(rr, cc, 100));
  const cell = box.width / 16;
  for (const [r, c] of [[7, 11], [0, 0], [15, 15], [9, 2]]) {
    await canvas.click({ position: { x: (c + 0.5) * cell, y: (r + 0.5) * cell } });
    assert.deepEqual([(await urlParams(page)).r, (await urlParams(page)).c], [String(r), String(c)]);
    await checkReadouts(page, { n: 16, r, c, r2: 15, c2: 0, vec: (rr, cc) => sincosVector(rr, cc, 100), label: `click (${r}, ${c})` });
  }
  await checkCells(page, 16, sc(9, 2), 'after clicks');
  // The hover line reads the cell under the pointer.
  const now = await canvas.boundingBox();  // the clicks may have scrolled the page
  await page.mouse.move(now.x + 4.5 * cell, now.y + 12.5 * cell);
  assert.equal(await page.textContent('#vision .vision-main .hover-readout'), `row 12, column 4: ${minus(sc(9, 2)(12, 4).toFixed(3))}`);

  // Keyboard: the chosen patch moves; Home and End go to the ends of its row.
  await canvas.focus();
  const moves = [['ArrowUp', 8, 2], ['ArrowUp', 7, 2], ['ArrowLeft', 7, 1], ['ArrowRight', 7, 2], ['End', 7, 15], ['ArrowRight', 7, 15], ['ArrowDown', 8, 15], ['Home', 8, 0], ['ArrowLeft', 8, 0]];
  for (const [key, r, c] of moves) {
    await page.keyboard.press(key);
    await checkReadouts(page, { n: 16, r, c, r2: 15, c2: 0, vec: (rr, cc) => sincosVector(rr, cc, 100), label: `${key} → (${r}, ${c})` });
    assert.equal(await page.textContent('#vision .vision-main .hover-readout'), `row ${r}, column ${c}: 1.000`);
  }
  assert.deepEqual((await urlParams(page)), { step: 'vision', method: 'sincos', grid: '16', base: '100', train: '7', r: '8', c: '0', r2: '15', c2: '0' });
  // The map's text alternative states the current numbers.
  const alt = await canvas.getAttribute('aria-label');
  assert.match(alt, /16 × 16/);
  assert.match(alt, /row 8, column 0/);
  assert.ok(alt.includes(minus(sc(8, 0)(15, 0).toFixed(3))), alt);
  await collectTimes(page);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('axial 2-D RoPE: the cosine of q and k rotated here pair by pair; at equal base it equals the 2-D sin-cos map', async () => {
  const page = await openStep(b, 'vision', 'method=rope&grid=14&base=100&r=6&c=1&r2=2&c2=12');
  const rope = (base, r, c) => (rr, cc) => cosine(ropeVector(r, c, base), ropeVector(rr, cc, base));
  await checkReadouts(page, { n: 14, r: 6, c: 1, r2: 2, c2: 12, vec: (rr, cc) => ropeVector(rr, cc, 100), label: 'rope' });
  await checkCells(page, 14, rope(100, 6, 1), 'rope map');
  assert.match(await page.textContent('#vision .vision-caption'), /RoPE/);
  // The same patches under 2-D sin-cos: the same numbers (computed here both ways, and shown).
  const ropeShown = await read(page);
  const ropeText = ropeShown.similarity.value;
  const sincos = cosine(sincosVector(6, 1, 100), sincosVector(2, 12, 100));
  assert.ok(Math.abs(rope(100, 6, 1)(2, 12) - sincos) < 1e-12);
  await page.locator('#vision label', { hasText: '2-D sin-cos' }).click();
  assert.equal((await urlParams(page)).method, 'sincos');
  const sincosShown = await read(page);
  assert.ok(Math.abs(sincosShown.similarity.value - ropeText) < 2e-6);
  // The dot products differ by |(0.6, 0.4)|² = 0.52, the length of each rotated pair.
  assert.ok(Math.abs(ropeShown.dot.value - 0.52 * sincosShown.dot.value) < 1e-5, `${ropeShown.dot.value} vs ${sincosShown.dot.value}`);
  await page.locator('#vision label', { hasText: 'axial 2-D RoPE' }).click();
  await page.locator('#vision label', { hasText: '10,000' }).click();
  for (const [r2, c2] of [[13, 13], [6, 1], [0, 7]]) {
    await setSlider(page, 'vision', 'r2', r2);
    await setSlider(page, 'vision', 'c2', c2);
    await checkReadouts(page, { n: 14, r: 6, c: 1, r2, c2, vec: (rr, cc) => ropeVector(rr, cc, 10000), label: `rope base 10000 (${r2}, ${c2})` });
  }
  await checkCells(page, 14, rope(10000, 6, 1), 'rope map, base 10000');
  // The training-grid choice is not shown for RoPE, the base is.
  assert.equal(await page.locator('#vision input[name=train]').count(), 0);
  assert.equal(await page.locator('#vision input[name=base]').count(), 2);
  // The side map: the patch numbers r·14 + c in a 1-D sinusoidal encoding (base 10 000 now).
  assert.match(await page.textContent('#vision .vision-side figcaption'), /row by row, p = r·14 \+ c/);
  const flat = (rr, cc) => cosine(flatVector(6 * 14 + 1, 10000), flatVector(rr * 14 + cc, 10000));
  await checkCells(page, 14, flat, '1-D side map', 'side');
  assert.ok((await page.getAttribute('#vision .vision-side canvas', 'aria-label')).includes(`has ${minus(flat(0, 7).toFixed(3))}`));
  await collectTimes(page);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('learned, resized: the trained 7 × 7 and 14 × 14 tables resized here bilinearly (align_corners=False) give the readouts and cells', async () => {
  // Shown at its own size, the resize is the identity: the vectors CSV is then the trained table.
  // The trained map and the Save CSV buttons are in the Go deeper fold: opened.
  const page = await openStep(b, 'vision', 'method=learned&train=7&grid=7&r=3&c=3&r2=0&c2=6&deeper=1');
  const trained7 = (await downloadCsv(page, 'vectors')).map((row) => row.slice(2));
  assert.equal(trained7.length, 49);
  assert.equal(await page.locator('#vision input[name=base]').count(), 0);
  assert.match(await page.textContent('#vision .vision-side figcaption'), /before resizing, 7 × 7/);
  const cosIn = (table) => (r, c, n) => (rr, cc) => cosine(table[r * n + c], table[rr * n + cc]);
  await checkReadouts(page, { n: 7, r: 3, c: 3, r2: 0, c2: 6, vec: (rr, cc) => trained7[rr * 7 + cc], dotDigits: 5, label: 'learned 7 at 7' });

  for (const n of [14, 16, 24]) {
    await page.locator('#vision .choice-item label', { hasText: `${n} × ${n}` }).first().click();
    const resized = bilinear(trained7, 7, n);
    const p = (await urlParams(page));
    const [r, c, r2, c2] = [p.r, p.c, p.r2, p.c2].map(Number);
    await checkReadouts(page, { n, r, c, r2, c2, vec: (rr, cc) => resized[rr * n + cc], dotDigits: 5, label: `7 → ${n}` });
    await checkCells(page, n, cosIn(resized)(r, c, n), `7 → ${n} map`);
    // The CSV holds the resized vectors the map was drawn from.
    const csv = (await downloadCsv(page, 'vectors')).map((row) => row.slice(2));
    let worst = 0;
    csv.forEach((v, i) => v.forEach((x, j) => { worst = Math.max(worst, Math.abs(x - resized[i][j])); }));
    assert.ok(worst < 1e-8, `7 → ${n}: resized vectors off by ${worst}`);
  }
  // The trained map beside it is the 7 × 7 table's own similarity, from the cell nearest (3, 3)
  // of 24 × 24: floor(3.5 · 7 / 24) = 1.
  assert.match(await page.textContent('#vision .vision-side figcaption'), /7 × 7.*row 1, column 1/);

  // Trained on 14 × 14 instead.
  await page.locator('#vision .choice-item label', { hasText: '14 × 14' }).last().click();
  assert.equal((await urlParams(page)).train, '14');
  await page.locator('#vision .choice-item label', { hasText: '14 × 14' }).first().click();
  const trained14 = (await downloadCsv(page, 'vectors')).map((row) => row.slice(2));
  await page.locator('#vision .choice-item label', { hasText: '24 × 24' }).first().click();
  await setSlider(page, 'vision', 'r2', 20);
  await setSlider(page, 'vision', 'c2', 1);
  const resized = bilinear(trained14, 14, 24);
  const { r, c } = (await urlParams(page));
  await checkReadouts(page, { n: 24, r: Number(r), c: Number(c), r2: 20, c2: 1, vec: (rr, cc) => resized[rr * 24 + cc], dotDigits: 5, label: '14 → 24' });
  await checkCells(page, 24, cosIn(resized)(Number(r), Number(c), 24), '14 → 24 map');
  // The similarity CSV is the map.
  const sims = await downloadCsv(page, 'similarity');
  assert.equal(sims.length, 24);
  assert.ok(Math.abs(sims[20][1 + 1] - cosIn(resized)(Number(r), Number(c), 24)(20, 1)) < 2e-6);
  await collectTimes(page);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the URL reopens the same state, and bad URL values are clamped into the grid, not an error page', async () => {
  const page = await openStep(b, 'vision', 'method=learned&grid=16&train=14&r=15&c=2&r2=0&c2=9');
  const url = await pageUrl(page);
  const state = await read(page);
  await page.close();
  const again = await b.newPage();
  await again.goto(url);
  await again.waitForSelector('body[data-ready=true]');
  await again.waitForSelector('#vision:not([hidden])');
  assert.deepEqual(await read(again), state);
  assert.equal(await again.inputValue('#vision input[name=c2]'), '9');
  assert.ok(await again.locator('#vision input[name=method][value=learned]').isChecked());
  await again.close();

  // Past the grid: clamped to its last row and column; unknown names fall back to the defaults.
  const bad = await openStep(b, 'vision', 'grid=7&r=20&c=-3&r2=99&c2=2.4&method=cnn&base=5&train=9');
  assert.deepEqual((await urlParams(bad)), { step: 'vision', method: 'sincos', grid: '7', base: '100', train: '7', r: '6', c: '0', r2: '6', c2: '2' });
  await checkReadouts(bad, { n: 7, r: 6, c: 0, r2: 6, c2: 2, vec: (rr, cc) => sincosVector(rr, cc, 100), label: 'clamped' });
  assert.equal(await bad.getAttribute('#vision input[name=r2]', 'max'), '6');
  assert.deepEqual(bad.errors, []);
  await bad.close();
  const junk = await openStep(b, 'vision', 'grid=abc&r=&c=Infinity&r2=1e9&c2=NaN');
  assert.deepEqual((await urlParams(junk)), { step: 'vision', method: 'sincos', grid: '14', base: '100', train: '7', r: '4', c: '5', r2: '13', c2: '10' });
  assert.deepEqual(junk.errors, []);
  await junk.close();
});
