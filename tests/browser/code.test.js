// Step "code" in Chromium: for every quantity and many settings, the value card shows what
// web/steps/code/model.js computes (here run in Node on the SIMD build, as the page runs it), and
// the NumPy and PyTorch programs the page shows, run with Debian's python3, print the card's
// text. The pairing table, copy buttons (clipboard granted and refused), the quantity picker by
// keyboard, URL state and clamping. The model's values against the formulas over every setting
// are tests/js/code-model.test.js.
import assert from 'node:assert/strict';
import { runPython } from '../js/python.js';
import { after, before, test } from 'node:test';
import { startBrowser } from './browser.js';
import { openStep, percentile, readout, setSlider, updateTimes, urlParams, pageUrl } from './steps.js';
import { fixed } from '../expect/rope.js';
import { loadPosenc } from '../../wasm/posenc.js';
import { pythonFixed } from '../../web/kit/format.js';
import { codeModel } from '../../web/steps/code/model.js';
import { DIGITS } from '../../web/steps/code/setup.js';

const model = codeModel(await loadPosenc({ simd: true }));
const pyFixed = pythonFixed('en');  // the card's format: Python's half-to-even, no grouping

let b;
before(async () => { b = await startBrowser(); });
after(async () => { await b?.close(); });


// Settings to visit, as the controls would set them (the defaults fill the rest).
const STATES = [
  { quantity: 'pe', pos: 10, dim: 4 }, { quantity: 'pe', pos: 0, dim: 0 }, { quantity: 'pe', pos: 49, dim: 19 },
  { quantity: 'pe', pos: 37, dim: 7 },
  { quantity: 'wavelength', wdim: 0 }, { quantity: 'wavelength', wdim: 7 }, { quantity: 'wavelength', wdim: 15 },
  { quantity: 'dot', width: 16, i: 3, j: 8 }, { quantity: 'dot', width: 16, i: 0, j: 19 }, { quantity: 'dot', width: 16, i: 12, j: 12 },
  { quantity: 'dot', width: 8, i: 2, j: 8 }, { quantity: 'dot', width: 8, i: 19, j: 0 },
  { quantity: 'rope', m: 3, n: 7 }, { quantity: 'rope', m: 0, n: 19 }, { quantity: 'rope', m: 15, n: 15 }, { quantity: 'rope', m: 11, n: 2 },
  { quantity: 'partial-rope', m: 3, n: 7 }, { quantity: 'partial-rope', m: 19, n: 0 }, { quantity: 'partial-rope', m: 9, n: 9 },
  { quantity: 't5', bidir: true, rel: -20 }, { quantity: 't5', bidir: true, rel: -16 }, { quantity: 't5', bidir: true, rel: 16 },
  { quantity: 't5', bidir: true, rel: 32 }, { quantity: 't5', bidir: true, rel: -64 }, { quantity: 't5', bidir: true, rel: 0 },
  { quantity: 't5', bidir: true, rel: 200 }, { quantity: 't5', bidir: false, rel: -64 },
  { quantity: 't5', bidir: false, rel: 5 }, { quantity: 't5', bidir: false, rel: -32 }, { quantity: 't5', bidir: false, rel: -200 },
  { quantity: 'alibi', heads: 8, head: 3, dist: 5 }, { quantity: 'alibi', heads: 6, head: 5, dist: 20 },
  { quantity: 'alibi', heads: 16, head: 3, dist: 7 }, { quantity: 'alibi', heads: 12, head: 10, dist: 13 },
  { quantity: 'alibi', heads: 1, head: 1, dist: 0 }, { quantity: 'alibi', heads: 8, head: 7, dist: 1 },
  { quantity: 'scaled', scaling: 'default', factor: 8, pair: 0 }, { quantity: 'scaled', scaling: 'default', factor: 8, pair: 63 },
  { quantity: 'scaled', scaling: 'linear', factor: 4, pair: 10 }, { quantity: 'scaled', scaling: 'dynamic', factor: 8, pair: 40 },
  { quantity: 'scaled', scaling: 'yarn', factor: 16, pair: 30 },
  { quantity: 'scaled', scaling: 'ntk', factor: 8, pair: 63 }, { quantity: 'scaled', scaling: 'ntk', factor: 4, pair: 20 },
  { quantity: 'scaled', scaling: 'yarn', factor: 32, pair: 50 }, { quantity: 'scaled', scaling: 'llama3', factor: 8, pair: 20 },
  { quantity: 'scaled', scaling: 'llama3', factor: 8, pair: 35 }, { quantity: 'scaled', scaling: 'llama3', factor: 2, pair: 45 },
];

