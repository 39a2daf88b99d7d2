// Step "your-model" in Chromium: a real model's config read by modelPositions. The readouts are
// checked against numbers this test computes in Node from modelPositions' own result (θ′ᵢ) and
// from θᵢ = base^(−2i/d) (turns = n·θ/2π): the default model, one picked with the select, a
// pasted config, the pasted config again from its #config= address. Bad input (not JSON, a missing
// field, an unknown rope_type, markup) shows the API's message as text and changes nothing else;
// the URL is clamped; the step works from the keyboard; axe finds nothing; and no other step's
// first screen asks for the atlas or the step's code.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import { loadPosenc, modelPositions } from '../../wasm/posenc.js';
import { DIST, startBrowser } from './browser.js';
import { openStep, pageUrl, updateTimes, urlParams } from './steps.js';
import { expectedWith } from '../expect/your-model.js';

const ID = 'your-model';
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const atlas = JSON.parse(readFileSync(new URL('../../web/data/atlas.json', import.meta.url), 'utf8'));
const configOf = (id) => atlas.models.find((mo) => mo.id === id).config;
const pe = await loadPosenc({ simd: true });

let b;
before(async () => { b = await startBrowser(); });
after(async () => { await b?.close(); });

const expected = (config, seqLen = 0) => expectedWith(pe, config, seqLen);

/** Every readout of the step, { text, value }. */
const read = (page) => page.$$eval(`#${ID} [data-readout]`, (els) => Object.fromEntries(els.map((e) => [
  e.dataset.readout, { text: e.textContent.trim(), value: e.dataset.value === undefined ? NaN : Number(e.dataset.value) }])));

async function checkReadouts(page, config, label, seqLen = 0) {
  const want = expected(config, seqLen);
  const got = await read(page);
  if (want.turned === null) assert.equal(got.turned.text, '—', label);
  else {
    assert.equal(got.turned.value, want.turned, `${label}: pairs turning within L`);
    assert.equal(got.turned.text, `${want.turned} of ${want.pairs}`, label);
  }
  assert.equal(got.never.value, want.never, `${label}: pairs never turning`);
  assert.ok(Math.abs(got.slowest.value - want.slowest) <= 1e-12 * want.slowest, `${label}: slowest ${got.slowest.value} vs ${want.slowest}`);
  assert.ok(Math.abs(got.factor.value - want.factor) <= 1e-12, `${label}: attention factor ${got.factor.value} vs ${want.factor}`);
  assert.equal(await page.locator(`#${ID} .ym-layers-box .ym-strip .ym-cell`).count(), want.layers, `${label}: one cell per layer`);
  return got;
}

/** The message modelPositions gives for a config, as the page must show it. */
function apiMessage(config) {
  try {
    modelPositions(pe, config);
  } catch (e) {
    return e.message;
  }
  throw new Error('the config reads');
}

async function paste(page, text) {
  const box = page.locator(`#${ID} details.ym-paste`);
  if (!(await box.evaluate((d) => d.open))) await box.locator('summary').click();
  await page.locator(`#${ID} textarea[name=config]`).fill(text);
  await page.locator(`#${ID} button[name=read-config]`).click();
}

