// The 'learned' step in Chromium: the page shows the step's model (web/steps/learned/model.js,
// whose numbers tests/js/learned-model.test.js checks against its own copy of the core's stand-in
// generator and the formulas): the three tables' maps, the position slider running past the end
// of the table (a plain "no row" and the core's RangeError, while the sinusoidal and RoPE values
// go on), the table-size and parameter readouts, the bars, the CSV exports; the presets, the
// keys, a click on the map, the URL state and its clamping.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadPosenc } from '../../wasm/posenc.js';
import { learnedModel } from '../../web/steps/learned/model.js';
import { startBrowser } from './browser.js';
import { downloaded, heatmapHolds, openStep, pageUrl, percentile, readout, setSlider, updateTimes, urlParams } from './steps.js';
// The tables' sizes and how the page prints a number: shared with the cross-engine suite.
import { TABLES, fixed } from '../expect/learned.js';
import { divergingRgb } from '../../web/kit/palette.js';

const model = learnedModel(await loadPosenc({ simd: true }));
const ID = 'learned';

const close = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b}`);

let b;
before(async () => { b = await startBrowser(); });
after(async () => { await b?.close(); });

async function readAll(page) {
  const out = {};
  for (const name of ['row', 'size', 'params', 'sin', 'rope']) out[name] = await readout(page, ID, name);
  return out;
}

/** Checks every readout, the row bars and the failure box for (preset, pos). */
async function check(page, preset, pos) {
  const { T, d } = TABLES[preset];
  const want = model.readout({ preset, pos });
  const r = await readAll(page);
  const where = `${preset} pos ${pos}`;
  assert.equal(r.size.text, T.toLocaleString('en'), where);
  assert.equal(r.size.value, want.T);
  assert.equal(r.params.text, (T * d).toLocaleString('en'), where);
  assert.equal(r.params.value, want.params);
  assert.equal(r.sin.value, want.sinRow[0], `${where} sin`);
  assert.equal(r.sin.text, fixed(want.sinRow[0], 3), `${where} sin text`);
  assert.equal(r.rope.value, want.ropeRow[0], `${where} rope`);
  assert.equal(r.rope.text, fixed(want.ropeRow[0], 3), `${where} rope text`);
  const failure = page.locator(`#${ID} .learned-failure`);
  const bars = await page.$$eval(`#${ID} .learned-row rect.bar`, (rs) => rs.map((x) => ({
    cls: x.getAttribute('class'), y: Number(x.getAttribute('y')), height: Number(x.getAttribute('height')),
  })));
  assert.equal(bars.length, Math.min(d, 16), where);
  if (pos < T) {
    const { row } = want;
    assert.equal(r.row.value, row[0], `${where} row`);
    assert.equal(r.row.text, fixed(row[0], 4), `${where} row text`);
    assert.equal(await failure.isVisible(), false, where);
    // Bars to scale: height ∝ |value| (0.08 fills half the 200-unit drawing less its padding).
    bars.forEach((bar, c) => {
      if (Math.abs(row[c]) > 0.002) close(bar.height / Math.abs(row[c]), 82 / 0.08, 0.5, `${where} bar ${c}`);
      assert.match(bar.cls, /\ba\b/);
    });
  } else {
    assert.equal(r.row.text, 'no row', where);
    assert.ok(Number.isNaN(r.row.value), `${where}: no exact value for a row that does not exist`);
    assert.equal(await failure.isVisible(), true, where);
    const text = await failure.textContent();
    assert.match(text, new RegExp(`Position ${pos} is past the end of a ${T}-row table`));
    // The core's own error, as the model caught it.
    assert.ok(text.includes(`RangeError: ${want.error.message}`), `${where}: ${text}`);
    assert.match(await page.textContent(`#${ID} .learned-row svg`), new RegExp(`no row ${pos}`));
    for (const bar of bars) assert.match(bar.cls, /\bnone\b/);
  }
  // The formulas' bars: the sinusoid (b) and RoPE (c), grouped per dimension, to scale.
  const fb = await page.$$eval(`#${ID} .learned-formulas rect.bar`, (rs) => rs.map((x) => ({
    cls: x.getAttribute('class'), height: Number(x.getAttribute('height')),
  })));
  assert.equal(fb.length, 2 * Math.min(d, 16));
  for (let c = 0; c < Math.min(d, 16); c++) {
    for (const [k, values] of [[0, want.sinRow], [1, want.ropeRow]]) {
      const v = values[c];
      if (Math.abs(v) > 0.02) close(fb[2 * c + k].height / Math.abs(v), 82, 0.2, `${where} formula bar ${c}/${k}`);
    }
  }
  assert.equal(await page.inputValue(`#${ID} input[name=pos]`), String(pos));
  assert.equal(await page.getAttribute(`#${ID} input[name=pos]`, 'max'), String(T * 1.5 - 1));
  const { deeper, ...params } = await urlParams(page);  // the fold's state is download()'s
  assert.deepEqual(params, { step: ID, preset, pos: String(pos), trained: '0' });
}

