// Step 'nope' in Chromium: the page shows what web/steps/nope/model.js computes (here run in
// Node on the SIMD build, as the page runs it): the readouts, the weight matrix, the plot of
// token 0's share and the gap, the reordering test's table and output; the controls, the
// keyboard, the URL and its clamping, the phone width. The model's numbers against 1/(i + 1),
// 1/n and a float64 softmax are tests/js/nope-model.test.js.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startBrowser } from './browser.js';
import { openStep, readout, setSlider, updateTimes, urlParams, pageUrl } from './steps.js';
import { f2, f3 } from '../expect/nope.js';
import { loadPosenc } from '../../wasm/posenc.js';
import { WORDS, nopeModel } from '../../web/steps/nope/model.js';

const model = nopeModel(await loadPosenc({ simd: true }));

const ID = 'nope';
let b;
before(async () => { b = await startBrowser(); });
after(async () => { await b?.close(); });

/** Every readout and the matrix for a state: the model's values, shown. */
async function check(page, len, i, causal) {
  const where = `len ${len} i ${i} causal ${causal}`;
  const want = model.state({ len, query: i, causal });
  for (const [name, value, text] of [['share', want.share, f3(want.share)], ['decoded', want.decoded, String(Math.round(want.decoded))],
    ['gap', want.gap, f3(want.gap)], ['rows', want.rowCount, String(want.rowCount)]]) {
    const r = await readout(page, ID, name);
    assert.equal(r.value, value, `${where}: ${name}`);
    assert.equal(r.text, text, `${where}: ${name} text`);
  }
  // The matrix: len × len cells, masked ones shown as '·'.
  const cells = await page.$$eval(`#${ID} .matrix-table [data-readout^="w-"]`, (els) => els.map((e) => ({
    name: e.dataset.readout, value: Number(e.dataset.value), text: e.textContent,
  })));
  assert.equal(cells.length, len * len);
  for (const c of cells) {
    const [, r, col] = c.name.split('-').map(Number);
    const w = want.w[r * len + col];
    assert.equal(c.value, w, `${where}: ${c.name}`);
    assert.equal(c.text, w === 0 ? '·' : f2(w), c.name);
  }
  // Row and column labels 0 … len − 1, however the length got there (the table grows and
  // shrinks in place).
  const labels = Array.from({ length: len }, (_, k) => String(k));
  assert.deepEqual(await page.$$eval(`#${ID} .matrix-table thead th`, (ths) => ths.slice(1).map((t) => t.textContent)), labels);
  assert.deepEqual(await page.$$eval(`#${ID} .matrix-table tbody th[scope=row]`, (ths) => ths.map((t) => t.textContent)), labels);
  // Each row holds its label and len cells, and the cell in row r, column c reads out w-r-c.
  assert.deepEqual(await page.$$eval(`#${ID} .matrix-table tbody tr`, (trs) => trs.map((tr) => tr.cells.length)), labels.map(() => len + 1));
  const names = await page.$$eval(`#${ID} .matrix-table tbody tr`, (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.querySelector('[data-readout]').dataset.readout)));
  assert.deepEqual(names, labels.map((r) => labels.map((c) => `w-${r}-${c}`)));
  // The query's row is outlined; the query slider stops at len − 1.
  assert.equal(await page.locator(`#${ID} .matrix-table tbody tr.current th`).textContent(), String(i));
  assert.equal(await page.getAttribute(`#${ID} input[name=query]`, 'max'), String(len - 1));
  assert.equal(await page.inputValue(`#${ID} input[name=query]`), String(i));
}

