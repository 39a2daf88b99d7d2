// Step 'embedding-plus-position' in Chromium: the page shows the step's model
// (web/steps/embedding-plus-position/model.js, whose numbers
// tests/js/embedding-plus-position-model.test.js checks against the formulas and the step's
// claims): x = e + PE(pos) element by element, the second input x′, the distance |x − x′|, the
// bars, the CSV, the length cards and the d = 512 table; the sliders, the keys, the URL.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadPosenc } from '../../wasm/posenc.js';
import { EMBEDDING as E, embeddingPlusPositionModel } from '../../web/steps/embedding-plus-position/model.js';
import { startBrowser } from './browser.js';
import { downloaded, openStep, pageUrl, readout, setSlider, updateTimes, urlParams } from './steps.js';
// How the page prints a number: shared with the cross-engine suite.
import { two } from '../expect/embedding-plus-position.js';

const model = embeddingPlusPositionModel(await loadPosenc({ simd: true }));
const pe = (pos) => model.pe(pos);
const input = (pos) => model.readout({ pos, other: pos }).x;
const ID = 'embedding-plus-position';
let b;
before(async () => { b = await startBrowser(); });
after(async () => { await b?.close(); });

async function check(page, pos, other) {
  const { p, x, y, distance } = model.readout({ pos, other });
  for (let d = 0; d < 4; d++) {
    const r = await readout(page, ID, `x${d}`);
    assert.equal(r.value, x[d], `pos ${pos} element ${d}`);
    assert.equal(r.text, two(x[d]), `pos ${pos} element ${d}`);
  }
  const dist = await readout(page, ID, 'distance');
  assert.equal(dist.value, distance, `distance ${pos}/${other}`);
  assert.equal(dist.text, two(distance));
  // The aligned table: e + PE(pos) = x, then x′ and x − x′, row by row.
  const rows = await page.$$eval(`#${ID} .epp-table tbody tr`, (trs) => trs.map((tr) => [...tr.querySelectorAll('td:not(.op)')].map((c) => c.textContent)));
  assert.deepEqual(rows, E.map((e, d) => [two(e), two(p[d]), two(x[d]), two(y[d]), two(x[d] - y[d])]));
}

test("the seed's example: the token at position 0 enters as [0.51, 0.78, 0.88, 1.14], at position 5 as another vector", async () => {
  const page = await openStep(b, ID);
  assert.deepEqual((await urlParams(page)), { step: ID, pos: '0', other: '5' });
  const texts = [];
  for (let d = 0; d < 4; d++) texts.push((await readout(page, ID, `x${d}`)).text);
  assert.deepEqual(texts, ['0.51', '0.78', '0.88', '1.14']);
  await check(page, 0, 5);
  // The second input at position 5 is [−0.45, 0.06, 0.93, 1.14], as the notes say.
  assert.deepEqual(input(5).map(two), ['−0.45', '0.06', '0.93', '1.14']);
  assert.match(await page.textContent(`#${ID} .notes`), /\[−0\.45, 0\.06, 0\.93, 1\.14\]/);
  assert.equal((await readout(page, ID, 'distance')).text, '1.20');
  // Figures carry descriptions with the current numbers.
  const sumAlt = await page.getAttribute(`#${ID} .epp-sum svg`, 'aria-label');
  assert.match(sumAlt, /PE\(0\) = \[0\.00, 1\.00, 0\.00, 1\.00\]/);
  assert.match(sumAlt, /x = \[0\.51, 0\.78, 0\.88, 1\.14\]/);
  assert.match(await page.getAttribute(`#${ID} .epp-pair svg`, 'aria-label'), /1\.20 apart/);
  // Where it happens: one PE box before layer 1; RoPE rotates in every layer box.
  assert.equal(await page.locator(`#${ID} .epp-flow.absolute .epp-box.mark`).count(), 1);
  assert.equal(await page.locator(`#${ID} .epp-flow.rotary .epp-box.mark`).count(), 3);
  assert.deepEqual(page.errors, []);
  await updateTimes(page, ID);
  await page.close();
});

test('sliders: every readout shows the model’s e + PE(pos), and the URL follows', async () => {
  const page = await openStep(b, ID);
  for (const [pos, other] of [[1, 5], [7, 7], [33, 2], [99, 0], [50, 51], [12, 88], [0, 99]]) {
    await setSlider(page, ID, 'pos', pos);
    await setSlider(page, ID, 'other', other);
    await check(page, pos, other);
    assert.deepEqual((await urlParams(page)), { step: ID, pos: String(pos), other: String(other) });
    const alt = await page.getAttribute(`#${ID} .epp-pair svg`, 'aria-label');
    if (pos === other) {
      assert.equal((await readout(page, ID, 'distance')).value, 0);
      assert.match(alt, /Both positions are 7/);
    } else {
      assert.match(alt, new RegExp(`position ${pos} becomes .*position ${other} becomes`));
    }
  }
  const times = await updateTimes(page, ID);
  assert.ok(times.length >= 14, `${times.length} updates measured`);
  assert.deepEqual(page.errors, []);
  await updateTimes(page, ID);
  await page.close();
});