test('the default model, Llama 3.1 8B: readouts from modelPositions and the formula; other models by the select; a second model beside it', async () => {
  const page = await openStep(b, ID);
  assert.deepEqual(await urlParams(page), { step: ID, model: 'llama-3.1-8b' });
  const got = await checkReadouts(page, configOf('llama-3.1-8b'), 'llama-3.1-8b');
  assert.equal(got.factor.text, '1.0000');
  // The sentences name the slowest pair's turns in the context, as shown.
  assert.match(await page.textContent(`#${ID} .ym-says`), new RegExp(`slowest pair turns ${got.slowest.text.replace('.', '\\.')} times`));

  for (const id of ['gpt-oss-20b', 'deepseek-v3', 'qwen3-8b-yarn', 'pythia-6.9b', 'smollm3-3b']) {
    await page.selectOption(`#${ID} select[name=model]`, id);
    assert.equal((await urlParams(page)).model, id);
    const config = id === 'qwen3-8b-yarn' ? atlas.models.find((mo) => mo.id === 'qwen3-8b').variants[0].config : configOf(id);
    await checkReadouts(page, config, id);
  }
  // SmolLM3: every 4th layer (3, 7, ...) drawn as NoPE.
  const kinds = await page.$$eval(`#${ID} .ym-layers-box .ym-strip .ym-cell`, (cells) => cells.map((c) => c.classList[1]));
  assert.deepEqual(kinds, Array.from({ length: 36 }, (_, i) => (i % 4 === 3 ? 'nope' : 'full')));

  // Gemma 3 4B: no training length (linear scaling), 5 sliding layers then a global one.
  await page.selectOption(`#${ID} select[name=model]`, 'gemma-3-4b');
  const gemma = await checkReadouts(page, configOf('gemma-3-4b'), 'gemma');
  assert.equal(gemma.turned.text, '—');
  const gemmaKinds = await page.$$eval(`#${ID} .ym-layers-box .ym-strip .ym-cell`, (cells) => cells.map((c) => c.classList[1]));
  assert.deepEqual(gemmaKinds, Array.from({ length: 34 }, (_, i) => (i % 6 === 5 ? 'full' : 'sliding')));
  assert.equal(await page.locator(`#${ID} .ym-waves .series.c`).count(), 1, 'the sliding layers\' base drawn too');

  // GPT-2: no pairs; the chart gives way to a sentence, the readouts to dashes.
  await page.selectOption(`#${ID} select[name=model]`, 'gpt2');
  assert.ok(await page.locator(`#${ID} .ym-waves`).isHidden());
  assert.match(await page.textContent(`#${ID} .ym-no-pairs`), /1,024 position vectors/);
  assert.deepEqual(Object.values(await read(page)).map((r) => r.text), ['—', '—', '—', '—']);

  // A second model: its line on the chart, its sentences and layers under the first's.
  await page.selectOption(`#${ID} select[name=model]`, 'llama-3.1-8b');
  await page.selectOption(`#${ID} select[name=vs]`, 'llama-2-7b');
  assert.deepEqual(await urlParams(page), { step: ID, model: 'llama-3.1-8b', vs: 'llama-2-7b' });
  assert.equal(await page.locator(`#${ID} .ym-waves .series.d`).count(), 1);
  assert.equal(await page.textContent(`#${ID} .ym-compare h3`), 'Llama 2 7B');
  assert.equal(await page.locator(`#${ID} .ym-compare .ym-strip .ym-cell`).count(), 32);
  await checkReadouts(page, configOf('llama-3.1-8b'), 'first model unchanged by the second');
  // "Open in the Lab" carries the model's lead RoPE setting under the Lab's names.
  const lab = page.locator(`#${ID} a.step-lab`);
  await lab.focus();
  const href = new URL(await lab.getAttribute('href'));
  assert.deepEqual(Object.fromEntries(href.searchParams), { family: 'rope', d: '128', base: '500000', layout: 'half', scaling: 'llama3', factor: '8', orig: '8192', lowFreq: '1', highFreq: '4' });
  await updateTimes(page, ID);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('Phi-3.5\'s LongRoPE by the length of the text; Llama 3.1 beside Llama 2 in a table and two columns', async () => {
  const page = await openStep(b, ID, 'model=phi-3.5-mini');
  const phi = configOf('phi-3.5-mini');
  const radios = page.locator(`#${ID} .ym-length input[type=radio]`);
  assert.equal(await radios.count(), 2, 'short and long factors');
  assert.ok(await radios.nth(0).isChecked(), 'as loaded: the short factors');
  const short = await checkReadouts(page, phi, 'phi as loaded');
  // The long factors, by the keyboard: the radio group's arrow key.
  await radios.nth(0).focus();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((id) => new URL(location.href).searchParams.get('len') !== null, ID);
  assert.equal((await urlParams(page)).len, String(phi.max_position_embeddings));
  const long = await checkReadouts(page, phi, 'phi, long factors', phi.max_position_embeddings);
  assert.notEqual(long.slowest.value, short.slowest.value, 'the long factors slow the slowest pair');
  // Another model reads as loaded and has no length to choose.
  await page.selectOption(`#${ID} select[name=model]`, 'llama-3.1-8b');
  assert.ok(await page.locator(`#${ID} .ym-length`).isHidden());
  assert.equal((await urlParams(page)).len, undefined);

  // Two models: a table of both readouts, as each model's cards would show them alone.
  await page.selectOption(`#${ID} select[name=vs]`, 'llama-2-7b');
  const cells = (row) => page.$$eval(`#${ID} .ym-table tr[data-row=${row}] td`, (tds) => tds.map((td) => td.textContent));
  const first = await read(page);
  const table = {};
  for (const row of ['turned', 'never', 'slowest', 'factor', 'trained', 'context']) table[row] = await cells(row);
  await page.selectOption(`#${ID} select[name=model]`, 'llama-2-7b');
  await page.selectOption(`#${ID} select[name=vs]`, 'none');
  const second = await read(page);
  for (const row of ['turned', 'never', 'slowest', 'factor']) assert.deepEqual(table[row], [first[row].text, second[row].text], row);
  assert.deepEqual(table.trained, ['8,192', '4,096']);
  assert.deepEqual(table.context, ['131,072', '4,096']);
  assert.equal(await page.locator(`#${ID} .ym-table`).count(), 0, 'no table for one model');

  // Side by side on a wide page, one under the other on a phone.
  const columns = async () => page.evaluate((id) => {
    const [a, c] = [document.querySelector(`#${id} .ym-first`), document.querySelector(`#${id} .ym-compare`)].map((e) => e.getBoundingClientRect());
    return { sameTop: Math.abs(a.top - c.top) < 2, cLeft: c.left > a.right - 1 };
  }, ID);
  await page.selectOption(`#${ID} select[name=model]`, 'llama-3.1-8b');
  await page.selectOption(`#${ID} select[name=vs]`, 'llama-2-7b');
  assert.deepEqual(await columns(), { sameTop: true, cLeft: true }, 'two columns at 1280 px');
  await page.setViewportSize({ width: 375, height: 800 });
  assert.deepEqual(await columns(), { sameTop: false, cLeft: false }, 'stacked at 375 px');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('bad pastes: not JSON, a missing field, an unknown rope_type, markup; each names its fault as text and changes nothing else', async () => {
  const page = await openStep(b, ID, 'model=mistral-7b-v0.1');
  const before = await read(page);
  const error = page.locator(`#${ID} .ym-error`);
  const missing = { model_type: 'llama', hidden_size: 64, num_attention_heads: 4, max_position_embeddings: 2048 };
  const warp = { ...missing, num_hidden_layers: 2, rope_scaling: { rope_type: 'warp', factor: 2 } };
  const tagged = { model_type: '<img src=x onerror=alert(1)>' };
  const cases = [
    ['{"model_type": "llama",', /^This is not JSON, so it cannot be a config\.json\. The parser says: .+/],
    [JSON.stringify(missing), new RegExp(`^This config cannot be read \\(TypeError\\): ${escape(apiMessage(missing))}`)],
    [JSON.stringify(warp), new RegExp(`^This config cannot be read \\((Type|Range)Error\\): ${escape(apiMessage(warp))}`)],
    [JSON.stringify(tagged), new RegExp(escape(apiMessage(tagged)))],
    ['<img src=x onerror=alert(1)><b>bold</b>', /not JSON/],
    ['   ', /nothing to read/],
  ];
  assert.match(apiMessage(missing), /num_hidden_layers/);
  assert.match(apiMessage(warp), /rope_type/);
  for (const [text, pattern] of cases) {
    await paste(page, text);
    const shown = await error.textContent();
    assert.match(shown, pattern, text);
    assert.match(shown, /The chart still shows Mistral 7B v0\.1\./);
    // Text only: at most the API's or the parser's words in one <span lang=en>, nothing parsed.
    assert.deepEqual(await page.$$eval(`#${ID} .ym-error *`, (els) => els.map((e) => `${e.tagName} ${e.lang} ${e.childElementCount}`)),
      /nothing to read/.test(shown) ? [] : ['SPAN en 0'], text);
    assert.equal(await page.locator(`#${ID} img, #${ID} b`).count(), 0, 'pasted markup is never parsed');
    assert.deepEqual(await read(page), before, `${text}: the readouts did not move`);
    assert.equal(new URL(await pageUrl(page)).hash, '', 'no config kept in the address');
    assert.equal((await urlParams(page)).model, 'mistral-7b-v0.1');
  }
  assert.equal(await page.locator(`#${ID} select[name=model] option[value=pasted]`).count(), 0);
  assert.deepEqual(page.errors, []);
  await page.close();
});

function escape(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

test('a good paste is drawn, kept in #config= and reopened from that address; a broken address falls back with its message', async () => {
  const page = await openStep(b, ID, 'model=llama-2-7b');
  const config = {
    model_type: 'qwen3', hidden_size: 1024, num_attention_heads: 8, head_dim: 64, num_hidden_layers: 6, max_position_embeddings: 65536,
    rope_theta: 250000, rope_scaling: { rope_type: 'yarn', factor: 8, original_max_position_embeddings: 8192 }, note: '<b>kept as text</b>',
  };
  await paste(page, JSON.stringify(config, null, 2));
  assert.equal(await page.textContent(`#${ID} .ym-error`), '');
  const got = await checkReadouts(page, config, 'pasted');
  assert.equal(await page.inputValue(`#${ID} select[name=model]`), 'pasted');
  assert.equal(await page.textContent(`#${ID} select[name=model] option[value=pasted]`), 'Your pasted config (qwen3)');
  const url = new URL(await pageUrl(page));
  assert.equal(url.searchParams.get('model'), 'pasted');
  assert.equal(url.hash, `#config=${encodeURIComponent(JSON.stringify(config))}`);
  // The unread key is listed in the fold, as text.
  await page.locator(`#${ID} details.deeper summary`).click();
  // (The fold is drawn when it opens: its toggle event comes a task after the click.)
  await page.waitForFunction((id) => document.querySelector(`#${id} .ym-read`).textContent.length > 0, ID);
  assert.match(await page.textContent(`#${ID} .ym-read`), /note/);
  // The score chart: at distance 0 every rotated pair gives a²·2 (a from modelPositions), the
  // other dimensions 1 each; drawn from 0 to the context.
  const lead = modelPositions(pe, config).layers[0].rope;
  const s0 = 2 * lead.attentionFactor ** 2 * (lead.rotaryDim / 2) + (64 - lead.rotaryDim);
  assert.match(await page.getAttribute(`#${ID} .ym-scores svg`, 'aria-label'), new RegExp(`${s0.toFixed(2)} at distance 0, .* at 65,536`));
  assert.equal(await page.locator(`#${ID} .ym-read b`).count(), 0);
  await page.close();

  const again = await b.newPage();
  await again.goto(url.href);
  await again.waitForSelector(`#${ID}[data-shown=true]:not([hidden])`);
  assert.deepEqual(await read(again), got);
  assert.equal(await again.inputValue(`#${ID} select[name=model]`), 'pasted');
  // Another model drops the config from the address; choosing it again puts it back.
  await again.selectOption(`#${ID} select[name=model]`, 'bert-base-uncased');
  assert.equal(new URL(await pageUrl(again)).hash, '');
  await again.selectOption(`#${ID} select[name=model]`, 'pasted');
  assert.equal(new URL(await pageUrl(again)).hash, url.hash);
  assert.deepEqual(again.errors, []);
  await again.close();

  // 4,096 layers (the API's cap) at 375 px: drawn, one cell each, without widening the page.
  const phone = await openStep(b, ID, '', { viewport: { width: 375, height: 800 } });
  const deep = { ...config, num_hidden_layers: 4096, max_window_layers: 4096 };
  await paste(phone, JSON.stringify(deep));
  await checkReadouts(phone, deep, '4096 layers');
  assert.ok(await phone.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth), 'no sideways scroll');
  assert.deepEqual(phone.errors, []);
  await phone.close();

  // A broken config in the address: its text in the box, its message, the default model.
  const broken = await openStep(b, ID, `model=pasted#config=${encodeURIComponent('{"model_type": 3}')}`);
  assert.equal((await urlParams(broken)).model, 'llama-3.1-8b');
  assert.equal(await broken.inputValue(`#${ID} textarea[name=config]`), '{"model_type": 3}');
  assert.match(await broken.textContent(`#${ID} .ym-error`), /model_type/);
  assert.ok(await broken.locator(`#${ID} details.ym-paste`).evaluate((d) => d.open));
  await checkReadouts(broken, configOf('llama-3.1-8b'), 'fallback');
  assert.deepEqual(broken.errors, []);
  await broken.close();
});

test('URL values are clamped: unknown models fall back to the defaults, "pasted" without a config too', async () => {
  for (const query of ['model=gpt-5&vs=%3Cscript%3E', 'model=pasted', 'model=&vs=', 'model=__proto__&vs=constructor']) {
    const page = await openStep(b, ID, query);
    assert.deepEqual(await urlParams(page), { step: ID, model: 'llama-3.1-8b' }, query);
    await checkReadouts(page, configOf('llama-3.1-8b'), query);
    assert.deepEqual(page.errors, [], query);
    await page.close();
  }
});

test('keyboard: the model select, the paste box, its button and the second model work without a pointer', async () => {
  const page = await openStep(b, ID, 'model=llama-2-7b');
  await page.focus(`#${ID} select[name=model]`);
  await page.keyboard.press('ArrowDown');  // the next atlas entry
  assert.equal((await urlParams(page)).model, 'llama-3.1-8b');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.tagName), 'SUMMARY');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.name), 'config');
  await page.keyboard.type(JSON.stringify(configOf('mistral-7b-v0.3')));
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.name), 'read-config');
  await page.keyboard.press('Enter');
  assert.equal((await urlParams(page)).model, 'pasted');
  await checkReadouts(page, configOf('mistral-7b-v0.3'), 'typed by keyboard');
  // The second model's select, under the first model's text: reached by Tab, moved by the arrows.
  await page.locator(`#${ID} select[name=vs]`).focus();
  await page.keyboard.press('ArrowDown');
  assert.equal((await urlParams(page)).vs, 'gpt2');
  assert.equal(await page.textContent(`#${ID} .ym-compare h3`), 'GPT-2 (124M)');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('axe finds no violation: the default, a pasted error, the fold open, a model without pairs, a phone', async () => {
  for (const [query, viewport] of [['model=gemma-3-4b&vs=smollm3-3b&deeper=1'], ['model=t5-base&deeper=1&theme=dark'], ['model=deepseek-v3&deeper=1', { width: 375, height: 800 }]]) {
    const page = await openStep(b, ID, query, viewport ? { viewport } : {});
    await paste(page, '{oops');
    await page.evaluate(AXE);
    const violations = await page.evaluate(async (sel) => {
      const r = await window.axe.run(document.querySelector(sel), { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] }, resultTypes: ['violations'] });
      return r.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
    }, `#${ID}`);
    assert.deepEqual(violations, [], query);
    assert.deepEqual(page.errors, [], query);
    await page.close();
  }
});

