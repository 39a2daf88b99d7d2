// The 'alibi' step in Chromium: the page shows what web/steps/alibi/model.js computes (the
// readouts' numbers and texts, the controls, the slope bars, the bias corner's labels, the weight
// plot's legend, the CSVs), the URL state and its clamping, clicks on bars and map, the keyboard.
//
// The numbers themselves (slopes, bias, weights, the share past training, the corner) are
// checked against the formulas in Node: tests/js/alibi-model.test.js. Here the expected values
// come from the same model run in Node on the SIMD build, as the page runs it in Chromium.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadPosenc } from '../../wasm/posenc.js';
import { alibiModel } from '../../web/steps/alibi/model.js';
import { startBrowser } from './browser.js';
import { downloaded, openStep, pageUrl, percentile, readout, setSlider, updateTimes, urlParams } from './steps.js';
import { fixed } from '../expect/alibi.js';

const ID = 'alibi';
const model = alibiModel(await loadPosenc({ simd: true }));
const close = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b}`);

let b;
before(async () => { b = await startBrowser(); });
after(async () => { await b?.close(); });

/** Every readout, the controls, the bars and the URL for a state: the model's values, shown. */
async function check(page, { heads, head, len, dist }) {
  const where = `heads ${heads} head ${head} len ${len} dist ${dist}`;
  const want = model.state({ heads, head, len, dist });
  const r = {};
  for (const name of ['slope', 'i', 'j', 'bias', 'prob', 'far']) r[name] = await readout(page, ID, name);
  for (const [name, value, digits] of [['slope', want.slope, 5], ['i', want.i, 0], ['j', want.j, 0], ['bias', want.b, 3], ['prob', want.p, 4], ['far', want.far, 4]]) {
    assert.equal(r[name].value, value, `${where} ${name}`);
    assert.equal(r[name].text, fixed(value, digits), `${where} ${name} text`);
  }

  for (const [name, value] of Object.entries({ head, len, dist })) {
    assert.equal(await page.inputValue(`#${ID} input[name=${name}]`), String(value), `${where} ${name} slider`);
  }
  assert.equal(await page.getAttribute(`#${ID} input[name=head]`, 'max'), String(heads));
  assert.equal(await page.getAttribute(`#${ID} input[name=dist]`, 'max'), String(len - 1));
  assert.equal(await page.isChecked(`#${ID} input[name=heads][value="${heads}"]`), true);
  const { deeper, ...params } = await urlParams(page);  // the fold is open where a test uses what is in it
  assert.deepEqual(params, { step: ID, heads: String(heads), head: String(head), len: String(len), dist: String(dist) });

  // One bar per head; the chosen one marked; tops on a log₂ scale: y = a − c·log₂(slope).
  const bars = await page.$$eval(`#${ID} .alibi-bars rect.bar`, (rs) => rs.map((x) => ({
    chosen: x.classList.contains('chosen'), y: Number(x.getAttribute('y')), head: Number(x.dataset.head),
  })));
  const all = Array.from(want.all);
  assert.equal(bars.length, heads);
  assert.deepEqual(bars.map((x) => x.chosen), all.map((_, k) => k === head - 1));
  assert.deepEqual(bars.map((x) => x.head), all.map((_, k) => k + 1));
  const perOctave = (bars[0].y - bars.at(-1).y) / (Math.log2(all.at(-1)) - Math.log2(all[0]) || 1);
  if (all[0] !== all.at(-1)) {
    bars.forEach((x, k) => close(x.y - bars[0].y, -perOctave * (Math.log2(all[k]) - Math.log2(all[0])), 1e-6, `${where} bar ${k}`));
  }
  return want;
}

test('8 heads: the readouts follow the head, the distance and the length; the corner and plot labels', async () => {
  const page = await openStep(b, ID);
  const state = { heads: 8, head: 1, len: 1024, dist: 3 };
  await check(page, state);
  for (const [name, value] of [['dist', 0], ['dist', 17], ['head', 8], ['dist', 1000], ['head', 3], ['len', 2048], ['dist', 2047], ['dist', 1536], ['head', 8], ['len', 32]]) {
    await setSlider(page, ID, name, value);
    state[name] = value;
    if (name === 'len') state.dist = Math.min(state.dist, value - 1);
    await check(page, state);
  }
  await setSlider(page, ID, 'len', 2048);
  await setSlider(page, ID, 'dist', 1500);
  await check(page, { heads: 8, head: 8, len: 2048, dist: 1500 });
  await setSlider(page, ID, 'len', 1536);
  await check(page, { heads: 8, head: 8, len: 1536, dist: 1500 });
  const corner = await page.getAttribute(`#${ID} canvas.heatmap`, 'aria-label');
  assert.match(corner, /queries and keys 1516 to 1535/);
  assert.match(await page.textContent(`#${ID} .alibi-map .axis-x`), /1516 to 1535/);
  // The weight plot: three heads (chosen, steepest, shallowest), the training mark at 1023.
  assert.equal(await page.locator(`#${ID} .alibi-plot path.series`).count(), 3);
  assert.match(await page.textContent(`#${ID} .alibi-plot .plot-legend`), /head 8 \(m = 0\.0039\).*steepest, head 1 \(m = 0\.5000\).*shallowest, head 8/);
  assert.match(await page.textContent(`#${ID} .alibi-plot svg`), /beyond training \(1024 tokens\)/);
  const times = await updateTimes(page, ID);
  assert.ok(times.length >= 13);
  console.log(`# ${ID}: ${times.length} updates, p95 ${percentile(times, 95).toFixed(2)} ms`);
  assert.deepEqual(page.errors, []);
  await updateTimes(page, ID);
  await page.close();
});

