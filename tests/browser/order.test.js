// Step 1 in Chromium: the page shows the step's model (web/steps/order/model.js, whose numbers
// tests/js/order-model.test.js checks against the formulas): the 3×3 matrix of dot products, the
// positional-encoding toggle, the readouts, the input table and the cell colours; the controls,
// the keyboard and the URL.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadPosenc } from '../../wasm/posenc.js';
import { divergingRgb } from '../../web/kit/palette.js';
import { D, orderModel } from '../../web/steps/order/model.js';
import { startBrowser } from './browser.js';
import { openStep, readout, updateTimes, urlParams, minus, pageUrl } from './steps.js';
// The words as the page names them: shared with the cross-engine suite.
import { EMB, MEANINGS, NAMES, ORDERS, TOL } from '../expect/order.js';

const model = orderModel(await loadPosenc({ simd: true }));
/** The model's matrix for a state, as [row][col]. */
const scores = (sentence, pe) => {
  const s = model.compute({ sentence, pe }).current;
  return [0, 1, 2].map((i) => [0, 1, 2].map((j) => s[i * 3 + j]));
};

let b;
before(async () => { b = await startBrowser(); });
after(async () => { await b?.close(); });

/** All nine cells of the page's matrix: { text, value } by [row][col]. */
async function pageMatrix(page) {
  return page.evaluate(() => [0, 1, 2].map((i) => [0, 1, 2].map((j) => {
    const el = document.querySelector(`#order [data-readout="attn-${i}-${j}"]`);
    return { text: el.textContent.trim(), value: Number(el.dataset.value) };
  })));
}

async function checkState(page, sentence, pe) {
  const want = scores(sentence, pe);
  const got = await pageMatrix(page);
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      const label = `sentence ${sentence} pe ${pe} cell ${i},${j}`;
      assert.ok(Math.abs(got[i][j].value - want[i][j]) < TOL, `${label}: ${got[i][j].value} vs ${want[i][j]}`);
      assert.equal(got[i][j].text, minus(want[i][j].toFixed(2)), label);
    }
  }
  const headers = await page.$$eval('#order .matrix-table thead th[scope=col]', (ths) => ths.slice(1).map((t) => t.textContent));
  assert.deepEqual(headers, ORDERS[sentence]);
  const rowHeads = await page.$$eval('#order .matrix-table tbody th[scope=row]', (ths) => ths.map((t) => t.textContent));
  assert.deepEqual(rowHeads, ORDERS[sentence]);

  const s = await readout(page, 'order', 'sentence');
  assert.equal(s.text, NAMES[sentence]);
  assert.equal(s.value, sentence);
  assert.equal((await readout(page, 'order', 'meaning')).text, MEANINGS[sentence]);
  const c = await readout(page, 'order', 'change');
  const gap = model.compute({ sentence, pe }).change;
  assert.ok(Math.abs(c.value - gap) < TOL, `change ${c.value} vs ${gap}`);
  assert.equal(c.text, gap < 1e-9 ? 'Same values!' : `Up to ${minus(gap.toFixed(2))}`);
  const same = await readout(page, 'order', 'same');
  assert.equal(same.value, pe ? 0 : 1);
  assert.match(same.text, pe ? /different|own/i : /same nine values/i);
}