test('the default state: six identical tokens, query 3 gives token 0 a quarter and reads back 3', async () => {
  const page = await openStep(b, ID);
  assert.deepEqual((await urlParams(page)), { step: ID, len: '6', query: '3', causal: '1', shuffle: '0' });
  await check(page, 6, 3, true);
  assert.equal((await readout(page, ID, 'share')).text, '0.250');
  assert.equal((await readout(page, ID, 'gap')).text, '0.050');
  assert.match(await page.textContent(`#${ID} .nope-formula`), /0\.250/);
  // Every row differs from every other with the mask.
  const rows = await page.$$eval(`#${ID} .matrix-table tbody tr`, (trs) => trs.map((tr) => tr.textContent));
  assert.equal(new Set(rows).size, 6);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('length, query and mask: readouts and matrix follow the controls; without the mask every cell shows the same', async () => {
  const page = await openStep(b, ID);
  const moves = [[6, 0, true], [6, 5, true], [16, 15, true], [16, 10, true], [2, 1, true], [9, 4, false], [16, 15, false], [3, 2, false], [12, 7, true]];
  for (const [len, i, causal] of moves) {
    await setSlider(page, ID, 'len', len);
    await setSlider(page, ID, 'query', i);
    if ((await page.isChecked(`#${ID} input[name=causal]`)) !== causal) await page.locator(`#${ID} input[name=causal]`).click();
    await check(page, len, i, causal);
    assert.deepEqual((await urlParams(page)), { step: ID, len: String(len), query: String(i), causal: causal ? '1' : '0', shuffle: '0' });
    if (!causal) {
      const rows = await page.$$eval(`#${ID} .matrix-table tbody tr td`, (tds) => tds.map((t) => t.textContent));
      assert.equal(new Set(rows).size, 1, 'every cell the same without the mask');
    }
  }
  // Shortening the sequence below the query pulls the query back to the last position.
  await setSlider(page, ID, 'len', 5);
  await check(page, 5, 4, true);
  assert.equal((await urlParams(page)).query, '4');
  const times = await updateTimes(page, ID);
  assert.ok(times.length >= moves.length * 2, `${times.length} updates measured`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the gap between neighbours on the readout and on the plot', async () => {
  const page = await openStep(b, ID, 'len=16&query=0');
  const { shares: wantShares, gaps: wantGaps } = model.state({ len: 16, query: 0, causal: true });
  for (const i of [0, 1, 2, 5, 10, 15]) {
    await setSlider(page, ID, 'query', i);
    assert.equal((await readout(page, ID, 'gap')).value, wantGaps[i], `i ${i}`);
  }
  assert.equal((await readout(page, ID, 'gap')).text, '0.004');  // 1/16 − 1/17
  // The plot: token 0's share as dots and the gap as a dashed line, 16 points each, heights
  // linear in the values; the big marker on the query's share.
  const series = await page.$$eval(`#${ID} .nope-plot path.series`, (ps) => ps.map((p) =>
    p.getAttribute('d').slice(1).split('L').map((xy) => xy.split(',').map(Number))));
  assert.equal(series.length, 2);
  const [shares, gaps] = series;
  assert.equal(shares.length, 16);
  assert.equal(gaps.length, 16);
  const y0 = shares[0][1];                     // share 1 at i = 0
  const yZero = y0 + (shares[1][1] - y0) * 2;  // share 0.5 at i = 1, so zero lies twice as far
  // Heights linear in the values: zero where share 1 at i = 0 and share 1/2 at i = 1 put it.
  const unit = (yZero - y0) / wantShares[0];
  assert.ok(Math.abs((yZero - shares[1][1]) / unit - wantShares[1]) < 1e-3, 'share point 1');
  shares.forEach(([, y], i) => assert.ok(Math.abs((yZero - y) / unit - wantShares[i]) < 1e-3, `share point ${i}`));
  gaps.forEach(([, y], i) => assert.ok(Math.abs((yZero - y) / unit - wantGaps[i]) < 1e-3, `gap point ${i}`));
  const marker = await page.$eval(`#${ID} .nope-plot circle.marker`, (c) => [Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))]);
  assert.ok(Math.abs(marker[0] - shares[15][0]) < 0.01 && Math.abs(marker[1] - shares[15][1]) < 0.01);
  assert.match(await page.getAttribute(`#${ID} .nope-plot svg`, 'aria-label'), /i = 15 the share is 0\.063 and the gap 0\.004/);
  await page.close();
});

// The words' names on the page (en), by index into the model's WORDS.
const NAMES = ['the', 'cat', 'sat', 'on', 'mat'];

test('the reordering test: the toggle by keyboard, the words, their weights and the output shown in both orders', async () => {
  // The reordering test is in the Go deeper fold: opened.
  const page = await openStep(b, ID, 'deeper=1');
  assert.equal(NAMES.length, WORDS.length);
  const table = () => page.$$eval(`#${ID} .nope-words tbody tr`, (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  for (const [result, on] of [[model.plain, false], [model.mixed, true], [model.plain, false]]) {
    if ((await page.isChecked(`#${ID} input[name=shuffle]`)) !== on) {
      await page.locator(`#${ID} input[name=shuffle]`).focus();
      await page.keyboard.press('Space');
      // The switch flips on the key's release: wait for the redraw to write the URL.
      await page.waitForFunction((want) => new URLSearchParams(location.search).get('shuffle') === want, on ? '1' : '0');
    }
    assert.equal((await urlParams(page)).shuffle, on ? '1' : '0');
    const { order, row, output } = result;
    assert.deepEqual(await table(), order.map((word, p) => [String(p), NAMES[word], f3(row[p])]));
    const text = await page.textContent(`#${ID} .nope-output`);
    assert.ok(text.includes(`[${f3(output[0])}, ${f3(output[1])}]`), text);
    const change = await readout(page, ID, 'change');
    assert.equal(change.value, model.change);
    assert.equal(change.text, f3(model.change));
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('keyboard: Space switches the mask, arrows move the query; the URL reopens the state', async () => {
  const page = await openStep(b, ID, 'len=8&query=2&causal=1');
  await page.locator(`#${ID} input[name=causal]`).focus();
  await page.keyboard.press('Space');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('causal') === '0');
  await check(page, 8, 2, false);
  await page.locator(`#${ID} input[name=query]`).focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('End');
  await check(page, 8, 7, false);
  await page.locator(`#${ID} input[name=causal]`).focus();
  await page.keyboard.press('Space');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('causal') === '1');
  await check(page, 8, 7, true);
  const url = await pageUrl(page);
  await page.close();
  const again = await b.newPage();
  await again.goto(url);
  await again.waitForSelector('body[data-ready=true]');
  await check(again, 8, 7, true);
  assert.deepEqual(again.errors, []);
  await again.close();
});

test('bad URL values are clamped: the query never passes the last position', async () => {
  for (const [query, len, i, causal] of [
    ['len=99&query=50', 16, 15, true], ['len=4&query=9', 4, 3, true], ['len=1&causal=0', 2, 1, false],
    ['len=abc&query=-2&causal=maybe', 6, 0, true], ['len=7.4&query=2.5&causal=false', 7, 3, false],
  ]) {
    const page = await openStep(b, ID, query);
    await check(page, len, i, causal);
    assert.deepEqual((await urlParams(page)), { step: ID, len: String(len), query: String(i), causal: causal ? '1' : '0', shuffle: '0' }, query);
    assert.deepEqual(page.errors, [], query);
    await page.close();
  }
});

test('at 375 px nothing overflows the page sideways', async () => {
  const page = await openStep(b, ID, 'len=16&query=9', { viewport: { width: 375, height: 800 } });
  const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  assert.ok(scroll <= client, `page is ${scroll}px wide in a ${client}px window`);
  await page.close();
});
