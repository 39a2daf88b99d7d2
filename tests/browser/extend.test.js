// Step 12 in Chromium: context extension for RoPE. The test implements every scaling itself in
// plain JS, transcribed from Hugging Face's modeling_rope_utils.py as REFERENCES.md §2 describes
// (linear; static NTK-aware, base·s^(d/(d−2)); dynamic NTK's base rescale; YaRN's ramp with beta_fast 32, beta_slow 1 and
// attention factor 0.1·ln s + 1; Llama 3's smooth interpolation), and compares the page's
// readouts, table, figures and CSV with it. Also: presets, URL state and clamping, keyboard.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startBrowser } from './browser.js';
import { downloaded, minus, openStep, pageUrl, plotDots, setSlider, updateTimes, urlParams } from './steps.js';
import { METHODS, MODELS, parseShown, plainInv, randomMeanAt, reference, scoreAt } from '../expect/extend.js';

const SAMPLES = 128;
const STEP = 65536 / SAMPLES;  // Δ between samples in the figure test (L′ = 65 536)

// The reference formulas (every scaling, the scores, the random pairs) and the reading of a
// shown number are in tests/expect/extend.js, shared with the cross-engine suite.

/** The shown text rounds `want` (give or take `slack`, e.g. float32 error) to its digits. */
function near(shown, want, what, slack = 1e-9 * Math.abs(want)) {
  const { value, half } = parseShown(shown);
  assert.ok(Number.isFinite(value), `${what}: "${shown}" is not a number`);
  assert.ok(Math.abs(value - want) <= half * (1 + 1e-9) + slack, `${what}: shown "${shown}", want ${want}`);
}

/** Every readout (text, data-value) and every table cell of the step, in one round trip. */
const snapshot = (page) => page.evaluate(() => {
  const readouts = {};
  for (const el of document.querySelectorAll('#extend [data-readout]')) {
    readouts[el.dataset.readout] = { text: el.textContent.trim(), value: Number(el.dataset.value) };
  }
  const table = {};
  for (const tr of document.querySelectorAll('#extend .extend-table tbody tr')) {
    table[tr.dataset.method] = { current: tr.classList.contains('current'),
      cells: [...tr.querySelectorAll('td')].map((td) => ({ text: td.textContent.trim(), value: Number(td.dataset.value) })) };
  }
  // The formulas: the method's rule (every block but the last) and the chosen pair's numbers.
  const blocks = [...document.querySelectorAll('#extend .extend-formulas > div')];
  const text = (el) => el.textContent.replace(/\s+/g, '');
  return { readouts, table, rules: blocks.slice(0, -1).map(text).join('|'), now: text(blocks.at(-1)) };
});

const rel = (a, b) => Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);

