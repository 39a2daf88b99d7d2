// Save PNG of a heatmap keeps what the step lays over the canvas: ALiBi's hatched mask (the
// keys a causal query cannot see) and the learned table's hatched band (positions with no row)
// with the marker line. The test decodes the downloaded PNG and finds the hatching where the
// page shows it, with the stripe spacing the stylesheet gives it, and the plain map colours
// elsewhere, read from the page's own canvas.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { decodePng } from '../native/png.js';
import { startBrowser } from './browser.js';
import { downloaded, openStep } from './steps.js';

const OUT = new URL('../out/export-overlays/', import.meta.url);
let b;
before(async () => { b = await startBrowser(); });
after(async () => { await b?.close(); });

async function savedPng(page, button) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.locator(button).click()]);
  const bytes = await downloaded(file);
  await mkdir(OUT, { recursive: true });
  await writeFile(new URL(file.suggestedFilename(), OUT), bytes);  // to look at
  return decodePng(bytes);
}

const hex = (css) => css.trim().match(/^#(..)(..)(..)$/).slice(1).map((x) => parseInt(x, 16));
const pixel = (img, x, y) => [...img.data.subarray(4 * (Math.round(y) * img.width + Math.round(x)), 4 * (Math.round(y) * img.width + Math.round(x)) + 3)];
const dist = (p, q) => Math.max(...p.map((v, i) => Math.abs(v - q[i])));

/**
 * Along the row y from x0 to x1 of the image: the mean spacing of the stripes, a stripe being a
 * run of pixels nearer `stripe` than `ground`; also how many pixels matched each colour.
 */
function stripes(img, y, x0, x1, ground, stripe) {
  const centres = [];
  let start = null;
  let near = { ground: 0, stripe: 0 };
  for (let x = Math.ceil(x0); x <= Math.floor(x1); x++) {
    const p = pixel(img, x, y);
    const onStripe = dist(p, stripe) < dist(p, ground);
    if (dist(p, ground) <= 6) near.ground++;
    if (dist(p, stripe) <= 40) near.stripe++;
    if (onStripe && start === null) start = x;
    if (!onStripe && start !== null) {
      if (start > x0) centres.push((start + x - 1) / 2);  // a whole run, not one cut by the edge
      start = null;
    }
  }
  const gaps = centres.slice(1).map((c, i) => c - centres[i]);
  return { count: centres.length, spacing: gaps.reduce((s, g) => s + g, 0) / (gaps.length || 1), near };
}

test('ALiBi: the saved map has the hatched mask over the masked keys, the plain colours under the diagonal', async () => {
  const page = await openStep(b, 'alibi', 'deeper=1');  // the bias corner is in the Go deeper fold
  const canvas = page.locator('#alibi .alibi-map canvas.heatmap');
  const n = Number((await canvas.getAttribute('data-grid')).split('x')[0]);
  const box = await canvas.boundingBox();
  const img = await savedPng(page, '#alibi .alibi-map button[data-export=png]');
  assert.equal(img.width, Math.ceil(box.width * 2));
  const cell = img.width / n;
  const vars = await page.evaluate(() => ['--paper', '--axis'].map((v) => getComputedStyle(document.documentElement).getPropertyValue(v)));
  const [paper, axis] = vars.map(hex);
  // The pattern: one line every 0.5 cell across 45°, so 0.5·√2 cell apart along a row.
  const row = 1.5 * cell;  // row 1: keys 2..n-1 are masked
  const hatch = stripes(img, row, 2.2 * cell, (n - 0.2) * cell, paper, axis);
  assert.ok(hatch.count >= n, `${hatch.count} hatch lines across the masked keys`);
  assert.ok(Math.abs(hatch.spacing - 0.5 * Math.SQRT2 * cell) < 0.1 * cell, `hatch spacing ${hatch.spacing} px, cell ${cell} px`);
  assert.ok(hatch.near.ground > hatch.count && hatch.near.stripe > 0, JSON.stringify(hatch.near));
  // Below the diagonal the map's own colours, as the page's canvas has them.
  const onCanvas = await canvas.evaluate((el, n) => {
    const ctx = el.getContext('2d');
    const at = (r, c) => [...ctx.getImageData(Math.floor(((c + 0.5) / n) * el.width), Math.floor(((r + 0.5) / n) * el.height), 1, 1).data].slice(0, 3);
    return { low: at(n - 1, 0), masked: at(1, n - 2) };
  }, n);
  assert.ok(dist(pixel(img, 0.5 * cell, (n - 0.5) * cell), onCanvas.low) <= 3, 'an unmasked cell keeps its colour');
  // And the masked cell differs from the bare canvas there: the hatching is drawn over it.
  const masked = [0.2, 0.4, 0.6, 0.8].map((f) => pixel(img, (n - 2 + f) * cell, 1.5 * cell));
  assert.ok(masked.some((p) => dist(p, onCanvas.masked) > 20), 'the masked cell is hatched, not the bare canvas');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('learned: the saved map has the hatched band of missing rows and the position marker', async () => {
  for (const theme of ['light', 'dark']) {
    const page = await openStep(b, 'learned', `pos=3&theme=${theme}`);
    const canvas = page.locator('#learned .learned-map canvas.heatmap');
    const img = await savedPng(page, '#learned .learned-map button[data-export=png]');
    await page.locator('#learned .learned-band').scrollIntoViewIfNeeded();  // for the screenshot
    const box = await canvas.boundingBox();
    const band = await page.locator('#learned .learned-band').boundingBox();
    const label = await page.locator('#learned .learned-band-label').boundingBox();
    assert.equal(img.width, Math.ceil(box.width * 2));
    const [paper, line, ink] = (await page.evaluate(() => ['--paper', '--line', '--ink']
      .map((v) => getComputedStyle(document.documentElement).getPropertyValue(v)))).map(hex);
    // A row through the band below its label: 2 px stripes every 9 px across 135°, so 9·√2 px
    // apart along a row; the page's own rendering of the band (a screenshot) has the same.
    const y = (Math.max(label.y + label.height, band.y) - box.y + (band.y + band.height - box.y)) / 2;
    const saved = stripes(img, 2 * y, 4, img.width - 4, paper, line);
    const shot = decodePng(await page.screenshot({ clip: { x: box.x, y: box.y + y - 1, width: box.width, height: 3 } }));
    const screen = stripes(shot, 1, 2, shot.width - 2, paper, line);
    assert.ok(saved.count >= box.width / 14, `${theme}: ${saved.count} stripes in the saved band`);
    assert.ok(Math.abs(saved.spacing / 2 - 9 * Math.SQRT2) < 1, `${theme}: saved spacing ${saved.spacing / 2} CSS px`);
    assert.ok(Math.abs(screen.spacing - 9 * Math.SQRT2) < 1, `${theme}: on-screen spacing ${screen.spacing} px`);
    assert.ok(saved.near.ground > 0 && saved.near.stripe > 0, `${theme}: ${JSON.stringify(saved.near)}`);
    // The band's top edge is the ink line; above the band, the map (no stripes).
    assert.ok(dist(pixel(img, img.width / 2, 2 * (band.y - box.y) + 1), ink) <= 40, `${theme}: the band's top line`);
    // Above the band (away from the marker) the PNG has the canvas's own pixels.
    const fy = (band.y - box.y - 12) / box.height;
    const fxs = [0.1, 0.3, 0.5, 0.7, 0.9];
    const plain = await canvas.evaluate((el, { fxs, fy }) => {
      const ctx = el.getContext('2d');
      return fxs.map((fx) => [...ctx.getImageData(Math.floor(fx * el.width), Math.floor(fy * el.height), 1, 1).data].slice(0, 3));
    }, { fxs, fy });
    fxs.forEach((fx, i) => assert.ok(dist(pixel(img, fx * img.width, fy * img.height), plain[i]) <= 3,
      `${theme}: above the band at ${fx}: ${pixel(img, fx * img.width, fy * img.height)} vs the canvas's ${plain[i]}`));
    // The marker at position 3: an ink line across the map at row 3.
    const [rows] = (await canvas.getAttribute('data-grid')).split('x').map(Number);
    const markerY = 2 * ((3 + 0.5) / rows) * box.height;
    const column = [-2, -1, 0, 1, 2].map((d) => pixel(img, img.width / 3, markerY + d));
    assert.ok(column.some((p) => dist(p, ink) <= 40), `${theme}: the marker line at position 3`);
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

test('sinusoidal: the saved map has the selected cell\'s outline, which the page lays over the canvas', async () => {
  const page = await openStep(b, 'sinusoidal', 'pos=10&dim=4');
  const canvas = page.locator('#sinusoidal canvas.heatmap');
  const box = await canvas.boundingBox();
  const img = await savedPng(page, '#sinusoidal button[data-export=png]');
  assert.equal(img.width, Math.ceil(box.width * 2));
  // Cell (10, 4) of 50 × 20: its outline runs along the cell's edges, dark inside (#111) and
  // white just outside; the cell's middle keeps the map's colour.
  const cw = (2 * box.width) / 20;
  const ch = (2 * box.height) / 50;
  const left = 4 * cw;
  const mid = (10 + 0.5) * ch;
  assert.ok(dist(pixel(img, left + 1, mid), [17, 17, 17]) <= 40, `dark edge: ${pixel(img, left + 1, mid)}`);
  assert.ok(dist(pixel(img, left - 4, mid), [255, 255, 255]) <= 40, `light edge: ${pixel(img, left - 4, mid)}`);
  const inside = pixel(img, left + cw / 2, mid);
  assert.ok(dist(inside, [17, 17, 17]) > 40 && dist(inside, [255, 255, 255]) > 10, `the cell's own colour: ${inside}`);
  // A cell far from it has no outline: its left edge is the map's colour.
  const far = pixel(img, 15 * cw + 1, (40 + 0.5) * ch);
  assert.ok(dist(far, [17, 17, 17]) > 40 && dist(far, [255, 255, 255]) > 40, `no outline elsewhere: ${far}`);
  assert.deepEqual(page.errors, []);
  await page.close();
});