async function pick(page, name, value) {
  await page.click(`#code .choice-item:has(input[name=${name}][value="${value}"]) label`);
}

/** Drives the controls to `state`: the quantity first (it rebuilds the controls), then the rest. */
async function setState(page, state) {
  await pick(page, 'quantity', state.quantity);
  for (const [name, value] of Object.entries(state)) {
    if (name === 'quantity') continue;
    if (typeof value === 'boolean') {
      const box = page.locator(`#code input[name=${name}]`);
      if ((await box.isChecked()) !== value) await box.click();
    } else if (['width', 'scaling', 'factor'].includes(name)) {
      await pick(page, name, value);
    } else {
      await setSlider(page, 'code', name, value);
    }
  }
}


test('every quantity: the card shows the model\'s value, and the NumPy and PyTorch programs print the card', async (t) => {
  const page = await openStep(b, 'code');
  const seen = [];
  for (const state of STATES) {
    await setState(page, state);
    const q = state.quantity;
    const values = { ...state };
    const card = await readout(page, 'code', 'value');
    const want = model.compute[q](values).value;
    assert.equal(card.value, want, `${JSON.stringify(state)}: card`);
    // The text has the quantity's digits and is the value rounded to them.
    assert.equal(card.text, pyFixed(want, DIGITS[q]), `${JSON.stringify(state)}: card text`);
    // The URL holds the state.
    const url = (await urlParams(page));
    for (const [k, v] of Object.entries(state)) assert.equal(url[k], typeof v === 'boolean' ? (v ? '1' : '0') : String(v), `${k} in the URL`);
    const numpy = await page.inputValue('#code textarea[data-lib=numpy]');
    const torch = await page.inputValue('#code textarea[data-lib=torch]');
    seen.push({ state, text: card.text, numpy, torch });
  }
  const times = await updateTimes(page, 'code');
  t.diagnostic(`update p50 ${percentile(times, 50).toFixed(2)} ms, p95 ${percentile(times, 95).toFixed(2)} ms over ${times.length}`);
  assert.deepEqual(page.errors, []);
  await page.close();

  // The programs, run.
  // Both libraries at once: importing torch alone takes seconds here.
  const [printed, printedTorch] = await Promise.all([
    runPython(seen.map((s) => s.numpy), 'numpy'), runPython(seen.map((s) => s.torch), 'torch'),
  ]);
  assert.ok(printed, 'python3-numpy is installed (wasm/tools/setup.sh)');
  seen.forEach((s, k) => assert.equal(printed[k], `${s.text}\n`, `NumPy for ${JSON.stringify(s.state)}:\n${s.numpy}`));
  // wasm/tools/setup.sh installs python3-torch, so a missing torch is a failure, not a skip.
  assert.ok(printedTorch, 'python3-torch is installed (wasm/tools/setup.sh)');
  seen.forEach((s, k) => assert.equal(printedTorch[k], `${s.text}\n`, `PyTorch for ${JSON.stringify(s.state)}:\n${s.torch}`));
  t.diagnostic(`ran ${seen.length} NumPy and ${seen.length} PyTorch programs`);
});