/** Compares every readout and table cell of the state with the reference. */
async function check(page, { model, method, factor, read, pair }) {
  const what = `${model}/${method}/s${factor}/read${read}/pair${pair}`;
  const { readouts: r, table, rules, now } = await snapshot(page);
  const Lr = read * MODELS[model].L;
  const ref = Object.fromEntries(METHODS.map((mt) => [mt, reference(mt, model, factor, Lr)]));
  const cur = ref[method];
  const theta = ref.none.inv[pair];
  const scaled = cur.inv[pair];
  const want = {
    theta, scaled, ratio: scaled / theta, wavelength: (2 * Math.PI) / scaled, attention: cur.a, scoreEnd: scoreAt(cur, Lr),
  };
  for (const name of ['theta', 'scaled', 'ratio', 'wavelength', 'attention']) {
    assert.ok(rel(r[name].value, want[name]) < 1e-9, `${what} ${name}: ${r[name].value} vs ${want[name]}`);
    near(r[name].text, want[name], `${what} ${name}`);
  }
  // The score goes through float32 rotations and a float32 dot product of 128 terms.
  assert.ok(Math.abs(r.scoreEnd.value - want.scoreEnd) < 2e-3, `${what} scoreEnd ${r.scoreEnd.value} vs ${want.scoreEnd}`);
  near(r.scoreEnd.text, want.scoreEnd, `${what} scoreEnd`, 2e-3);
  // The pair's numbers under the rule are this state's (the page rewrites them alone when only
  // the pair moved): λ and θ of the pair, then θ′ and the ratio, as the readouts show them.
  const bare = (t) => t.replace(/\s+/g, '');
  for (const name of ['theta', 'scaled', 'ratio']) {
    assert.ok(now.includes(`=${bare(r[name].text)}`), `${what}: the pair's line shows ${name} ${r[name].text}: ${now}`);
  }
  assert.ok(now.startsWith(`λ${pair}=`), `${what}: the pair's line names pair ${pair}: ${now}`);
  // YaRN's rule carries its attention factor: rebuilt when the factor changes.
  if (method === 'yarn') assert.ok(rules.includes(`=${minus(cur.a.toFixed(4))}`), `${what}: YaRN's rule shows a = ${cur.a.toFixed(4)}`);
  assert.deepEqual(Object.keys(table), METHODS);
  for (const mt of METHODS) {
    const row = table[mt];
    assert.equal(row.current, mt === method, `${what}: ${mt} row marked current`);
    const [a, ratio, sL, sEnd] = row.cells;
    const rm = ref[mt];
    assert.ok(rel(a.value, rm.a) < 1e-9, `${what} table ${mt} attention factor`);
    assert.equal(a.text, minus(rm.a.toFixed(4)));
    assert.ok(rel(ratio.value, rm.inv[pair] / theta) < 1e-9, `${what} table ${mt} ratio`);
    near(ratio.text, rm.inv[pair] / theta, `${what} table ${mt} ratio`);
    for (const [cell, delta] of [[sL, MODELS[model].L], [sEnd, Lr]]) {
      const s = scoreAt(rm, delta);
      assert.ok(Math.abs(cell.value - s) < 2e-3, `${what} table ${mt} score at ${delta}: ${cell.value} vs ${s}`);
      near(cell.text, s, `${what} table ${mt} score at ${delta}`, 2e-3);
    }
  }
  return { ref, want };
}

const pick = (page, name, value) => page.click(`#extend .choice-item:has(input[name=${name}][value="${value}"]) label`);

let b;
before(async () => { b = await startBrowser(); });
after(async () => { await b?.close(); });

test('the reference transcription agrees with the numbers REFERENCES.md and docs/api.md quote', () => {
  const y = reference('yarn', 'llama2', 16, 16 * 4096);
  assert.equal(y.low, 20);
  assert.equal(y.high, 46);
  assert.ok(Math.abs(y.a - 1.2773) < 5e-5);
  // Position interpolation at L′ = s·L reproduces plain RoPE at L exactly.
  const lin = reference('linear', 'llama2', 8, 8 * 4096);
  assert.ok(Math.abs(scoreAt(lin, 8 * 4096) - scoreAt(reference('none', 'llama2', 8, 0), 4096)) < 1e-9);
  // Llama 3 keeps the fast pairs and divides the slowest by the factor.
  const l3 = reference('llama3', 'llama3', 8, 16 * 8192);
  assert.equal(l3.inv[0], 1);
  assert.ok(Math.abs(l3.inv[63] / plainInv(500000)[63] - 1 / 8) < 1e-15);
});

