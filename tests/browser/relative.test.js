// Step 4 in Chromium: the page shows the step's model (web/steps/relative/model.js, whose numbers
// tests/js/relative-model.test.js checks against the formulas and the step's claims): the two
// position sliders, the "move both" buttons, the dot-product and distance readouts, the bars and
// the curve against the offset, the keys, the URL.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadPosenc } from '../../wasm/posenc.js';
import { PAIRS, relativeModel } from '../../web/steps/relative/model.js';
import { startBrowser } from './browser.js';
import { openStep, plotDots, readout, setSlider, updateTimes, urlParams, pageUrl } from './steps.js';
// How the page prints a dot product: shared with the cross-engine suite.
import { text2 } from '../expect/relative.js';

const model = relativeModel(await loadPosenc({ simd: true }));
const dot = (i, j) => model.readout({ i, j }).dot;

let b;
before(async () => { b = await startBrowser(); });
after(async () => { await b?.close(); });

async function readBoth(page) {
  return { dot: await readout(page, 'relative', 'dot'), distance: await readout(page, 'relative', 'distance') };
}

function checkReadouts({ dot: d, distance }, i, j) {
  assert.equal(d.value, dot(i, j), `i ${i} j ${j}: dot`);
  assert.equal(d.text, text2(dot(i, j)), `i ${i} j ${j}: shown ${d.text}`);
  assert.equal(distance.text, String(Math.abs(i - j)));
  assert.equal(distance.value, Math.abs(i - j));
}