test('6, 32 and 112 heads: the heads control, the head clamped when the count shrinks, the slopes CSV', async () => {
  // The slopes' bars and the Save CSV buttons are in the Go deeper fold: opened.
  const page = await openStep(b, ID, 'heads=6&head=5&len=512&dist=9&deeper=1');
  await check(page, { heads: 6, head: 5, len: 512, dist: 9 });
  for (const head of [1, 4, 6]) {
    await setSlider(page, ID, 'head', head);
    await check(page, { heads: 6, head, len: 512, dist: 9 });
  }
  // BLOOM-176B: 112 heads; 64 from the series for 64, then 48 from every other of the 128-series.
  await page.click(`#${ID} label[for^="ctl-heads-112"]`);
  await check(page, { heads: 112, head: 6, len: 512, dist: 9 });
  for (const head of [1, 64, 65, 66, 112]) {
    await setSlider(page, ID, 'head', head);
    await check(page, { heads: 112, head, len: 512, dist: 9 });
  }
  // 32 heads (MPT-7B): the head is clamped when the count shrinks.
  await setSlider(page, ID, 'head', 100);
  await page.click(`#${ID} label[for^="ctl-heads-32"]`);
  await check(page, { heads: 32, head: 32, len: 512, dist: 9 });
  await page.locator(`#${ID} input[name=heads]:checked`).focus();
  await page.keyboard.press('ArrowLeft');
  await check(page, { heads: 8, head: 8, len: 512, dist: 9 });
  // The slopes CSV: 8 heads in order.
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(`#${ID} button[data-table=slopes]`)]);
  const lines = (await downloaded(file)).toString('utf8').trim().split('\n');
  assert.equal(lines[0], 'head,slope');
  assert.deepEqual(lines.slice(1).map((l) => l.split(',').map(Number)), Array.from(model.slopes(8), (v, k) => [k + 1, v]));
  assert.deepEqual(page.errors, []);
  await updateTimes(page, ID);
  await page.close();
});

test('the row CSV, shrinking the length clamps the distance, clicks on bars and map, the URL round trip', async () => {
  // The slopes' bars, the bias corner and the Save CSV buttons are in the Go deeper fold: opened.
  const page = await openStep(b, ID, 'heads=8&head=2&len=640&dist=600&deeper=1');
  await check(page, { heads: 8, head: 2, len: 640, dist: 600 });
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(`#${ID} button[data-table=row]`)]);
  const rows = (await downloaded(file)).toString('utf8').trim().split('\n');
  assert.equal(rows[0], 'key_j,distance,bias,probability');
  assert.equal(rows.length, 641);
  const { bias, prob } = model.state({ heads: 8, head: 2, len: 640, dist: 600 });
  for (let jj = 0; jj < 640; jj++) {
    assert.deepEqual(rows[jj + 1].split(',').map(Number), [jj, 639 - jj, bias[jj] || 0, prob[jj]], `row ${jj}`);
  }
  await setSlider(page, ID, 'len', 320);
  await check(page, { heads: 8, head: 2, len: 320, dist: 319 });
  // A click on a slope bar picks that head; a click in the bias corner picks a distance.
  await page.locator(`#${ID} .alibi-bars rect.bar[data-head="5"]`).click();
  await check(page, { heads: 8, head: 5, len: 320, dist: 319 });
  const canvas = page.locator(`#${ID} canvas.heatmap`);
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  await page.mouse.click(box.x + box.width * (14.5 / 20), box.y + box.height * (19.5 / 20));  // row 19, col 14
  await check(page, { heads: 8, head: 5, len: 320, dist: 5 });
  const url = await pageUrl(page);
  await updateTimes(page, ID);
  await page.close();
  const again = await b.newPage();
  await again.goto(url);
  await again.waitForSelector('body[data-ready=true]');
  await check(again, { heads: 8, head: 5, len: 320, dist: 5 });
  assert.deepEqual(again.errors, []);
  await updateTimes(again, ID);
  await again.close();
});

test('bad URL values are clamped: unknown head counts, heads past the count, lengths off the grid', async () => {
  for (const [query, state] of [
    ['heads=7&head=3', { heads: 8, head: 3, len: 1024, dist: 3 }],
    ['heads=6&head=50&len=5000&dist=9999', { heads: 6, head: 6, len: 2048, dist: 2047 }],
    ['heads=32&head=0&len=1000&dist=-4', { heads: 32, head: 1, len: 992, dist: 0 }],
    ['len=abc&dist=2.4&head=Infinity', { heads: 8, head: 1, len: 1024, dist: 2 }],
    ['len=40&dist=100', { heads: 8, head: 1, len: 32, dist: 31 }],
  ]) {
    const page = await openStep(b, ID, query);
    await check(page, state);
    assert.deepEqual(page.errors, [], query);
    await updateTimes(page, ID);
    await page.close();
  }
});