test('the seeds\' numbers: PE(10, 4) = 0.9999, PE(3)·PE(8) = 6.1370, q′(3)·k′(7) = 1.1786, PE(2)·PE(8) at d = 8 is 3.7837', async () => {
  const page = await openStep(b, 'code');
  assert.equal((await readout(page, 'code', 'value')).text, '0.9999');
  await page.goto(`${b.url}?step=code&quantity=dot&i=3&j=8&width=16`);
  await page.waitForSelector('body[data-ready=true]');
  assert.equal((await readout(page, 'code', 'value')).text, '6.1370');
  await page.goto(`${b.url}?step=code&quantity=rope&m=3&n=7`);
  await page.waitForSelector('body[data-ready=true]');
  assert.equal((await readout(page, 'code', 'value')).text, '1.1786');
  await page.goto(`${b.url}?step=code&quantity=dot&i=2&j=8&width=8`);
  await page.waitForSelector('body[data-ready=true]');
  assert.equal((await readout(page, 'code', 'value')).text, '3.7837');
  // The settings table names what the programs use.
  const cells = await page.$$eval('#code .code-settings tbody tr', (rows) => rows.map((r) => r.textContent.trim()));
  assert.ok(cells.some((c) => /^width\s*8$/.test(c)), cells.join('|'));
  assert.ok(cells.some((c) => /^i\s*2$/.test(c)) && cells.some((c) => /^j\s*8$/.test(c)), cells.join('|'));
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('only the current quantity\'s controls exist; the picker works by keyboard and writes the URL', async () => {
  const page = await openStep(b, 'code', 'quantity=pe');
  const names = () => page.$$eval('#code .controls input', (els) => [...new Set(els.map((e) => e.name))]);
  assert.deepEqual(await names(), ['pos', 'dim']);
  await page.locator('#code input[name=quantity]:checked').focus();
  await page.keyboard.press('ArrowRight');
  assert.equal((await urlParams(page)).quantity, 'wavelength');
  assert.deepEqual(await names(), ['wdim']);
  await page.keyboard.press('ArrowRight');
  assert.deepEqual(await names(), ['width', 'i', 'j']);
  await page.keyboard.press('End');  // radio groups: End is not a radio key, ArrowLeft wraps around
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  assert.equal((await urlParams(page)).quantity, 'scaled');
  assert.deepEqual(await names(), ['scaling', 'factor', 'pair']);
  // A slider by keyboard.
  await page.locator('#code input[name=pair]').focus();
  await page.keyboard.press('Home');
  assert.equal((await urlParams(page)).pair, '0');
  const card = await readout(page, 'code', 'value');
  assert.equal(card.value, model.compute.scaled({ scaling: 'yarn', factor: 8, pair: 0 }).value);
  assert.equal(card.text, '6.28');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('ALiBi: the head slider ends at the number of heads, and a head past it is clamped', async () => {
  const page = await openStep(b, 'code', 'quantity=alibi&heads=4&head=9&dist=3');
  assert.equal(await page.inputValue('#code input[name=head]'), '4');
  assert.equal(await page.getAttribute('#code input[name=head]', 'max'), '4');
  assert.equal((await readout(page, 'code', 'value')).value, model.compute.alibi({ heads: 4, head: 4, dist: 3 }).value);
  await setSlider(page, 'code', 'heads', 16);
  await setSlider(page, 'code', 'head', 12);
  assert.equal((await readout(page, 'code', 'value')).value, model.compute.alibi({ heads: 16, head: 12, dist: 3 }).value);
  await setSlider(page, 'code', 'heads', 5);
  assert.equal(await page.inputValue('#code input[name=head]'), '5');
  assert.equal((await urlParams(page)).head, '5');
  assert.equal((await readout(page, 'code', 'value')).value, model.compute.alibi({ heads: 5, head: 5, dist: 3 }).value);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the URL reopens a state, and bad values are clamped or fall back to the defaults', async () => {
  const page = await openStep(b, 'code', 'quantity=t5&rel=-64&bidir=0');
  assert.equal((await readout(page, 'code', 'value')).text, String(model.compute.t5({ rel: -64, bidir: false }).value));
  assert.equal(await page.isChecked('#code input[name=bidir]'), false);
  await setSlider(page, 'code', 'rel', 17);
  const url = await pageUrl(page);
  await page.close();
  const again = await b.newPage();
  await again.goto(url);
  await again.waitForSelector('body[data-ready=true]');
  assert.equal(await again.inputValue('#code input[name=rel]'), '17');
  assert.equal((await readout(again, 'code', 'value')).value, model.compute.t5({ rel: 17, bidir: false }).value);
  assert.deepEqual(again.errors, []);
  await again.close();

  const bad = await openStep(b, 'code', 'quantity=nope&pos=999&dim=-3');
  assert.equal((await urlParams(bad)).quantity, 'pe');
  assert.equal(await bad.inputValue('#code input[name=pos]'), '49');
  assert.equal(await bad.inputValue('#code input[name=dim]'), '0');
  assert.equal((await readout(bad, 'code', 'value')).text, pyFixed(model.compute.pe({ pos: 49, dim: 0 }).value, 4));
  assert.deepEqual(bad.errors, []);
  await bad.close();
  const bad2 = await openStep(b, 'code', 'quantity=scaled&scaling=ntk2&factor=3&pair=1e9');
  assert.deepEqual([(await urlParams(bad2)).scaling, (await urlParams(bad2)).factor, (await urlParams(bad2)).pair], ['yarn', '8', '63']);
  assert.equal((await readout(bad2, 'code', 'value')).value, model.compute.scaled({ scaling: 'yarn', factor: 8, pair: 63 }).value);
  assert.deepEqual(bad2.errors, []);
  await bad2.close();
});

test('Copy puts the program on the clipboard; without a clipboard the program is selected and the status says how to copy', async () => {
  await b.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(b.url).origin });
  const page = await openStep(b, 'code', 'quantity=rope&m=5&n=1');
  await page.click('#code button[name=copy-numpy]');
  await page.waitForFunction(() => document.querySelector('#code .code-status')?.textContent.length > 0);
  const numpy = await page.inputValue('#code textarea[data-lib=numpy]');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), numpy);
  assert.match(await page.textContent('#code .code-status'), /Copied/);
  assert.match(numpy, /^m, n = 5, 1$/m);
  await page.close();

  const refused = await b.newPage();
  await refused.addInitScript(() => {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.reject(new Error('denied')) } });
  });
  await refused.goto(`${b.url}?step=code&quantity=t5`);
  await refused.waitForSelector('body[data-ready=true]');
  await refused.locator('#code button[name=copy-torch]').focus();
  await refused.keyboard.press('Enter');
  const statuses = refused.locator('#code .code-status');
  await refused.waitForFunction(() => document.querySelectorAll('#code .code-status')[1]?.textContent.length > 0);
  assert.match(await statuses.nth(1).textContent(), /Ctrl\+C/);
  const sel = await refused.evaluate(() => {
    const ta = document.querySelector('#code textarea[data-lib=torch]');
    return { focused: document.activeElement === ta, start: ta.selectionStart, end: ta.selectionEnd, length: ta.value.length };
  });
  assert.deepEqual(sel, { focused: true, start: 0, end: sel.length, length: sel.length });
  assert.ok(sel.length > 100);
  // A new setting clears the status.
  await setSlider(refused, 'code', 'rel', 3);
  assert.equal(await statuses.nth(1).textContent(), '');
  assert.deepEqual(refused.errors, []);
  await refused.close();
});

