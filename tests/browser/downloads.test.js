// Exports: every figure saves as a PNG of its own size, every table as a CSV whose numbers
// match values this test computes.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startBrowser } from './browser.js';
import { downloaded, openStep, setSlider, showStep } from './steps.js';
import { STEP_IDS } from './step-ids.js';

let b;
before(async () => { b = await startBrowser(); });
after(async () => { await b?.close(); });

// Every kind of figure the kit draws; a .rotations box is one figure of the diagrams inside it.
const FIGURES = 'canvas.heatmap, svg.lineplot, svg.bars, svg.logplot, svg.strips, svg.vectorplane, .rotations';

function pngSize(bytes) {
  assert.equal(bytes.subarray(1, 4).toString('latin1'), 'PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

async function download(page, locator) {
  const [file] = await Promise.all([page.waitForEvent('download'), locator.click()]);
  return { name: file.suggestedFilename(), bytes: await downloaded(file) };
}

test('every step offers a PNG for each figure and at least one CSV, and each PNG is a real picture', async () => {
  const page = await openStep(b, STEP_IDS[0]);  // one page, moved from step to step by its list
  for (const id of STEP_IDS) {
    await showStep(page, id);
    const pngButtons = page.locator(`#${id} button[data-export=png]`);
    assert.ok(await pngButtons.count() >= 1, `${id} has a figure to save`);
    // One button per figure the step shows: the figures register themselves (web/kit/figures.js),
    // and this finds them by their classes instead, so a figure that fails to register shows up.
    const figures = await page.$$eval(`#${id} :is(${FIGURES})`, (els) => els.filter((el) => !el.parentElement.closest('.rotations')).length);
    assert.equal(await pngButtons.count(), figures, `${id}: a Save PNG button for each of its ${figures} figures`);
    assert.ok(await page.locator(`#${id} button[data-export=csv]`).count() >= 1, `${id} has a table to save`);
    // A figure in the closed Go deeper fold (step 1 has all its drawings there) is saved from the
    // opened fold, as a reader would.
    if (await pngButtons.first().evaluate((el) => !!el.closest('details:not([open])'))) await page.locator(`#${id} details.deeper > summary`).click();
    const { name, bytes } = await download(page, pngButtons.first());
    assert.match(name, new RegExp(`^${id}-figure-1\\.png$`));
    const { width, height } = pngSize(bytes);
    assert.ok(width > 200 && height > 100, `${id}: ${width}×${height}`);
    assert.deepEqual(page.errors, [], id);
  }
  await page.close();
});

test('the RoPE pair diagrams save as the page shows them: after q moves, the PNG of a fresh page at that position', async () => {
  // The step redraws the diagrams (new SVGs) whenever a position moves; the PNG must take the
  // current ones, not those there when the button was made.
  const page = await openStep(b, 'rope', 'qpos=2&kpos=7');
  const button = '#rope .rotations + .figure-tools button[data-export=png]';
  const first = await download(page, page.locator(button));
  await setSlider(page, 'rope', 'qpos', 6);
  const moved = await download(page, page.locator(button));
  const fresh = await openStep(b, 'rope', 'qpos=6&kpos=7');
  const reference = await download(fresh, fresh.locator(button));
  assert.equal(moved.name, 'rope-figure-1.png');
  assert.ok(pngSize(moved.bytes).width > 200);
  assert.ok(!moved.bytes.equals(first.bytes), 'the diagrams changed with q');
  assert.ok(moved.bytes.equals(reference.bytes), 'the same picture as a page opened at qpos=6');
  assert.deepEqual([...page.errors, ...fresh.errors], []);
  await page.close();
  await fresh.close();
});

test('the sinusoidal table CSV holds sin/cos(pos·ω) for all 50 × 20 cells', async () => {
  // The Save CSV buttons of the six steps of the idea sit in their Go deeper fold: opened here.
  const page = await openStep(b, 'sinusoidal', 'deeper=1');
  const { name, bytes } = await download(page, page.locator('#sinusoidal button[data-table=table]'));
  assert.equal(name, 'sinusoidal-table.csv');
  const lines = bytes.toString('utf8').trim().split('\n');
  assert.equal(lines.length, 51);
  assert.equal(lines[0].split(',').length, 21);
  for (let pos = 0; pos < 50; pos++) {
    const cells = lines[pos + 1].split(',').map(Number);
    assert.equal(cells[0], pos);
    for (let dim = 0; dim < 20; dim++) {
      const w = 10000 ** (-(2 * Math.floor(dim / 2)) / 20);
      const want = dim % 2 ? Math.cos(pos * w) : Math.sin(pos * w);
      assert.ok(Math.abs(cells[dim + 1] - want) < 2e-6, `pos ${pos} dim ${dim}`);
    }
  }
  await page.close();
});

test('the compare CSV follows the current m and matches both dot products', async () => {
  const page = await openStep(b, 'compare', 'm=5&n=9&deeper=1');
  const { bytes } = await download(page, page.locator('#compare button[data-table=similarity]'));
  const rows = bytes.toString('utf8').trim().split('\n').slice(1).map((l) => l.split(',').map(Number));
  assert.equal(rows.length, 20);
  for (const [mm, n, sinDot, ropeDot] of rows) {
    assert.equal(mm, 5);
    const sum = [0, 1, 2, 3].reduce((acc, k) => acc + Math.cos((5 - n) * 10000 ** (-(2 * k) / 8)), 0);
    assert.ok(Math.abs(sinDot - sum) < 1e-9);
    assert.ok(Math.abs(ropeDot - 0.52 * sum) < 2e-6);
  }
  await page.close();
});
