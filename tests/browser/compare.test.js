// Step 6 in Chromium: sinusoidal vs RoPE. The page shows the step's model
// (web/steps/compare/model.js, whose numbers tests/js/compare-model.test.js checks against the
// formulas and the step's claims): the readouts, the line plot and its markers, the notes; the
// sliders, a click on the plot, the keys, the table, the URL.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadPosenc } from '../../wasm/posenc.js';
import { compareModel } from '../../web/steps/compare/model.js';
import { startBrowser } from './browser.js';
import { openStep, plotDots, readout, setSlider, updateTimes, urlParams, pageUrl } from './steps.js';
// How the page prints a dot product: shared with the cross-engine suite.
import { two } from '../expect/compare.js';

const model = compareModel(await loadPosenc({ simd: true }));
const sinDot = (m, n) => model.readout({ m, n }).sinDot;
const ropeDot = (m, n) => model.readout({ m, n }).ropeDot;

let b;
before(async () => { b = await startBrowser(); });
after(async () => { await b?.close(); });

async function readAll(page) {
  return {
    distance: await readout(page, 'compare', 'distance'),
    sin: await readout(page, 'compare', 'sin-dot'),
    rope: await readout(page, 'compare', 'rope-dot'),
  };
}

function checkReadouts(r, m, n) {
  const where = `m ${m}, n ${n}`;
  assert.equal(r.distance.text, String(Math.abs(m - n)), where);
  assert.equal(r.distance.value, Math.abs(m - n), where);
  assert.equal(r.sin.value, sinDot(m, n), `${where}: sinusoidal`);
  assert.equal(r.rope.value, ropeDot(m, n), `${where}: RoPE`);
  assert.equal(r.sin.text, two(sinDot(m, n)), where);
  assert.equal(r.rope.text, two(ropeDot(m, n)), where);
}

test("the seed's state m = 2, n = 8 (also the default) reads 6, 3.78 and 1.97", async () => {
  for (const query of ['', 'm=2&n=8']) {
    const page = await openStep(b, 'compare', query);
    const r = await readAll(page);
    assert.equal(r.distance.text, '6');
    assert.equal(r.sin.text, '3.78');
    assert.equal(r.rope.text, '1.97');
    checkReadouts(r, 2, 8);
    assert.equal(await page.inputValue('#compare input[name=m]'), '2');
    assert.equal(await page.inputValue('#compare input[name=n]'), '8');
    assert.deepEqual(page.errors, []);
    await updateTimes(page, 'compare');
    await page.close();
  }
});

test('moving the sliders shows the model’s dot products', async () => {
  const page = await openStep(b, 'compare');
  const moves = [[0, 0], [0, 19], [19, 0], [5, 5], [7, 3], [11, 17], [19, 19], [13, 2], [4, 10]];
  for (const [m, n] of moves) {
    await setSlider(page, 'compare', 'm', m);
    await setSlider(page, 'compare', 'n', n);
    checkReadouts(await readAll(page), m, n);
    assert.deepEqual((await urlParams(page)), { step: 'compare', m: String(m), n: String(n) });
  }
  const times = await updateTimes(page, 'compare');
  assert.ok(times.length >= 2 * moves.length - 2, `every slider move was measured (${times.length})`);
  assert.deepEqual(page.errors, []);
  await updateTimes(page, 'compare');
  await page.close();
});

test('the arrow keys move a focused slider', async () => {
  const page = await openStep(b, 'compare', 'm=2&n=8');
  await page.locator('#compare input[name=n]').focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.locator('#compare input[name=m]').focus();
  await page.keyboard.press('ArrowLeft');
  checkReadouts(await readAll(page), 1, 10);
  assert.deepEqual((await urlParams(page)), { step: 'compare', m: '1', n: '10' });
  await updateTimes(page, 'compare');
  await page.close();
});

// The plot's points in SVG units: { a: [[x, y]...], b: [...] } and the zero line's y.
async function plotGeometry(page) {
  const pts = async (cls) => (await page.$eval('#compare svg.lineplot', plotDots, cls)).map((d) => [d.cx, d.cy]);
  const [a, b] = [await pts('a'), await pts('b')];
  return page.evaluate(([a, b]) => {
    const svg = document.querySelector('#compare svg.lineplot');
    const zero = svg.querySelector('line.zero');
    const vline = svg.querySelector('line.vline.m');
    const marker = svg.querySelector('circle.marker.a');
    const diamond = svg.querySelector('polygon.marker.b');
    const dy = diamond.getAttribute('points').split(' ').map((p) => p.split(',').map(Number));
    return {
      a, b, zeroY: Number(zero.getAttribute('y1')),
      vlineX: Number(vline.getAttribute('x1')),
      marker: [Number(marker.getAttribute('cx')), Number(marker.getAttribute('cy'))],
      // the diamond's centre: the mean of its left and right corners, the mean of top and bottom
      diamond: [(dy[1][0] + dy[3][0]) / 2, (dy[0][1] + dy[2][1]) / 2],
      dashes: [...svg.querySelectorAll('path.series')].map((p) => getComputedStyle(p).strokeDasharray),
      legend: [...document.querySelectorAll('#compare .plot-legend .legend-item')].map((e) => e.textContent.trim()),
      label: svg.getAttribute('aria-label'),
    };
  }, [a, b]);
}

