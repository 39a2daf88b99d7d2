// Step 3 in Chromium: the page shows the step's model (web/steps/frequencies/model.js, whose
// numbers tests/js/frequencies-model.test.js checks against the formulas): the dimension
// buttons, the frequency and wavelength readouts, the wave plot (a column of the sinusoidal
// table) and the wavelength ladder, the keys, the URL.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadPosenc } from '../../wasm/posenc.js';
import { D, DIMS, LONGEST, POSITIONS as N, frequenciesModel } from '../../web/steps/frequencies/model.js';
import { startBrowser } from './browser.js';
import { openStep, readout, updateTimes, urlParams, pageUrl } from './steps.js';
// How the page prints a wavelength: shared with the cross-engine suite.
import { waveText } from '../expect/frequencies.js';

const model = frequenciesModel(await loadPosenc({ simd: true }));
const omega = (dim) => model.readout({ dim }).omega;
const wavelength = (dim) => model.readout({ dim }).wavelength;
let b;
before(async () => { b = await startBrowser(); });
after(async () => { await b?.close(); });

async function pick(page, dim) {
  await page.click(`#frequencies .choice-item:has(input[name=dim][value="${dim}"]) label`);
}

async function checkReadouts(page, dim) {
  const f = await readout(page, 'frequencies', 'frequency');
  const w = await readout(page, 'frequencies', 'wavelength');
  const d = await readout(page, 'frequencies', 'dim');
  assert.equal(f.value, omega(dim), `dim ${dim}: ω`);
  assert.equal(f.text, omega(dim).toFixed(4));
  assert.equal(w.value, wavelength(dim), `dim ${dim}: λ`);
  assert.equal(w.text, waveText(wavelength(dim)));
  assert.equal(d.value, dim);
  assert.equal(d.text, String(dim));
  assert.equal(await page.isChecked(`#frequencies input[name=dim][value="${dim}"]`), true);
}

/** The points of an SVG path made of M/L commands. */
async function pathPoints(page, selector) {
  const d = await page.getAttribute(selector, 'd');
  return [...d.matchAll(/[ML](-?[\d.]+),(-?[\d.]+)/g)].map((x) => [Number(x[1]), Number(x[2])]);
}

test("the seed's first state: dim 0 reads frequency 1.0000 and wavelength 6.3", async () => {
  const page = await openStep(b, 'frequencies');
  await checkReadouts(page, 0);
  assert.equal((await readout(page, 'frequencies', 'frequency')).text, '1.0000');
  assert.equal((await readout(page, 'frequencies', 'wavelength')).text, '6.3');
  assert.deepEqual(page.errors, []);
  await updateTimes(page, 'frequencies');
  await page.close();
});

test("dim 6 opened by URL reads wavelength 199, the seed's slowest value", async () => {
  const page = await openStep(b, 'frequencies', 'dim=6');
  await checkReadouts(page, 6);
  assert.equal((await readout(page, 'frequencies', 'wavelength')).text, '199');
  assert.equal((await readout(page, 'frequencies', 'frequency')).text, '0.0316');
  assert.deepEqual(page.errors, []);
  await updateTimes(page, 'frequencies');
  await page.close();
});

test('every dimension button shows the model’s ω and λ, and writes the URL', async () => {
  const page = await openStep(b, 'frequencies');
  for (const dim of [2, 4, 6, 0, 6, 2, 0, 4]) {
    await pick(page, dim);
    await checkReadouts(page, dim);
    assert.deepEqual((await urlParams(page)), { step: 'frequencies', dim: String(dim) });
  }
  const times = await updateTimes(page, 'frequencies');
  assert.ok(times.length >= 8, 'every button press was measured');
  assert.deepEqual(page.errors, []);
  await updateTimes(page, 'frequencies');
  await page.close();
});

test('arrow keys move between the dimension buttons', async () => {
  const page = await openStep(b, 'frequencies', 'dim=2');
  await page.focus('#frequencies input[name=dim][value="2"]');
  await page.keyboard.press('ArrowRight');
  await checkReadouts(page, 4);
  await page.keyboard.press('ArrowRight');
  await checkReadouts(page, 6);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await checkReadouts(page, 0);
  assert.equal((await urlParams(page)).dim, '0');
  await updateTimes(page, 'frequencies');
  await updateTimes(page, 'frequencies');
  await page.close();
});