async function download(page, name) {
  // The Save CSV buttons sit at the end of the Go deeper fold: opened as a reader would.
  const fold = page.locator(`#${ID} details.deeper`);
  if (!(await fold.evaluate((d) => d.open))) await fold.locator('summary').click();
  const [file] = await Promise.all([page.waitForEvent('download'), page.locator(`#${ID} button[data-table=${name}]`).click()]);
  return (await downloaded(file)).toString('utf8').trim().split('\n').map((l) => l.split(','));
}

test('the small table: rows inside it show the model’s; past row 15 the core refuses and the page says so', async () => {
  const page = await openStep(b, ID);
  await check(page, 'small', 12);
  assert.equal(await page.isChecked(`#${ID} input[name=preset][value=small]`), true);
  for (const pos of [15, 16, 7]) {
    await setSlider(page, ID, 'pos', pos);
    await check(page, 'small', pos);
  }
  assert.match(await page.textContent(`#${ID} .learned-band`), /no rows from position 16 on: the table ends at 15/);
  assert.match(await page.getAttribute(`#${ID} canvas.heatmap`, 'aria-label'), /16 rows and 8 columns.*current position, 7/);
  // Keyboard: End goes to the last position the slider offers, 1.5 × 16 − 1, which has no row.
  await page.locator(`#${ID} input[name=pos]`).focus();
  await page.keyboard.press('End');
  await check(page, 'small', 23);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Home');
  await check(page, 'small', 0);
  // A click on the map picks the row under the pointer (row 5 of 24).
  await page.locator(`#${ID} canvas.heatmap`).scrollIntoViewIfNeeded();
  const box = await page.locator(`#${ID} canvas.heatmap`).boundingBox();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height * (5.5 / 24));
  await check(page, 'small', 5);
  // The whole drawn table in the CSV: the model's 16 rows of 8 values.
  const csv = await download(page, 'table');
  assert.deepEqual(csv[0], ['pos', ...Array.from({ length: 8 }, (_, c) => `dim${c}`)]);
  assert.equal(csv.length, 17);
  const small = model.map('small').values;
  for (let p = 0; p < 16; p++) {
    assert.equal(Number(csv[p + 1][0]), p);
    for (let c = 0; c < 8; c++) assert.equal(Number(csv[p + 1][c + 1]), small[p * 8 + c], `csv row ${p} dim ${c}`);
  }
  const times = await updateTimes(page, ID);
  assert.ok(times.length >= 7, `${times.length} updates measured`);
  console.log(`# ${ID} small: ${times.length} updates, p95 ${percentile(times, 95).toFixed(2)} ms`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('GPT-2 and BERT: 1024 × 768 = 786,432 and 512 × 768 = 393,216 parameters; the edge at 1024 and 512', async () => {
  const page = await openStep(b, ID, 'preset=gpt2&pos=1000');
  await check(page, 'gpt2', 1000);
  for (const pos of [1023, 1024, 511]) {
    await setSlider(page, ID, 'pos', pos);
    await check(page, 'gpt2', pos);
  }
  assert.equal((await readout(page, ID, 'params')).text, '786,432');
  assert.match(await page.textContent(`#${ID} .heatmap-frame .axis-x`), /first 64 of 768/);
  // The row CSV at 511: all 768 learned values, the sinusoidal row and the RoPE-turned pairs.
  const rows = await download(page, 'row');
  assert.deepEqual(rows[0], ['dim', 'learned(511)', 'sinusoidal(511)', 'rope(511)']);
  assert.equal(rows.length, 769);
  const at511 = model.readout({ preset: 'gpt2', pos: 511 });
  for (let c = 0; c < 768; c++) {
    const [dim, l, sv, rv] = rows[c + 1].map(Number);
    assert.equal(dim, c);
    assert.equal(l, at511.row[c], `learned dim ${c}`);
    assert.equal(sv, at511.sinRow[c], `sinusoid dim ${c}`);
    assert.equal(rv, at511.ropeRow[c], `rope dim ${c}`);
  }
  // The drawn part of the table: the model's map, the first 64 columns of the 768-wide rows.
  const table = await download(page, 'table');
  assert.equal(table.length, 1025);
  assert.equal(table[0].length, 65);
  const gpt2 = model.map('gpt2').values;
  for (const p of [0, 1, 300, 777, 1023]) {
    for (let c = 0; c < 64; c++) assert.equal(Number(table[p + 1][c + 1]), gpt2[p * 64 + c], `table row ${p} dim ${c}`);
  }

  // Switching to BERT keeps the position where it fits and clamps it where it does not.
  await setSlider(page, ID, 'pos', 1200);
  await page.click(`#${ID} label[for^="ctl-preset-bert"]`);
  await check(page, 'bert', 767);
  assert.equal((await readout(page, ID, 'params')).text, '393,216');
  for (const pos of [511, 512]) {
    await setSlider(page, ID, 'pos', pos);
    await check(page, 'bert', pos);
  }
  await page.click(`#${ID} label[for^="ctl-preset-small"]`);
  await check(page, 'small', 23);
  // Arrow keys move between the presets.
  await page.locator(`#${ID} input[name=preset]:checked`).focus();
  await page.keyboard.press('ArrowRight');
  await check(page, 'bert', 23);
  const times = await updateTimes(page, ID);
  console.log(`# ${ID} gpt2/bert: ${times.length} updates, p95 ${percentile(times, 95).toFixed(2)} ms: ${times.map((t) => t.toFixed(1)).join(' ')}`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

// Each preset's map, shown again after the others (kept images, web/kit/heatmap.js): sampled
// pixels must show that preset's table on the step's colour scale (±0.06, its first 64
// dimensions, rows past the table 0). The three tables agree where they overlap (each row is
// seeded by its position alone), so another preset's image is caught by its shape (the row a
// pixel shows, where the zero band starts), and a cleared one by its transparent pixels. The
// switches start once the idle-time work is done, so each first switch to a preset shows the
// picture uploaded ahead (Heatmap.keep), not one made by the switch.
test('switching presets back and forth, the map always shows the table of the preset chosen', async () => {
  const page = await openStep(b, ID, 'preset=gpt2&pos=5');
  await page.waitForSelector('html:not([data-idle-work])', { state: 'attached' });
  for (const preset of ['gpt2', 'bert', 'small', 'gpt2', 'small', 'bert', 'gpt2', 'bert']) {
    await page.click(`#${ID} label[for^="ctl-preset-${preset}"]`);
    const { T, d } = TABLES[preset];
    const cols = Math.min(d, 64);
    const rows = T * 1.5;
    await page.waitForSelector(`#${ID} canvas.heatmap[data-grid="${rows}x${cols}"]`);
    const cells = [[0, 0], [1, cols - 1], [T >> 1, cols >> 1], [T - 1, 3], [T, 0], [rows - 1, cols - 1]];
    // The canvas holds one pixel per cell (steps.js heatmapHolds): each sampled cell's pixel.
    assert.ok(await page.$eval(`#${ID} canvas.heatmap`, heatmapHolds), `${preset}: the map is drawn`);
    const got = await page.$eval(`#${ID} canvas.heatmap`, (c, cells) => {
      const ctx = c.getContext('2d');
      return cells.map(([r, k]) => [...ctx.getImageData(k, r, 1, 1).data].slice(0, 3));
    }, cells);
    got.forEach((rgb, at) => {
      const [r, k] = cells[at];
      const value = model.map(preset).values[r * cols + k];
      const want = [0, 0, 0];
      divergingRgb(value, 0.06, want, 0);
      // The page colours through a lookup table of the scale: each channel within 1 of the rounded
      // formula (tests/js/heatmap-lookup.test.js), so within 1.5 of the formula itself.
      assert.ok(want.every((v, ch) => Math.abs(v - rgb[ch]) <= 1.5), `${preset}, cell (${r}, ${k}): ${rgb} against ${[...want]}`);
    });
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the URL reopens the same state, and bad values are clamped', async () => {
  const page = await openStep(b, ID, 'preset=bert&pos=600');
  await check(page, 'bert', 600);
  const url = await pageUrl(page);
  await page.close();
  const again = await b.newPage();
  await again.goto(url);
  await again.waitForSelector('body[data-ready=true]');
  await check(again, 'bert', 600);
  await again.close();

  for (const [query, preset, pos] of [
    ['preset=xyz&pos=99999', 'small', 23],   // unknown preset: the default; pos capped at 1.5 × 16 − 1
    ['preset=gpt2&pos=99999', 'gpt2', 1535],
    ['preset=bert&pos=-5', 'bert', 0],
    ['pos=abc', 'small', 12],
    ['preset=gpt2&pos=1023.6', 'gpt2', 1024],
  ]) {
    const p = await openStep(b, ID, query);
    await check(p, preset, pos);
    assert.deepEqual(p.errors, [], query);
    await p.close();
  }
});
