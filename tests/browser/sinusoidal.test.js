// Step 2 in Chromium: the page shows the step's model (web/steps/sinusoidal/model.js, whose
// numbers tests/js/sinusoidal-model.test.js checks against the formula): the heatmap's pixels,
// the readouts, the hover line; the sliders, the keys and the URL.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadPosenc } from '../../wasm/posenc.js';
import { divergingRgb } from '../../web/kit/palette.js';
import { D, sinusoidalModel } from '../../web/steps/sinusoidal/model.js';
import { startBrowser } from './browser.js';
import { openStep, readout, setSlider, showStep, updateTimes, urlParams, minus } from './steps.js';

const model = sinusoidalModel(await loadPosenc({ simd: true }));
const pe = (pos, dim) => model.readout({ pos, dim }).value;

let b;
before(async () => { b = await startBrowser(); });
after(async () => { await b?.close(); });

test("the seed's state pos 10, dim 4 reads angle 1.58 and value 1.000", async () => {
  const page = await openStep(b, 'sinusoidal', 'pos=10&dim=4');
  const angle = await readout(page, 'sinusoidal', 'angle');
  const value = await readout(page, 'sinusoidal', 'value');
  assert.equal(angle.text, '1.58');
  assert.equal(value.text, '1.000');
  const want = model.readout({ pos: 10, dim: 4 });
  assert.equal(angle.value, want.angle);
  assert.equal(value.value, want.value);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('every slider position gives the model’s readouts', async () => {
  const page = await openStep(b, 'sinusoidal');
  for (const [pos, dim] of [[0, 0], [0, 1], [49, 19], [7, 3], [33, 12], [25, 18]]) {
    await setSlider(page, 'sinusoidal', 'pos', pos);
    await setSlider(page, 'sinusoidal', 'dim', dim);
    const angle = await readout(page, 'sinusoidal', 'angle');
    const value = await readout(page, 'sinusoidal', 'value');
    const want = model.readout({ pos, dim });
    assert.equal(angle.value, want.angle, `pos ${pos} dim ${dim}: angle`);
    assert.equal(value.value, want.value, `pos ${pos} dim ${dim}: value`);
    assert.equal(value.text, minus(want.value.toFixed(3).replace('-0.000', '0.000')));
    assert.deepEqual((await urlParams(page)), { step: 'sinusoidal', pos: String(pos), dim: String(dim) });
  }
  const times = await updateTimes(page, 'sinusoidal');
  assert.ok(times.length >= 12, 'every slider move was measured');
  await page.close();
});

test('arrow keys on the focused heatmap move the selected cell and the sliders', async () => {
  const page = await openStep(b, 'sinusoidal', 'pos=10&dim=4');
  await page.locator('#sinusoidal canvas.heatmap').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.inputValue('#sinusoidal input[name=pos]'), '11');
  assert.equal(await page.inputValue('#sinusoidal input[name=dim]'), '6');
  const value = await readout(page, 'sinusoidal', 'value');
  assert.equal(value.value, pe(11, 6));
  await page.close();
});

test('the selected cell and the hovered one are outlined over the canvas: moving them leaves the map\'s pixels alone', async () => {
  const page = await openStep(b, 'sinusoidal', 'pos=10&dim=4');
  const canvas = page.locator('#sinusoidal canvas.heatmap');
  const mapPixels = () => canvas.evaluate((c) => {
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let hash = 0;
    for (let i = 0; i < data.length; i++) hash = (Math.imul(hash, 31) + data[i]) | 0;
    return hash;
  });
  // Each outline's dark rectangle against the cell's box, both in page px.
  const outline = (kind) => page.evaluate((k) => {
    const r = document.querySelector(`#sinusoidal .heatmap-marks .heatmap-mark.${k}.dark`);
    if (!r || r.getAttribute('display') === 'none') return null;
    const { x, y, width, height } = r.getBoundingClientRect();
    return { x, y, width, height, line: Number(r.getAttribute('stroke-width')) };
  }, kind);
  const cellBox = async (row, col) => {
    const box = await canvas.boundingBox();
    return { x: box.x + (col * box.width) / 20, y: box.y + (row * box.height) / 50, width: box.width / 20, height: box.height / 50 };
  };
  // The rectangle's own box (a stroke is not in it) and its line width.
  const near = (got, want, line) => ['x', 'y', 'width', 'height'].every((k) => Math.abs(got[k] - want[k]) < 0.6) && got.line === line;
  const before = await mapPixels();
  let got = await outline('selected');
  assert.ok(got && near(got, await cellBox(10, 4), 2.5), `selected outline ${JSON.stringify(got)} vs cell ${JSON.stringify(await cellBox(10, 4))}`);
  await setSlider(page, 'sinusoidal', 'pos', 37);
  await setSlider(page, 'sinusoidal', 'dim', 15);
  got = await outline('selected');
  assert.ok(got && near(got, await cellBox(37, 15), 2.5), `after the sliders: ${JSON.stringify(got)}`);
  assert.equal(await mapPixels(), before, 'the canvas pixels changed with the selection (an outline drawn into the map)');
  // The mouse's cursor: an outline on the cell under it, gone when the mouse leaves.
  await canvas.scrollIntoViewIfNeeded();
  const cell = await cellBox(20, 7);
  await page.mouse.move(cell.x + cell.width / 2, cell.y + cell.height / 2);
  got = await outline('cursor');
  assert.ok(got && near(got, cell, 1.25), `cursor outline ${JSON.stringify(got)} vs ${JSON.stringify(cell)}`);
  await page.mouse.move(5, 5);
  assert.equal(await outline('cursor'), null, 'the cursor outline stays after the mouse left');
  assert.equal(await mapPixels(), before, 'the canvas pixels changed under the cursor');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the heatmap pixels carry the palette colour of each of the model’s values', async () => {
  const page = await openStep(b, 'sinusoidal');
  const samples = [];
  for (let row = 1; row < 50; row += 6) for (let col = 0; col < D; col += 3) samples.push([row, col]);
  const pixels = await page.evaluate((cells) => {
    const c = document.querySelector('#sinusoidal canvas.heatmap');
    const ctx = c.getContext('2d');
    // Sample a quarter into the cell.
    return cells.map(([r, k]) => Array.from(ctx.getImageData(
      Math.floor(((k + 0.25) * c.width) / 20), Math.floor(((r + 0.25) * c.height) / 50), 1, 1).data));
  }, samples);
  samples.forEach(([row, col], i) => {
    const want = [0, 0, 0];
    divergingRgb(pe(row, col), 1, want, 0);
    for (let ch = 0; ch < 3; ch++) {
      assert.ok(Math.abs(pixels[i][ch] - want[ch]) <= 2, `cell ${row},${col} channel ${ch}: ${pixels[i][ch]} vs ${want[ch]}`);
    }
  });
  await page.close();
});

test('hovering a cell reports its value', async () => {
  const page = await openStep(b, 'sinusoidal');
  const canvas = page.locator('#sinusoidal canvas.heatmap');
  const box = await canvas.boundingBox();
  await canvas.hover({ position: { x: (15.5 * box.width) / 20, y: (30.5 * box.height) / 50 } });
  const text = await page.textContent('#sinusoidal .hover-readout');
  assert.match(text, /position 30, dimension 15: (-?\d\.\d{4})/);
  const shown = Number(text.match(/: (-?\d\.\d{4})/)[1]);
  assert.ok(Math.abs(shown - pe(30, 15)) < 6e-5);
  await page.close();
});

test('out-of-range and malformed URL values are clamped, not an error page', async () => {
  const page = await openStep(b, 'sinusoidal', 'pos=9999&dim=-3');
  assert.equal(await page.inputValue('#sinusoidal input[name=pos]'), '49');
  assert.equal(await page.inputValue('#sinusoidal input[name=dim]'), '0');
  await page.close();
  const page2 = await openStep(b, 'sinusoidal', 'pos=abc&dim=4.6');
  assert.equal(await page2.inputValue('#sinusoidal input[name=pos]'), '10');
  assert.equal(await page2.inputValue('#sinusoidal input[name=dim]'), '5');
  assert.deepEqual(page2.errors, []);
  await page2.close();
});

test('leaving the step and coming back: the heatmap keeps its canvas size and its picture', async () => {
  const page = await openStep(b, 'sinusoidal', '', { whole: true });
  const twoFrames = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  // The canvas's pixel size and a checksum of its pixels.
  const state = () => page.evaluate(() => {
    const c = document.querySelector('#sinusoidal canvas.heatmap');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let sum = 0;
    for (let i = 0; i < d.length; i += 7) sum = (sum * 31 + d[i]) >>> 0;
    return { width: c.width, height: c.height, sum };
  });
  await twoFrames();
  const shown = await state();
  await showStep(page, 'frequencies');
  await twoFrames();
  assert.deepEqual(await state(), shown, 'while the step is hidden');
  await showStep(page, 'sinusoidal');
  await twoFrames();
  assert.deepEqual(await state(), shown, 'shown again');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the notes name d as the table has it, define ωᵢ for the angle card, and explain the stripes', async () => {
  const page = await openStep(b, 'sinusoidal');
  // The heatmap's columns are the table's dimensions: the notes give the same d.
  const columns = await page.$$eval('#sinusoidal .controls input[type=range]', (rs) => Math.min(...rs.map((r) => Number(r.max))) + 1);
  assert.equal(columns, D);
  // (No-break spaces glue a formula's operator to its neighbours: read them as spaces.)
  const notes = (await page.textContent('#sinusoidal .notes')).replace(/\u00a0/g, ' ');
  assert.ok(notes.includes(`d = ${columns}`), `notes say d = ${columns}`);
  assert.ok(notes.includes('frequency ωᵢ'), 'ωᵢ is defined in the notes');
  // The angle and its divisor are MathML in the sentence (students read "10000^(2i/d)" as raw
  // text), and the card names the same angle.
  assert.deepEqual(await page.$$eval('#sinusoidal .notes math.math-inline', (ms) => ms.map((x) => x.textContent.replace(/\s+/g, ''))),
    ['pos·ωi=pos/100002i/d']);
  assert.match((await page.textContent('#sinusoidal .readouts')).replace(/\s+/g, ''), /Anglepos·ωi/);
  // One image for the counter, in step 3: step 2 no longer says "not a binary code"; the fold
  // says where its stripes come from.
  assert.doesNotMatch(notes, /binary/);
  assert.match(await page.textContent('#sinusoidal .deeper-body'), /hence the stripes/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

// The axis numbers sit on their rows and columns at a desktop width too, where the map is capped
// in height and its tools sit below it (numbers laid out over the whole frame drifted 25 px).
test('the map numbers its rows and columns, each centred on its own row or column, on a wide screen', async () => {
  const page = await openStep(b, 'sinusoidal');
  const r = await page.$eval('#sinusoidal canvas.heatmap', (canvas) => {
    const box = canvas.getBoundingClientRect();
    const marks = (cls) => [...document.querySelectorAll(`#sinusoidal .${cls} > span`)].map((t) => {
      const b = t.getBoundingClientRect();
      return { n: Number(t.textContent), cx: b.x + b.width / 2, cy: b.y + b.height / 2 };
    });
    return { box: { x: box.x, y: box.y, w: box.width, h: box.height }, x: marks('ticks-x'), y: marks('ticks-y') };
  });
  assert.deepEqual(r.x.map((t) => t.n), [0, 5, 10, 15, 19]);
  assert.deepEqual(r.y.map((t) => t.n), [0, 10, 20, 30, 40, 49]);
  for (const t of r.x) assert.ok(Math.abs(t.cx - (r.box.x + ((t.n + 0.5) / 20) * r.box.w)) < 1 && t.cy < r.box.y, `column ${t.n}`);
  for (const t of r.y) assert.ok(Math.abs(t.cy - (r.box.y + ((t.n + 0.5) / 50) * r.box.h)) < 1 && t.cx < r.box.x, `row ${t.n}`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