test('arrow keys move the positions; the URL reopens the same state', async () => {
  const page = await openStep(b, ID, 'pos=3&other=10');
  await page.locator(`#${ID} input[name=pos]`).focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.locator(`#${ID} input[name=other]`).focus();
  await page.keyboard.press('ArrowLeft');
  await check(page, 5, 9);
  await page.keyboard.press('End');
  await check(page, 5, 99);
  assert.deepEqual((await urlParams(page)), { step: ID, pos: '5', other: '99' });
  const url = await pageUrl(page);
  await updateTimes(page, ID);
  await page.close();

  const again = await b.newPage();
  await again.goto(url);
  await again.waitForSelector('body[data-ready=true]');
  assert.equal(await again.inputValue(`#${ID} input[name=pos]`), '5');
  assert.equal(await again.inputValue(`#${ID} input[name=other]`), '99');
  await check(again, 5, 99);
  assert.deepEqual(again.errors, []);
  await updateTimes(again, ID);
  await again.close();
});

test('out-of-range and malformed URL values are clamped or fall back to the defaults', async () => {
  for (const [query, pos, other] of [
    ['pos=500&other=-3', 99, 0], ['pos=abc&other=2.6', 0, 3], ['pos=&other=Infinity', 0, 5], ['pos=1e9&other=%3Cb%3E', 99, 5],
  ]) {
    const page = await openStep(b, ID, query);
    assert.equal(await page.inputValue(`#${ID} input[name=pos]`), String(pos), query);
    assert.equal(await page.inputValue(`#${ID} input[name=other]`), String(other), query);
    await check(page, pos, other);
    assert.deepEqual((await urlParams(page)), { step: ID, pos: String(pos), other: String(other) });
    assert.deepEqual(page.errors, [], query);
    await updateTimes(page, ID);
    await page.close();
  }
});

test('the bars draw e, PE(pos) and x to one scale; the CSV holds the same numbers', async () => {
  // The Save CSV button sits in the Go deeper fold: opened from the URL.
  const page = await openStep(b, ID, 'pos=4&other=40&deeper=1');
  const zero = Number(await page.getAttribute(`#${ID} .epp-sum line.zero`, 'y1'));
  const bars = (cls) => page.$$eval(`#${ID} .epp-sum rect.bar.${cls}`, (rs) => rs.map((r) => ({
    y: Number(r.getAttribute('y')), height: Number(r.getAttribute('height')),
  })));
  const want = { c: E, b: pe(4), a: input(4) };
  let scale = null;
  for (const [cls, values] of Object.entries(want)) {
    const rects = await bars(cls);
    assert.equal(rects.length, 4, cls);
    rects.forEach((r, d) => {
      const v = values[d];
      if (Math.abs(v) < 0.02) return;
      const s = r.height / Math.abs(v);
      scale ??= s;
      assert.ok(Math.abs(s - scale) < 1e-3 * scale, `${cls} ${d}: scale ${s} vs ${scale}`);
      assert.ok(Math.abs((v > 0 ? r.y + r.height : r.y) - zero) < 1e-3, `${cls} ${d} stands on the zero line`);
    });
  }
  const [file] = await Promise.all([page.waitForEvent('download'), page.locator(`#${ID} button[data-table=vectors]`).click()]);
  assert.equal(file.suggestedFilename(), `${ID}-vectors.csv`);
  const lines = (await downloaded(file)).toString('utf8').trim().split('\n');
  assert.equal(lines.length, 5);
  assert.match(lines[0], /PE\(4\).*PE\(40\)/);
  lines.slice(1).forEach((line, d) => {
    const [dim, e, p, x, q, y] = line.split(',').map(Number);
    assert.equal(dim, d);
    assert.equal(e, E[d]);
    assert.ok(p === pe(4)[d] && x === input(4)[d], line);
    assert.ok(q === pe(40)[d] && y === input(40)[d], line);
  });
  await updateTimes(page, ID);
  await page.close();
});

test('at 375 px nothing overflows the page sideways', async () => {
  const page = await openStep(b, ID, 'pos=37&other=81', { viewport: { width: 375, height: 800 } });
  const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  assert.ok(scroll <= client, `page is ${scroll}px wide in a ${client}px window`);
  await check(page, 37, 81);
  await updateTimes(page, ID);
  await page.close();
});

test('the length cards and the d = 512 table show the model’s lengths at the chosen position', async () => {
  // That ‖PE‖ = √(d/2) at any position and the stand-in row is about 1 long is the model's claim:
  // tests/js/embedding-plus-position-model.test.js.
  const page = await openStep(b, ID);
  for (const pos of [0, 37]) {
    await setSlider(page, ID, 'pos', pos);
    const want = model.readout({ pos, other: 5 });
    const e = await readout(page, ID, 'norm-e');
    assert.equal(e.value, want.normE);
    assert.equal(e.text, two(want.normE));
    const p = await readout(page, ID, 'norm-pe');
    assert.equal(p.value, want.normPe, `‖PE(${pos})‖`);
    assert.equal(p.text, two(Math.sqrt(2)));
    const widePe = await readout(page, ID, 'norm-pe-512');
    assert.equal(widePe.value, want.wide.pe, `‖PE(${pos})‖ at d = 512`);
    assert.equal(widePe.text, '16.00');
    const we = await readout(page, ID, 'norm-e-512');
    assert.equal(we.value, want.wide.e, '‖e‖ at d = 512');
    assert.equal(we.text, two(want.wide.e));
    const scaled = await readout(page, ID, 'norm-scaled-512');
    assert.equal(scaled.value, want.wide.scaled);
    assert.equal(scaled.text, two(want.wide.scaled));
    assert.match(await page.textContent(`#${ID} .epp-norms caption`), new RegExp(`position ${pos}$`));
  }
  assert.deepEqual(page.errors, []);
  await updateTimes(page, ID);
  await page.close();
});