test('the default state is the Llama 3.1 preset, and every readout and table cell matches the reference', async () => {
  const page = await openStep(b, 'extend');
  const state = { model: 'llama3', method: 'llama3', factor: 8, read: 16, pair: 32 };
  assert.deepEqual((await urlParams(page)), { step: 'extend', model: 'llama3', method: 'llama3', factor: '8', read: '16', pair: '32' });
  for (const [name, value] of Object.entries(state)) {
    if (name === 'pair') assert.equal(await page.inputValue('#extend input[name=pair]'), '32');
    else assert.equal(await page.isChecked(`#extend input[name=${name}][value="${value}"]`), true, name);
  }
  const { want } = await check(page, state);
  // Pair 32 of Llama 3 lies in the blended band: wavelength between L/4 and L before scaling.
  const plainWave = (2 * Math.PI) / plainInv(500000)[32];
  assert.ok(plainWave > 2048 && plainWave < 8192, `${plainWave}`);
  assert.ok(want.ratio > 1 / 8 && want.ratio < 1);
  // The formula with the current numbers ends in the same scaled θ as the readout.
  const formula = await page.textContent('#extend .extend-formulas');
  assert.ok(formula.includes((await snapshot(page)).readouts.scaled.text));
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('every model × method, with factors, reading lengths and pairs varied, matches the reference', async () => {
  const page = await openStep(b, 'extend');
  const state = { model: 'llama3', method: 'llama3', factor: 8, read: 16, pair: 32 };
  const walk = [
    ['llama2', 'none', 2, 2, 0], ['llama2', 'linear', 4, 4, 63], ['llama2', 'dynamic', 16, 16, 40],
    ['llama2', 'yarn', 16, 16, 20], ['llama2', 'yarn', 16, 16, 33], ['llama2', 'yarn', 32, 8, 46], ['llama2', 'yarn', 8, 8, 46],
    ['llama2', 'llama3', 8, 32, 30], ['llama2', 'dynamic', 2, 32, 63], ['llama3', 'none', 32, 32, 63],
    ['llama3', 'linear', 8, 2, 10], ['llama3', 'dynamic', 4, 8, 50], ['llama3', 'yarn', 2, 4, 25],
    ['llama3', 'llama3', 32, 16, 29], ['llama3', 'llama3', 8, 16, 35],
    ['llama2', 'ntk', 8, 16, 63], ['llama3', 'ntk', 4, 4, 10], ['llama3', 'ntk', 32, 2, 0],
  ];
  for (const [model, method, factor, read, pair] of walk) {
    if (model !== state.model) await pick(page, 'model', model);
    if (method !== state.method) await pick(page, 'method', method);
    if (factor !== state.factor) await pick(page, 'factor', factor);
    if (read !== state.read) await pick(page, 'read', read);
    if (pair !== state.pair) await setSlider(page, 'extend', 'pair', pair);
    Object.assign(state, { model, method, factor, read, pair });
    assert.deepEqual((await urlParams(page)), { step: 'extend', model, method, factor: String(factor), read: String(read), pair: String(pair) });
    await check(page, state);
  }
  // Some properties the numbers must show, read off the page.
  await pick(page, 'model', 'llama2');
  await pick(page, 'method', 'linear');
  await pick(page, 'factor', 8);
  await pick(page, 'read', 8);
  for (const pair of [0, 31, 63]) {
    await setSlider(page, 'extend', 'pair', pair);
    const { readouts } = await snapshot(page);
    assert.ok(Math.abs(readouts.ratio.value - 1 / 8) < 1e-15, `PI divides pair ${pair} by 8`);
  }
  // PI read to s·L ends where plain RoPE ends at L.
  const { table } = await snapshot(page);
  assert.ok(Math.abs(table.linear.cells[3].value - table.none.cells[2].value) < 1e-3);
  await pick(page, 'method', 'yarn');
  await setSlider(page, 'extend', 'pair', 0);
  assert.equal((await snapshot(page)).readouts.ratio.value, 1, 'YaRN keeps the fastest pair');
  await setSlider(page, 'extend', 'pair', 63);
  assert.ok(Math.abs((await snapshot(page)).readouts.ratio.value - 1 / 8) < 1e-15, 'YaRN divides the slowest pair');
  const times = await updateTimes(page, 'extend');
  assert.ok(times.length >= 40, `${times.length} updates measured`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the presets set the model, method, factor and reading length; the URL reopens the state', async () => {
  // The presets sit in the Go deeper fold, beside what to pick: opened.
  const page = await openStep(b, 'extend', 'pair=5&deeper=1');
  const presets = {
    llama2: { model: 'llama2', method: 'none', factor: '4', read: '4' },
    yarn16: { model: 'llama2', method: 'yarn', factor: '16', read: '16' },
    llama31: { model: 'llama3', method: 'llama3', factor: '8', read: '16' },
  };
  for (const [name, want] of Object.entries(presets)) {
    await page.click(`#extend button[name=preset][value=${name}]`);
    assert.deepEqual((await urlParams(page)), { step: 'extend', ...want, pair: '5', deeper: '1' });
    await check(page, { ...want, factor: Number(want.factor), read: Number(want.read), pair: 5 });
  }
  await page.click('#extend button[name=preset][value=yarn16]');
  const { readouts } = await snapshot(page);
  assert.equal(readouts.attention.text, '1.2773');
  // YaRN's rule is shown with its factor worked out: a = 0.1·ln 16 + 1 = 1.2773.
  assert.match(await page.locator('#extend .extend-formulas math').nth(2).getAttribute('aria-label'), /16, plus 1, which is 1\.2773$/);
  assert.match(await page.locator('#extend .extend-formulas math').nth(2).textContent(), /=1\.2773$/);
  await setSlider(page, 'extend', 'pair', 41);
  const url = await pageUrl(page);
  await page.close();

  const again = await b.newPage();
  await again.goto(url);
  await again.waitForSelector('body[data-ready=true]');
  await again.waitForSelector('#extend:not([hidden])');
  assert.equal(await again.isChecked('#extend input[name=method][value=yarn]'), true);
  assert.equal(await again.inputValue('#extend input[name=pair]'), '41');
  await check(again, { model: 'llama2', method: 'yarn', factor: 16, read: 16, pair: 41 });
  assert.deepEqual(again.errors, []);
  await again.close();
});

test('unknown and out-of-range URL values fall back or are clamped, never an error page', async () => {
  const page = await openStep(b, 'extend', 'model=gpt2&method=rope&factor=3&read=64&pair=99');
  assert.deepEqual((await urlParams(page)), { step: 'extend', model: 'llama3', method: 'llama3', factor: '8', read: '16', pair: '63' });
  await check(page, { model: 'llama3', method: 'llama3', factor: 8, read: 16, pair: 63 });
  assert.deepEqual(page.errors, []);
  await page.close();
  const page2 = await openStep(b, 'extend', 'model=llama2&method=dynamic&factor=32&read=2&pair=-7');
  assert.equal(await page2.inputValue('#extend input[name=pair]'), '0');
  await check(page2, { model: 'llama2', method: 'dynamic', factor: 32, read: 2, pair: 0 });
  await page2.close();
  const page3 = await openStep(b, 'extend', 'pair=12.6&factor=16.0&method=&read=Infinity');
  assert.deepEqual((await urlParams(page3)), { step: 'extend', model: 'llama3', method: 'llama3', factor: '8', read: '16', pair: '13' });
  assert.deepEqual(page3.errors, []);
  await page3.close();
});

test('the figures draw the numbers: wavelengths on a log scale, the score curve, L marked; the CSV holds every method', async () => {
  // The score plot and the Save CSV buttons are in the Go deeper fold: opened.
  const page = await openStep(b, 'extend', 'model=llama2&method=yarn&factor=16&read=16&pair=33&deeper=1');
  const ref = reference('yarn', 'llama2', 16, 65536);
  const plain = reference('none', 'llama2', 16, 65536);
  const paths = (sel) => page.$$eval(sel, (ps) => ps.map((p) => ({
    cls: p.getAttribute('class'),
    pts: p.getAttribute('d').slice(1).split('L').map((xy) => xy.split(',').map(Number)),
  })));

  // Ladder: the scaled line (a) and the plain one (b); screen y is linear in log10(wavelength).
  const ladder = await paths('#extend .extend-waves path.series');
  assert.deepEqual(ladder.map((p) => p.cls), ['series b', 'series a']);
  for (const [line, inv] of [[ladder[1], ref.inv], [ladder[0], plain.inv]]) {
    assert.equal(line.pts.length, 64);
    const logs = inv.map((t) => Math.log10((2 * Math.PI) / t));
    const k = (line.pts[0][1] - line.pts[63][1]) / (logs[63] - logs[0]);
    for (let i = 0; i < 64; i++) assert.ok(Math.abs(line.pts[0][1] - line.pts[i][1] - k * (logs[i] - logs[0])) < 0.02, `ladder ${line.cls} ${i}`);
  }
  // The fast pairs coincide (kept by YaRN); the slow ones sit log10(16) higher.
  assert.ok(Math.abs(ladder[0].pts[5][1] - ladder[1].pts[5][1]) < 0.01);
  const up = ladder[0].pts[60][1] - ladder[1].pts[60][1];
  const decade = (ladder[1].pts[0][1] - ladder[1].pts[63][1]) / (Math.log10((2 * Math.PI) / ref.inv[63]) - Math.log10(2 * Math.PI));
  assert.ok(Math.abs(up - decade * Math.log10(16)) < 0.02, `shift ${up}`);
  const hlines = await page.$$eval('#extend .extend-waves .hline-label', (ts) => ts.map((t) => t.textContent));
  assert.deepEqual(hlines, ['L′ = 65,536', 'L = 4,096: one turn in training', '128: 32 turns within L']);
  const label = await page.getAttribute('#extend .extend-waves svg', 'aria-label');
  const turning = plain.inv.filter((t) => (2 * Math.PI) / t <= 4096).length;
  assert.match(label, new RegExp(`${turning} pairs complete a full turn .* the other ${64 - turning} do not`));
  assert.equal(turning, 46);
  assert.match(await page.textContent('#extend .extend-waves figcaption'), /Without scaling, 46 of them complete a turn within L = 4,096; the other 18 never do\./);

  // Score plot: the method's curve with 129 points, plain RoPE under it, heights linear in the score.
  const curves = await paths('#extend .extend-scores path.series');
  assert.deepEqual(curves.map((p) => p.cls), ['series a', 'series b', 'series c']);
  assert.equal(curves[0].pts.length, SAMPLES + 1);
  assert.equal((await page.$eval('#extend .extend-scores svg.lineplot', plotDots, 'a')).length, SAMPLES + 1);
  for (const [line, r] of [[curves[0], ref], [curves[1], plain]]) {
    const want = Array.from({ length: SAMPLES + 1 }, (_, k) => scoreAt(r, k * STEP));
    const k = (line.pts[0][1] - line.pts[16][1]) / (want[16] - want[0]);
    for (let j = 0; j <= SAMPLES; j++) assert.ok(Math.abs(line.pts[0][1] - line.pts[j][1] - k * (want[j] - want[0])) < 0.05, `score ${line.cls} ${j}`);
    // Evenly spaced in x, from 0 to L′.
    for (let j = 1; j <= SAMPLES; j++) assert.ok(Math.abs(line.pts[j][0] - line.pts[j - 1][0] - (line.pts[SAMPLES][0] - line.pts[0][0]) / SAMPLES) < 0.02);
  }
  // The mean over the random pairs, on the same y scale as the all-ones curve: near 0 throughout.
  const wantA = Array.from({ length: SAMPLES + 1 }, (_, j) => scoreAt(ref, j * STEP));
  const yPerScore = (curves[0].pts[0][1] - curves[0].pts[16][1]) / (wantA[16] - wantA[0]);
  const rnd = Array.from({ length: SAMPLES + 1 }, (_, j) => randomMeanAt(ref, j * STEP));
  for (let j = 0; j <= SAMPLES; j++) {
    assert.ok(Math.abs(curves[2].pts[0][1] - curves[2].pts[j][1] - yPerScore * (rnd[j] - rnd[0])) < 0.05, `random ${j}`);
  }
  const farthest = Math.max(...rnd.map(Math.abs));
  assert.ok(farthest < 0.1 * scoreAt(ref, 0), `the random mean (${farthest}) stays near 0 next to ${scoreAt(ref, 0)}`);
  // L is 1/16 of the way along.
  const vx = Number(await page.getAttribute('#extend .extend-scores line.vline.train', 'x1'));
  const [x0, xEnd] = [curves[0].pts[0][0], curves[0].pts[SAMPLES][0]];
  assert.ok(Math.abs(vx - (x0 + (xEnd - x0) / 16)) < 0.02);
  const scoreLabel = await page.getAttribute('#extend .extend-scores svg', 'aria-label');
  assert.ok(scoreLabel.includes(minus(scoreAt(ref, 65536).toFixed(2))), scoreLabel);
  assert.ok(scoreLabel.includes(minus(scoreAt(ref, 0).toFixed(2))));
  assert.ok(scoreLabel.includes(`stays within ${farthest.toFixed(2)} of 0`), scoreLabel);

  // The scores CSV: distance, every method's all-ones score and random mean.
  const [file] = await Promise.all([page.waitForEvent('download'), page.click('#extend button[data-table=scores]')]);
  const lines = (await downloaded(file)).toString('utf8').trim().split('\n');
  assert.equal(lines[0], `distance,${METHODS.map((mt) => `score_${mt}`).join(',')},${METHODS.map((mt) => `random_mean_${mt}`).join(',')}`);
  assert.equal(lines.length, SAMPLES + 2);
  const refs = METHODS.map((mt) => reference(mt, 'llama2', 16, 65536));
  for (const k of [0, 1, 8, 64, 127, 128]) {
    const cells = lines[k + 1].split(',').map(Number);
    assert.equal(cells[0], k * STEP);
    refs.forEach((r, n) => assert.ok(Math.abs(cells[n + 1] - scoreAt(r, k * STEP)) < 2e-3, `csv row ${k} ${METHODS[n]}`));
    refs.forEach((r, n) => assert.ok(Math.abs(cells[n + 1 + METHODS.length] - randomMeanAt(r, k * STEP)) < 2e-3, `csv row ${k} random ${METHODS[n]}`));
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('keyboard: arrow keys move through the choices and the pair slider, and the readouts follow', async () => {
  const page = await openStep(b, 'extend', 'model=llama2&method=none&factor=4&read=4&pair=10');
  // Plain RoPE alone: one line on the ladder, no factor in its legend, ratio 1; the score plot
  // has the all-ones curve and the random pairs' mean.
  assert.equal(await page.locator('#extend .extend-waves path.series').count(), 1);
  assert.deepEqual(await page.locator('#extend .extend-waves .legend-item').allTextContents(), ['plain RoPE']);
  assert.equal(await page.locator('#extend .extend-scores path.series').count(), 2);
  assert.equal((await snapshot(page)).readouts.ratio.text, '1.000');
  await page.focus('#extend input[name=method][value=none]');
  await page.keyboard.press('ArrowRight');
  assert.equal((await urlParams(page)).method, 'linear');
  await page.keyboard.press('ArrowRight');
  assert.equal((await urlParams(page)).method, 'ntk');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.equal((await urlParams(page)).method, 'yarn');
  await page.focus('#extend input[name=pair]');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowLeft');
  assert.equal((await urlParams(page)).pair, '62');
  await page.focus('#extend input[name=read]:checked');
  await page.keyboard.press('ArrowLeft');
  await check(page, { model: 'llama2', method: 'yarn', factor: 4, read: 2, pair: 62 });
  assert.deepEqual(page.errors, []);
  await page.close();
});