test("the seed's state: Dog bites man without positions shows the seed's nine values", async () => {
  const page = await openStep(b, 'order');
  const m = await pageMatrix(page);
  // The seed's numbers, written out: Dog·Dog, Dog·bites, Dog·man, bites·bites, bites·man, man·man.
  const seed = [['0.68', '0.26', '0.52'], ['0.26', '0.82', '0.59'], ['0.52', '0.59', '0.61']];
  assert.deepEqual(m.map((r) => r.map((c) => c.text)), seed);
  await checkState(page, 0, false);
  assert.equal((await readout(page, 'order', 'change')).text, 'Same values!');
  assert.equal((await readout(page, 'order', 'meaning')).text, 'Normal');
  assert.deepEqual((await urlParams(page)), { step: 'order', sentence: '0', pe: '0' });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('clicking the sentence buttons and the toggle updates readouts and URL; the URL restores the state', async () => {
  const page = await openStep(b, 'order');
  const moves = [[1, false], [2, false], [2, true], [0, true], [1, true], [1, false], [0, false], [2, true]];
  for (const [sentence, pe] of moves) {
    await page.locator('#order .choice label', { hasText: NAMES[sentence] }).click();
    if ((await page.isChecked('#order input[name=pe]')) !== pe) await page.locator('#order input[name=pe]').click();
    await checkState(page, sentence, pe);
    assert.deepEqual((await urlParams(page)), { step: 'order', sentence: String(sentence), pe: pe ? '1' : '0' });
  }
  const times = await updateTimes(page, 'order');
  assert.ok(times.length >= moves.length, 'every control move was measured');
  const url = await pageUrl(page);
  await page.close();

  const again = await b.newPage();
  await again.goto(url);
  await again.waitForSelector('#order[data-shown=true]:not([hidden])');
  await checkState(again, 2, true);
  assert.equal(await again.isChecked('#order input[name=sentence][value="2"]'), true);
  assert.equal(await again.isChecked('#order input[name=pe]'), true);
  assert.deepEqual(again.errors, []);
  await again.close();
});

test('the keyboard works: arrows move between sentences, space flips the toggle', async () => {
  const page = await openStep(b, 'order', 'sentence=0&pe=0');
  await page.locator('#order input[name=sentence][value="0"]').focus();
  await page.keyboard.press('ArrowRight');
  await checkState(page, 1, false);
  await page.keyboard.press('ArrowRight');
  await checkState(page, 2, false);
  await page.locator('#order input[name=pe]').focus();
  await page.keyboard.press('Space');
  await checkState(page, 2, true);
  assert.deepEqual((await urlParams(page)), { step: 'order', sentence: '2', pe: '1' });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('with PE the input table shows the embedding, the model’s PE(p) and their sum', async () => {
  const page = await openStep(b, 'order', 'sentence=1&pe=1');
  const cells = await page.$$eval('#order .order-inputs tbody tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  const x = model.compute({ sentence: 1, pe: true }).xs[1];
  const vec = (v) => minus(`[${v[0].toFixed(2)}, ${v[1].toFixed(2)}]`);
  cells.forEach((c, p) => {
    const w = ORDERS[1][p];
    assert.deepEqual(c, [String(p), w, vec(EMB[w]), vec(model.pe(p)), vec(x.subarray(p * D, p * D + 2))]);
  });
  await page.close();
});

test('matrix cells are tinted with the palette colour of their value', async () => {
  for (const [query, sentence, pe] of [['sentence=0&pe=0', 0, false], ['sentence=2&pe=1', 2, true]]) {
    const { limit } = model.compute({ sentence, pe });
    const page = await openStep(b, 'order', query);
    const colours = await page.evaluate(() => [0, 1, 2].map((i) => [0, 1, 2].map((j) =>
      getComputedStyle(document.querySelector(`#order [data-readout="attn-${i}-${j}"]`).closest('td')).backgroundColor)));
    const want = scores(sentence, pe);
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        const rgb = [0, 0, 0];
        divergingRgb(want[i][j], limit, rgb, 0);
        const got = colours[i][j].match(/\d+(\.\d+)?/g).map(Number);
        for (let ch = 0; ch < 3; ch++) assert.ok(Math.abs(got[ch] - rgb[ch]) <= 1.5, `${query} cell ${i},${j}: ${colours[i][j]} vs ${rgb}`);
      }
    }
    await page.close();
  }
});

test('out-of-range and malformed URL values are clamped or ignored, with no console error', async () => {
  for (const [query, sentence, pe] of [
    ['sentence=9&pe=1', 2, true], ['sentence=-4&pe=yes', 0, false], ['sentence=abc&pe=true', 0, true],
    ['sentence=1.4&pe=0', 1, false], ['sentence=&pe=', 0, false], ['sentence=1e9&pe=%3Cb%3E', 2, false],
  ]) {
    const page = await openStep(b, 'order', query);
    await checkState(page, sentence, pe);
    assert.deepEqual((await urlParams(page)), { step: 'order', sentence: String(sentence), pe: pe ? '1' : '0' });
    assert.deepEqual(page.errors, [], query);
    await page.close();
  }
});

test('at 375 px nothing overflows the page sideways', async () => {
  for (const query of ['sentence=0&pe=0', 'sentence=1&pe=1', 'sentence=2&pe=1']) {
    const page = await openStep(b, 'order', query, { viewport: { width: 375, height: 800 } });
    const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    assert.ok(scroll <= client, `${query}: page is ${scroll}px wide in a ${client}px window`);
    await page.close();
  }
});

test('the notes call the matrix symmetric; its corner names rows and columns', async () => {
  // The symmetry itself (S_ij = S_ji to the last bit) is the model's: tests/js/order-model.test.js.
  const page = await openStep(b, 'order', 'sentence=1&pe=1');
  assert.match(await page.textContent('#order .notes'), /e\(w\).*symmetric/s);
  // Two short lines instead of "Q ↓ K →": rows are queries, columns keys.
  assert.deepEqual(await page.$eval('#order .matrix-corner', (c) => c.innerText.split('\n')), ['queries ↓', 'keys →']);
  assert.deepEqual(page.errors, []);
  await page.close();
});