test('the pairing table (moved from the RoPE step): neighbours give 1.1786 at (3, 7), rotate_half on the same vectors 0.8635, and the permuted vectors the neighbours\' score again', async () => {
  const page = await openStep(b, 'code', 'quantity=rope&m=3&n=7&deeper=1');
  const cells = async () => Object.fromEntries(await Promise.all(['interleaved', 'half', 'permuted'].map(async (k) => [k, await readout(page, 'code', `pairing-${k}`)])));
  assert.ok(await page.isVisible('#code .code-pairing'), 'the table shows in the open fold');
  const shows = async (m, n) => {
    const got = await cells();
    const want = model.pairing(m, n);
    for (const k of ['interleaved', 'half', 'permuted']) {
      assert.equal(got[k].value, want[k], `${k} at (${m}, ${n})`);
      assert.equal(got[k].text, fixed(want[k], 4), `${k} text at (${m}, ${n})`);
    }
    return got;
  };
  const got = await shows(3, 7);
  assert.equal(got.interleaved.text, '1.1786');
  assert.equal(got.half.text, '0.8635');
  assert.equal(got.permuted.text, '1.1786');
  assert.match(await page.textContent('#code .code-pairing caption'), /m = 3 and n = 7/);
  for (const [m, n] of [[0, 0], [12, 5], [19, 2], [8, 14]]) {
    await setSlider(page, 'code', 'm', m);
    await setSlider(page, 'code', 'n', n);
    await shows(m, n);
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});