test('the wave plot draws the model’s column: N points starting at 0, shaped like its values', async () => {
  const page = await openStep(b, 'frequencies');
  for (const dim of DIMS) {
    await pick(page, dim);
    const pts = await pathPoints(page, '#frequencies svg.lineplot:not(.logplot) path.series.a');
    assert.equal(pts.length, N, `dim ${dim}: one point per position`);
    assert.equal(await page.locator('#frequencies svg.lineplot:not(.logplot) path.series.faint').count(), DIMS.length - 1);
    const y0 = Number(await page.getAttribute('#frequencies svg.lineplot:not(.logplot) line.zero', 'y1'));
    assert.ok(Math.abs(pts[0][1] - y0) < 0.011, `dim ${dim}: starts on the zero line (${pts[0][1]} vs ${y0})`);
    // Evenly spaced positions, and heights proportional to sin(pos·ω) on one common scale.
    const dx = (pts[N - 1][0] - pts[0][0]) / (N - 1);
    const col = model.column(dim);
    let top = 1;
    for (let p = 1; p < N; p++) if (Math.abs(col[p]) > Math.abs(col[top])) top = p;
    const scale = (y0 - pts[top][1]) / col[top];
    assert.ok(scale > 50, `dim ${dim}: a visible amplitude (${scale})`);
    pts.forEach(([x, y], p) => {
      assert.ok(Math.abs(x - (pts[0][0] + p * dx)) < 0.011, `dim ${dim}, pos ${p}: x`);
      assert.ok(Math.abs(y0 - y - scale * col[p]) < 0.03, `dim ${dim}, pos ${p}: y`);
    });
    // A dashed line marks one wavelength when it fits in the 100 positions shown.
    const vlines = page.locator('#frequencies svg.lineplot:not(.logplot) line.vline');
    assert.equal(await vlines.count(), model.readout({ dim }).fits ? 1 : 0);
    if (model.readout({ dim }).fits) {
      const x = Number(await vlines.first().getAttribute('x1'));
      assert.ok(Math.abs(x - (pts[0][0] + wavelength(dim) * dx)) < 0.02, `dim ${dim}: the wavelength line`);
    }
    const label = await page.getAttribute('#frequencies svg.lineplot:not(.logplot)', 'aria-label');
    assert.match(label, new RegExp(`dimension ${dim} `));
  }
  await updateTimes(page, 'frequencies');
  await page.close();
});

test('the ladder shows the 8 wavelengths as a geometric series and highlights the chosen one', async () => {
  const page = await openStep(b, 'frequencies', 'dim=4');
  const points = await page.$$eval('#frequencies svg.logplot circle.point.ladder',
    (cs) => cs.map((c) => [Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))]));
  assert.equal(points.length, D / 2);
  // On a log scale a geometric series has equal steps: each is log10(10000^(2/16)) of a decade.
  const steps = points.slice(1).map((p, i) => points[i][1] - p[1]);
  for (const st of steps) assert.ok(Math.abs(st - steps[0]) < 1e-6, `equal steps: ${steps}`);
  const decade = steps[0] / Math.log10(wavelength(2) / wavelength(0));
  // The 1 and 100,000 ticks are 5 decades apart.
  const ys = await page.$$eval('#frequencies svg.logplot .grid line.tick-line', (ls) => ls.map((l) => Number(l.getAttribute('y1'))));
  assert.equal(ys.length, 6);
  assert.ok(Math.abs((ys[0] - ys[5]) / 5 - decade) < 1e-6, 'the points sit on the decade scale');
  // The first point sits at 2π, i.e. log10(2π) decades above the "1" tick.
  assert.ok(Math.abs(ys[0] - points[0][1] - Math.log10(2 * Math.PI) * decade) < 0.02);
  for (const dim of DIMS) {
    await pick(page, dim);
    const [cx, cy] = await page.$eval('#frequencies svg.logplot circle.marker.a',
      (c) => [Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))]);
    assert.ok(Math.abs(cx - points[dim / 2][0]) < 1e-6 && Math.abs(cy - points[dim / 2][1]) < 1e-6, `marker on dim ${dim}`);
    assert.equal(await page.textContent('#frequencies svg.logplot text.marker-label'), waveText(wavelength(dim)));
  }
  await updateTimes(page, 'frequencies');
  await page.close();
});