test("the seed's state i = 3, j = 8 reads dot 6.14 and distance 5", async () => {
  const page = await openStep(b, 'relative', 'i=3&j=8');
  const r = await readBoth(page);
  assert.equal(r.dot.text, '6.14');
  assert.equal(r.distance.text, '5');
  checkReadouts(r, 3, 8);
  // The formula with the current numbers ends in the same value.
  assert.match(await page.textContent('#relative .relative-now'), /6\.14/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('without parameters the step opens in the same state, 3 and 8', async () => {
  const page = await openStep(b, 'relative');
  assert.equal(await page.inputValue('#relative input[name=i]'), '3');
  assert.equal(await page.inputValue('#relative input[name=j]'), '8');
  checkReadouts(await readBoth(page), 3, 8);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('moving the sliders shows the model’s readouts', async () => {
  const page = await openStep(b, 'relative');
  for (const [i, j] of [[0, 0], [0, 19], [19, 0], [7, 3], [12, 13], [5, 15], [18, 9], [10, 10], [2, 11]]) {
    await setSlider(page, 'relative', 'i', i);
    await setSlider(page, 'relative', 'j', j);
    checkReadouts(await readBoth(page), i, j);
    assert.deepEqual((await urlParams(page)), { step: 'relative', i: String(i), j: String(j) });
  }
  const times = await updateTimes(page, 'relative');
  assert.ok(times.length >= 18, 'every slider move was measured');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('at i = j the page shows the peak, 8 = d/2, and every pair adds a full 1', async () => {
  const page = await openStep(b, 'relative');
  for (const p of [0, 19]) {
    await setSlider(page, 'relative', 'i', p);
    await setSlider(page, 'relative', 'j', p);
    const r = await readBoth(page);
    assert.equal(r.dot.text, '8.00');
    assert.equal(r.dot.value, model.peak);
    assert.equal(r.distance.text, '0');
    const heights = await page.$$eval('#relative .relative-pairs rect.bar', (rs) => rs.map((r) => Number(r.getAttribute('height'))));
    assert.equal(heights.length, PAIRS);
    for (const hgt of heights) assert.ok(Math.abs(hgt - heights[0]) < 1e-3, `pair bars ${heights}`);
  }
  await page.close();
});

test('the move-both buttons shift i and j together, stop at the edges, and work by keyboard', async () => {
  const page = await openStep(b, 'relative', 'i=3&j=8');
  const start = await readBoth(page);
  const up = page.locator('#relative button[name=shift][value="1"]');
  const down = page.locator('#relative button[name=shift][value="-1"]');
  for (let n = 1; n <= 11; n++) {
    await up.click();
    const r = await readBoth(page);
    assert.equal(r.dot.value, start.dot.value, `after ${n} shifts`);
    assert.equal(r.dot.text, '6.14');
    assert.equal(r.distance.text, '5');
    assert.deepEqual((await urlParams(page)), { step: 'relative', i: String(3 + n), j: String(8 + n) });
  }
  // j reached 19: another step up would leave the range, so the button is marked off and a
  // press changes nothing.
  assert.equal(await up.getAttribute('aria-disabled'), 'true');
  assert.equal(await down.getAttribute('aria-disabled'), 'false');
  await up.click({ force: true });
  assert.deepEqual((await urlParams(page)), { step: 'relative', i: '14', j: '19' });
  // Down by keyboard: focus the button and press Enter; focus stays there at the edge.
  await down.focus();
  for (let n = 0; n < 16; n++) await page.keyboard.press('Enter');
  assert.deepEqual((await urlParams(page)), { step: 'relative', i: '0', j: '5' });
  assert.equal(await down.getAttribute('aria-disabled'), 'true');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('value')), '-1');
  assert.equal((await readBoth(page)).dot.value, start.dot.value);

  await updateTimes(page, 'relative');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('arrow keys on a focused slider move that position', async () => {
  const page = await openStep(b, 'relative', 'i=3&j=8');
  await page.locator('#relative input[name=j]').focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  checkReadouts(await readBoth(page), 3, 10);
  await page.locator('#relative input[name=i]').focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('End');
  checkReadouts(await readBoth(page), 19, 10);
  assert.deepEqual((await urlParams(page)), { step: 'relative', i: '19', j: '10' });
  await page.close();
});

test('the URL written by the controls reopens the same state', async () => {
  const page = await openStep(b, 'relative');
  await setSlider(page, 'relative', 'i', 14);
  await setSlider(page, 'relative', 'j', 2);
  await page.locator('#relative button[name=shift][value="1"]').click();
  assert.deepEqual((await urlParams(page)), { step: 'relative', i: '15', j: '3' });
  const url = await pageUrl(page);
  await page.close();

  const again = await b.newPage();
  await again.goto(url);
  await again.waitForSelector('body[data-ready=true]');
  await again.waitForSelector('#relative:not([hidden])');
  assert.equal(await again.inputValue('#relative input[name=i]'), '15');
  assert.equal(await again.inputValue('#relative input[name=j]'), '3');
  checkReadouts(await readBoth(again), 15, 3);
  assert.deepEqual(again.errors, []);
  await again.close();
});

test('out-of-range and malformed URL values are clamped, not an error page', async () => {
  const page = await openStep(b, 'relative', 'i=99&j=-4');
  assert.equal(await page.inputValue('#relative input[name=i]'), '19');
  assert.equal(await page.inputValue('#relative input[name=j]'), '0');
  checkReadouts(await readBoth(page), 19, 0);
  assert.deepEqual((await urlParams(page)), { step: 'relative', i: '19', j: '0' });
  assert.deepEqual(page.errors, []);
  await page.close();
  const page2 = await openStep(b, 'relative', 'i=abc&j=2.6');
  assert.equal(await page2.inputValue('#relative input[name=i]'), '3');
  assert.equal(await page2.inputValue('#relative input[name=j]'), '3');
  checkReadouts(await readBoth(page2), 3, 3);
  assert.deepEqual(page2.errors, []);
  await page2.close();
  const page3 = await openStep(b, 'relative', 'i=&j=Infinity&i=1e9');
  assert.equal(await page3.inputValue('#relative input[name=i]'), '3');
  assert.equal(await page3.inputValue('#relative input[name=j]'), '8');
  assert.deepEqual(page3.errors, []);
  await page3.close();
});

test('the bars draw the model’s PE(i), PE(j) and pair shares to scale', async () => {
  const page = await openStep(b, 'relative', 'i=4&j=13');
  const bars = (sel) => page.$$eval(sel, (rs) => rs.map((r) => ({
    y: Number(r.getAttribute('y')), height: Number(r.getAttribute('height')),
  })));
  const zero = Number(await page.getAttribute('#relative .relative-vectors line.zero', 'y1'));
  const check = (rects, want, what) => {
    assert.equal(rects.length, want.length, what);
    // Heights are proportional to |value|: one scale for every bar taller than a sliver.
    const scales = rects.map((r, n) => r.height / Math.abs(want[n])).filter((_, n) => Math.abs(want[n]) > 0.05);
    for (const s of scales) assert.ok(Math.abs(s - scales[0]) < 1e-3 * scales[0], `${what}: scales ${scales}`);
    rects.forEach((r, n) => {
      if (Math.abs(want[n]) < 0.01) return;
      // Positive values stand on the zero line, negative ones hang from it.
      const edge = want[n] > 0 ? r.y + r.height : r.y;
      assert.ok(Math.abs(edge - zero) < 1e-3, `${what} ${n}: ${JSON.stringify(r)} zero ${zero}`);
    });
  };
  check(await bars('#relative .relative-vectors rect.bar.a'), model.row(4), 'PE(4)');
  check(await bars('#relative .relative-vectors rect.bar.b'), model.row(13), 'PE(13)');
  check(await bars('#relative .relative-pairs rect.bar'), model.readout({ i: 4, j: 13 }).shares, 'pairs');
  for (const sel of ['.relative-vectors svg', '.relative-pairs svg', '.relative-curve svg']) {
    const label = await page.getAttribute(`#relative ${sel}`, 'aria-label');
    assert.ok(label && label.length > 40, `${sel} has a description`);
  }
  assert.match(await page.getAttribute('#relative .relative-vectors svg', 'aria-label'), /PE\(4\).*PE\(13\)/);
  await page.close();
});

test('on the offset plot the curves for the current i, i = 0 and i = 19 coincide, and the marker sits at j', async () => {
  const page = await openStep(b, 'relative', 'i=6&j=15');
  const paths = await page.$$eval('#relative .relative-curve path.series', (ps) => ps.map((p) => ({
    cls: p.getAttribute('class'),
    pts: p.getAttribute('d').slice(1).split('L').map((xy) => xy.split(',').map(Number)),
  })));
  assert.equal(paths.length, 3);
  const [cur, ref0, ref19] = paths;
  for (const p of paths) assert.equal(p.pts.length, 20);
  // Same screen x ⇒ same offset j − i; every shared offset must land on the same height.
  const byX = (pts) => new Map(pts.map(([x, y]) => [x.toFixed(1), y]));
  const a = byX(cur.pts);
  let shared = 0;
  for (const ref of [ref0, ref19]) {
    for (const [x, y] of byX(ref.pts)) {
      if (!a.has(x)) continue;
      shared++;
      assert.ok(Math.abs(a.get(x) - y) < 0.02, `x ${x}: ${a.get(x)} vs ${y}`);
    }
  }
  assert.equal(shared, 20 + 1, 'i = 6 shares 14 offsets with i = 0 and 7 with i = 19');
  // Heights follow the model's dot products: the plot's y is linear in the value, so compare two
  // points' ratio.
  const ys = cur.pts.map(([, y]) => y);
  const vals = model.curve(6).y;
  const k = (ys[0] - ys[6]) / (vals[6] - vals[0]);
  for (let j = 0; j < 20; j++) assert.ok(Math.abs((ys[0] - ys[j]) - k * (vals[j] - vals[0])) < 0.02, `j ${j}`);
  // The big marker sits on point j = 15 of the current curve.
  const marker = await page.$eval('#relative .relative-curve circle.marker', (c) => [Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))]);
  assert.ok(Math.abs(marker[0] - cur.pts[15][0]) < 0.01 && Math.abs(marker[1] - cur.pts[15][1]) < 0.01, `marker ${marker}`);
  assert.equal((await page.$eval('#relative .relative-curve svg.lineplot', plotDots, 'a')).length, 20);
  assert.equal(await page.locator('#relative .relative-curve .plot-legend .legend-item').count(), 3);
  await page.close();
});

test('the notes set the identity as display formulas, in the step’s notation, and give the peak as computed', async () => {
  const page = await openStep(b, 'relative');
  // (Text without spaces and the invisible function-application sign after sin and cos.)
  const formulas = await page.$$eval('#relative .notes > .relative-identity math', (ms) => ms.map((x) => x.textContent.replace(/[\s\u2061]+/g, '')));
  assert.equal(formulas.join(' '),
    `sin(ωim)sin(ωin) +cos(ωim)cos(ωin) =cos(ωi(n−m)) PE(m)·PE(n)=∑i=0${PAIRS - 1}cos(ωi(n−m))`);
  assert.equal(await page.locator('#relative .notes p math[display=block]').count(), 0, 'no display formula inside a paragraph');
  // Inside the sentences: the signed offset n − m (as steps 5 and 6 write it) and the distance,
  // each an inline MathML box that cannot break.
  assert.deepEqual(await page.$$eval('#relative .notes p math', (ms) => ms.map((x) => [x.className, x.textContent.replace(/\s+/g, '')])),
    [['math-inline', 'n−m'], ['math-inline', '|n−m|']]);
  const notes = await page.textContent('#relative .notes');
  assert.ok(notes.includes(`${model.peak.toFixed(0)} at distance 0`), 'the model’s peak d/2');
  // Positions are m and n on the page (the URL keeps i and j): the sliders' labels say so.
  assert.deepEqual(await page.$$eval('#relative .controls label', (ls) => ls.slice(0, 2).map((l) => l.textContent.trim())), ['Position m', 'Position n']);
  // The plot's title comes before the plot.
  assert.equal(await page.$eval('#relative .relative-curve', (f) => f.firstElementChild.tagName), 'FIGCAPTION');
  assert.deepEqual(page.errors, []);
  await page.close();
});