test('the plot draws both curves over n = 0..19 with the marker at m and the markers at n', async () => {
  const page = await openStep(b, 'compare', 'm=6&n=14');
  const g = await plotGeometry(page);
  assert.equal(g.a.length, 20);
  assert.equal(g.b.length, 20);
  // Heights above the zero line are proportional to the values: the ratio between any two points
  // of the sinusoidal curve, and between the two curves, match the model's values.
  const unit = (g.zeroY - g.a[6][1]) / sinDot(6, 6);
  for (let n = 0; n < 20; n++) {
    assert.ok(Math.abs((g.zeroY - g.a[n][1]) / unit - sinDot(6, n)) < 0.02, `sin point ${n}`);
    assert.ok(Math.abs((g.zeroY - g.b[n][1]) / unit - ropeDot(6, n)) < 0.02, `rope point ${n}`);
    if (n > 0) assert.ok(g.a[n][0] > g.a[n - 1][0], 'x grows with n');
  }
  assert.ok(Math.abs(g.vlineX - g.a[6][0]) < 0.01, 'the m line stands at n = m');
  assert.ok(Math.abs(g.marker[0] - g.a[14][0]) < 0.01 && Math.abs(g.marker[1] - g.a[14][1]) < 0.01, 'circle at (n, sin)');
  assert.ok(Math.abs(g.diamond[0] - g.b[14][0]) < 0.01 && Math.abs(g.diamond[1] - g.b[14][1]) < 0.01, 'diamond at (n, rope)');
  // Two series told apart by more than colour: one solid, one dashed; both in the legend.
  assert.equal(g.dashes.length, 2);
  assert.equal(g.dashes[0], 'none');
  assert.notEqual(g.dashes[1], 'none');
  assert.ok(g.legend.some((t) => /Sinusoidal/.test(t)) && g.legend.some((t) => /RoPE/.test(t)));
  assert.match(g.label, /m = 6/);
  assert.match(g.label, /n = 14/);
  // The axes carry labels.
  const axisLabels = await page.locator('#compare svg.lineplot > text.axis-label').allTextContents();
  assert.equal(axisLabels.length, 2);
  assert.ok(axisLabels.every((t) => t.trim().length > 0));
  await updateTimes(page, 'compare');
  await page.close();
});

test('clicking a point of the plot moves n there', async () => {
  const page = await openStep(b, 'compare', 'm=2&n=8');
  await page.locator('#compare svg.lineplot').scrollIntoViewIfNeeded();
  const dot = (await page.$eval('#compare svg.lineplot', plotDots, 'b'))[15];
  await page.mouse.click(dot.x, dot.y);
  assert.equal(await page.inputValue('#compare input[name=n]'), '15');
  checkReadouts(await readAll(page), 2, 15);
  assert.deepEqual((await urlParams(page)), { step: 'compare', m: '2', n: '15' });
  await updateTimes(page, 'compare');
  await page.close();
});

test('the comparison table has six rows, each with a label and two cells of text', async () => {
  const page = await openStep(b, 'compare');
  const rows = await page.evaluate(() => [...document.querySelectorAll('#compare table.compare-table tbody tr')]
    .map((tr) => [...tr.children].map((c) => [c.tagName, c.textContent.trim()])));
  assert.equal(rows.length, 6);
  for (const row of rows) {
    assert.deepEqual(row.map(([tag]) => tag), ['TH', 'TD', 'TD']);
    assert.ok(row.every(([, text]) => text.length > 0));
  }
  const heads = await page.locator('#compare table.compare-table thead th').allTextContents();
  assert.deepEqual(heads.slice(1), ['Sinusoidal', 'RoPE']);
  const labels = rows.map((r) => r[0][1]);
  assert.ok(labels.some((t) => /parameters/i.test(t)));
  const params = rows.find((r) => /parameters/i.test(r[0][1]));
  assert.match(params[1][1], /^0\b/);
  assert.match(params[2][1], /^0\b/);
  await updateTimes(page, 'compare');
  await page.close();
});

test('the URL round trip: moved sliders are written to the URL, and the URL restores them', async () => {
  const page = await openStep(b, 'compare');
  await setSlider(page, 'compare', 'm', 15);
  await setSlider(page, 'compare', 'n', 4);
  const url = new URL(await pageUrl(page));
  assert.deepEqual((await urlParams(page)), { step: 'compare', m: '15', n: '4' });
  await updateTimes(page, 'compare');
  await page.close();
  const again = await openStep(b, 'compare', url.search.replace(/^\?step=compare&?/, ''));
  assert.equal(await again.inputValue('#compare input[name=m]'), '15');
  assert.equal(await again.inputValue('#compare input[name=n]'), '4');
  checkReadouts(await readAll(again), 15, 4);
  assert.deepEqual(again.errors, []);
  await updateTimes(again, 'compare');
  await again.close();
});