test('no other step\'s first screen asks for the atlas or this step\'s code; this step\'s does', async () => {
  const browser = b.context.browser();
  const early = async (step) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${b.url}?step=${step}`);
    await page.waitForFunction(() => performance.getEntriesByName('posenc:ready').length > 0);
    const names = await page.evaluate(() => {
      const ready = performance.getEntriesByName('posenc:ready')[0].startTime;
      return performance.getEntriesByType('resource').filter((e) => e.startTime < ready).map((e) => e.name);
    });
    await context.close();
    return names;
  };
  const mine = (names) => names.filter((n) => /your-model|atlas/.test(n));
  assert.ok(mine(await early(ID)).length > 0, 'the pattern finds this step\'s files on its own first screen');
  for (const step of ['order', 'rope', 'extend']) assert.deepEqual(mine(await early(step)), [], step);
});

test('the single file carries the atlas: opened from file:// with a model in its URL, no request; an embed of the step with a model', async () => {
  const single = new URL('positional-encoding.html', `file://${DIST}`).href;
  const page = await b.newPage();
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(`${single}?step=${ID}&model=gpt-oss-20b&vs=smollm3-3b`);
  await page.waitForSelector(`#${ID}[data-shown=true]:not([hidden])`);
  await checkReadouts(page, configOf('gpt-oss-20b'), 'single file');
  assert.equal(await page.textContent(`#${ID} .ym-compare h3`), 'SmolLM3 3B');
  assert.deepEqual(requests.filter((u) => !u.startsWith(single.split('?')[0])), []);
  assert.deepEqual(page.errors, []);
  await page.close();

  const embed = await openStep(b, ID, 'model=phi-3.5-mini&embed=1');
  assert.ok(await embed.evaluate(() => document.body.classList.contains('embed')));
  assert.equal(await embed.locator('#step-nav').isVisible(), false, 'no step list in an embed');
  await checkReadouts(embed, configOf('phi-3.5-mini'), 'embed');
  assert.deepEqual(embed.errors, []);
  await embed.close();
});