test('the formula and the notes carry the computed numbers', async () => {
  const page = await openStep(b, 'frequencies', 'dim=6');
  const formula = await page.textContent('#frequencies .formula');
  assert.ok(formula.includes(omega(6).toFixed(4)), formula);
  assert.ok(formula.includes(waveText(wavelength(6))), formula);
  // The two paragraphs under the figure and those in the Go deeper fold.
  const notes = (await page.locator('#frequencies :is(.notes, .deeper-body)').allTextContents()).join(' ');
  for (const dim of DIMS) assert.ok(notes.includes(waveText(wavelength(dim))), `notes mention ${waveText(wavelength(dim))}`);
  assert.ok(notes.includes(Math.round(LONGEST).toLocaleString('en')), 'notes mention 10000·2π');
  await updateTimes(page, 'frequencies');
  await page.close();
});

test('the URL round-trip: a button press writes dim, opening that URL restores it', async () => {
  const page = await openStep(b, 'frequencies');
  await pick(page, 4);
  const url = await pageUrl(page);
  assert.equal(new URL(url).searchParams.get('dim'), '4');
  await updateTimes(page, 'frequencies');
  await page.close();
  const page2 = await b.newPage();
  await page2.goto(url);
  await page2.waitForSelector('body[data-ready=true]');
  await page2.waitForSelector('#frequencies:not([hidden])');
  await checkReadouts(page2, 4);
  assert.deepEqual(page2.errors, []);
  await updateTimes(page2, 'frequencies');
  await page2.close();
});

test('values outside the enum or malformed fall back to dim 0 without errors', async () => {
  const page = await openStep(b, 'frequencies', 'dim=3');
  await checkReadouts(page, 0);
  for (const bad of ['99', '-2', 'abc', '6.0', '', '%E2%88%9E']) {
    await page.goto(`${b.url}?step=frequencies&dim=${bad}`);
    await page.waitForSelector('body[data-ready=true]', { timeout: 30000 });
    await checkReadouts(page, 0);
    assert.equal((await urlParams(page)).dim, '0', `dim=${bad}`);
  }
  assert.deepEqual(page.errors, []);
  await updateTimes(page, 'frequencies');
  await page.close();
});

test('at 375 px the step fits the width and the controls still work', async () => {
  const page = await openStep(b, 'frequencies', 'dim=2', { viewport: { width: 375, height: 800 } });
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no horizontal overflow');
  await pick(page, 6);
  await checkReadouts(page, 6);
  assert.deepEqual(page.errors, []);
  await updateTimes(page, 'frequencies');
  await page.close();
});

test('the chosen wave is drawn smooth between the table’s dots, and the buttons name the pair', async () => {
  const page = await openStep(b, 'frequencies');
  for (const dim of DIMS) {
    await pick(page, dim);
    const dots = await pathPoints(page, '#frequencies svg.lineplot:not(.logplot) path.series.a');
    const curve = await pathPoints(page, '#frequencies svg.lineplot:not(.logplot) path.series.smooth');
    const y0 = Number(await page.getAttribute('#frequencies svg.lineplot:not(.logplot) line.zero', 'y1'));
    const dx = (dots[N - 1][0] - dots[0][0]) / (N - 1);
    // The drawing's scale from the table's dots (the highest |sin| among them).
    const col = model.column(dim);
    let top = 1;
    for (let p = 1; p < N; p++) if (Math.abs(col[p]) > Math.abs(col[top])) top = p;
    const scale = (y0 - dots[top][1]) / col[top];
    // Between the integers too: dim 0's curve has far more points than its 101 dots, and every
    // drawn point lies on sin(pos·ω) at its own, fractional, position (within a drawing unit).
    if (dim === 0) assert.ok(curve.length > 2 * N, `dim 0: ${curve.length} points`);
    for (const [x, y] of curve) {
      const pos = (x - dots[0][0]) / dx;
      assert.ok(Math.abs(y0 - y - scale * Math.sin(pos * omega(dim))) < 1.5, `dim ${dim}, pos ${pos.toFixed(2)}`);
    }
    assert.equal((await page.textContent(`#frequencies .choice-item:has(input[value="${dim}"]) label`)).trim(), `pair ${dim / 2} (dim ${dim})`);
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});