test('out-of-range and malformed URL values are clamped, not an error page', async () => {
  const page = await openStep(b, 'compare', 'm=999&n=-4');
  assert.equal(await page.inputValue('#compare input[name=m]'), '19');
  assert.equal(await page.inputValue('#compare input[name=n]'), '0');
  checkReadouts(await readAll(page), 19, 0);
  assert.deepEqual(page.errors, []);
  await updateTimes(page, 'compare');
  await page.close();
  const page2 = await openStep(b, 'compare', 'm=abc&n=3.6');
  assert.equal(await page2.inputValue('#compare input[name=m]'), '2');
  assert.equal(await page2.inputValue('#compare input[name=n]'), '4');
  checkReadouts(await readAll(page2), 2, 4);
  assert.deepEqual((await urlParams(page2)), { step: 'compare', m: '2', n: '4' });
  assert.deepEqual(page2.errors, []);
  await updateTimes(page2, 'compare');
  await page2.close();
});

test('at 360 px nothing in the step is wider than the screen', async () => {
  const page = await openStep(b, 'compare', 'm=2&n=8', { viewport: { width: 360, height: 800 } });
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
    section: document.querySelector('#compare').getBoundingClientRect().right,
  }));
  assert.ok(widths.scroll <= widths.client, `page ${widths.scroll} > ${widths.client}`);
  assert.ok(widths.section <= widths.client);
  assert.deepEqual(page.errors, []);
  await updateTimes(page, 'compare');
  await page.close();
});

test('the RoPE formula is the general one, |qᵢ||kᵢ| cos((n − m)θᵢ + φᵢ), after the words that define φᵢ, and says when it reduces to the sinusoidal shape', async () => {
  const page = await openStep(b, 'compare');
  const math = await page.$$eval('#compare .compare-formulas math[display=block]', (els) => els.map((e) => e.textContent.replace(/\s+/g, '')));
  assert.ok(math.some((t) => t.startsWith('q′·k′=') && t.includes('|qi||ki|') && t.includes('(n−m)θi+φi')), math.join('\n'));
  // Students met φᵢ in the formula before its definition: the paragraph that defines it comes first.
  const order = await page.$eval('#compare .compare-formulas', (box) => {
    const when = box.querySelector('.compare-when');
    const rope = [...box.querySelectorAll('math[display=block]')].find((e) => e.textContent.includes('φ'));
    return when && rope ? when.compareDocumentPosition(rope) & Node.DOCUMENT_POSITION_FOLLOWING : 0;
  });
  assert.ok(order, 'the definition of φᵢ precedes the RoPE formula');
  const when = (await page.textContent('#compare .compare-when')).replace(/\s+/g, ' ');
  assert.match(when, /angle from query pair i to key pair i/);
  assert.match(when.replace(/\s+/g, ''), /\(φi=0,\|ki\|=\|qi\|\)/);
  assert.match(when, /every pair has the same length/, 'equal pairs are not enough: the pairs must be equally long too');
  // Its formulas are MathML boxes, so "Σ|qᵢ|²" can never break before its square.
  assert.equal(await page.locator('#compare .compare-when math.math-inline').count(), 3);
  assert.deepEqual(page.errors, []);
  await updateTimes(page, 'compare');
  await page.close();
});

test('the notes give the model’s peak and RoPE factor, and step 6 closes the idea', async () => {
  const page = await openStep(b, 'compare');
  // (No-break spaces glue a formula's operator to its neighbours: read them as spaces.)
  const notes = (await page.textContent('#compare .notes')).replace(/\u00a0/g, ' ');
  assert.ok(notes.includes(`at ${model.peak.toFixed(0)} = d/2`), 'the sinusoidal peak d/2');
  assert.ok(notes.includes(`${model.pairNorm.toFixed(2)} times the height`), 'the RoPE curve’s factor |(0.6, 0.4)|²');
  assert.match(notes, /completes the idea in six steps/);
  // The last step of the idea says where its button leads, and it leads to step 7.
  const next = page.locator('#compare .pager .primary');
  assert.equal((await next.textContent()).trim(), 'The rest of the field →');
  await next.click();
  await page.waitForSelector('#embedding-plus-position[data-shown=true]:not([hidden])');
  assert.equal((await urlParams(page)).step, 'embedding-plus-position');
  // Earlier steps keep the plain label.
  assert.equal((await page.locator('#embedding-plus-position .pager .primary').textContent()).trim(), 'Next →');
  assert.deepEqual(page.errors, []);
  await page.close();
});
