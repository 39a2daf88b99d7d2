// The page in headless Chromium: it loads the core, draws the sinusoidal heatmap computed by
// it, and its readout and pixels agree with values this test computes itself.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { divergingRgb } from '../../web/kit/palette.js';
import { startBrowser } from './browser.js';

let b;
before(async () => { b = await startBrowser(); });
after(async () => { await b?.close(); });

// PE[pos, 2i] = sin(pos * base^(-2i/d)), PE[pos, 2i+1] = cos(same), in float64.
function pe(pos, col, d, base = 10000) {
  const w = Math.exp(-(2 * Math.floor(col / 2)) * Math.log(base) / d);
  return col % 2 === 0 ? Math.sin(pos * w) : Math.cos(pos * w);
}

async function open(query = '') {
  const page = await b.newPage();
  await page.goto(`${b.url}${query}`);
  await page.waitForSelector('body[data-ready=true]', { timeout: 15000 });
  return page;
}

// Points at the centre of cell (row, col); hover() scrolls the canvas into view first.
async function hoverCell(page, row, col, rows, cols) {
  const canvas = page.locator('#table-heatmap');
  const box = await canvas.boundingBox();
  await canvas.hover({ position: { x: ((col + 0.5) * box.width) / cols, y: ((row + 0.5) * box.height) / rows } });
}

test('the page loads the SIMD core and reports it', async () => {
  const page = await open();
  assert.equal(await page.getAttribute('body', 'data-simd'), 'true');
  assert.match(await page.textContent('#engine'), /SIMD/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('hovering a heatmap cell shows the value sin/cos(pos·ω) computed here', async () => {
  const page = await open('?positions=40&dmodel=16');
  for (const [row, col] of [[10, 4], [3, 1], [39, 15], [0, 0], [25, 7]]) {
    await hoverCell(page, row, col, 40, 16);
    const value = Number(await page.getAttribute('[data-readout=cell]', 'data-value'));
    assert.ok(Math.abs(value - pe(row, col, 16)) < 2e-6, `cell ${row},${col}: ${value} vs ${pe(row, col, 16)}`);
    assert.match(await page.textContent('[data-readout=cell]'), new RegExp(`pos ${row}, dim ${col}:`));
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the heatmap pixels carry the palette colour of the computed value', async () => {
  const page = await open('?positions=20&dmodel=8&base=100');
  const rows = 20, cols = 8;
  const samples = [];
  for (let row = 0; row < rows; row += 3) for (let col = 0; col < cols; col++) samples.push([row, col]);
  const pixels = await page.evaluate(({ samples, rows, cols }) => {
    const c = document.getElementById('table-heatmap');
    const ctx = c.getContext('2d');
    return samples.map(([r, k]) => Array.from(ctx.getImageData(
      Math.floor(((k + 0.5) * c.width) / cols), Math.floor(((r + 0.5) * c.height) / rows), 1, 1).data));
  }, { samples, rows, cols });
  samples.forEach(([row, col], i) => {
    const want = [0, 0, 0];
    divergingRgb(pe(row, col, 8, 100), 1, want, 0);
    for (let ch = 0; ch < 3; ch++) {
      assert.ok(Math.abs(pixels[i][ch] - want[ch]) <= 2, `cell ${row},${col} channel ${ch}: ${pixels[i][ch]} vs ${want[ch]}`);
    }
  });
  await page.close();
});

test('moving a slider redraws the table and writes the state into the URL', async () => {
  const page = await open();
  await page.locator('[name=dmodel]').fill('32');
  assert.equal(await page.textContent('[data-readout=dmodel]'), '32');
  assert.match(page.url(), /dmodel=32/);
  await hoverCell(page, 7, 31, 50, 32);
  const value = Number(await page.getAttribute('[data-readout=cell]', 'data-value'));
  assert.ok(Math.abs(value - pe(7, 31, 32)) < 2e-6);
  await page.close();
});

test('out-of-range and malformed URL values are clamped, not an error page', async () => {
  const page = await open('?positions=99999&dmodel=abc&base=-5');
  assert.equal(await page.textContent('[data-readout=positions]'), '512');
  assert.equal(await page.textContent('[data-readout=dmodel]'), '20');
  assert.equal(await page.inputValue('[name=base]'), '2');
  assert.deepEqual(page.errors, []);
  await page.close();
});
