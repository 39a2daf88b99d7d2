// Step 'choose' in Chromium: four questions → one recommended method. The page shows what
// web/steps/choose/model.js decides and computes (here run in Node on the SIMD build, as the page
// runs it): the method, its table row, the plot's numbers (saved as CSV) and the numbers its
// words quote; the controls by mouse and keyboard, the URL, the phone width. recommend() against
// the rule table and the curves against the formulas are tests/js/choose-model.test.js.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startBrowser } from './browser.js';
import { downloaded, minus, openStep, plotDots, readout, updateTimes, urlParams } from './steps.js';
// The answers and the method names (en): shared with the cross-engine suite.
import { ANSWERS, NAMES } from '../expect/choose.js';
import { loadPosenc } from '../../wasm/posenc.js';
import { familyOf, recommend, signals } from '../../web/steps/choose/model.js';

const SIGNALS = signals(await loadPosenc({ simd: true }));

const ID = 'choose';
let b;
before(async () => { b = await startBrowser(); });
after(async () => { await b?.close(); });

const ALL = [];
for (const data of ANSWERS.data) for (const model of ANSWERS.model) for (const length of ANSWERS.length) {
  for (const want of ANSWERS.want) ALL.push({ data, model, length, want });
}

async function checkState(page, a) {
  const { method } = recommend(a);
  // One round trip for everything the state shows.
  const got = await page.evaluate(({ id, names }) => {
    const root = document.getElementById(id);
    const r = root.querySelector('[data-readout=method]');
    return {
      text: r.textContent.trim(), value: r.dataset.value,
      name: root.querySelector('.choose-name').textContent,
      rule: root.querySelector('.choose-rule').textContent,
      picked: [...root.querySelectorAll('.choose-table tbody tr.picked')].map((tr) => tr.dataset.family),
      // Shown, unless the table's fold is closed (then it shows when the fold opens).
      badges: [...root.querySelectorAll('.choose-badge')].filter((el) => !el.hidden && (el.checkVisibility() || el.closest('details:not([open])')))
        .map((el) => el.closest('tr').dataset.family),
      checked: Object.fromEntries(names.map((n) => [n, root.querySelector(`input[name=${n}]:checked`)?.value])),
    };
  }, { id: ID, names: Object.keys(ANSWERS) });
  const label = JSON.stringify(a);
  assert.equal(got.text, NAMES[method], label);
  assert.equal(got.value, method, label);
  assert.equal(got.name, NAMES[method], label);
  assert.match(got.rule, /^Decided by: /);
  // Exactly one table row is marked, the method's family, with a visible word as well.
  assert.deepEqual(got.picked, [familyOf(method)], label);
  assert.deepEqual(got.badges, [familyOf(method)], label);
  assert.deepEqual(got.checked, a);
}

/** Clicks the answers of `a` that differ from `now` (updated). */
async function answer(page, now, a) {
  for (const k of Object.keys(ANSWERS)) {
    if (now[k] === a[k]) continue;
    await page.locator(`#${ID} .choice-item:has(input[name=${k}][value="${a[k]}"]) label`).click();
    now[k] = a[k];
  }
}

test('clicking through all 40 answer sets shows the rule-table method, its row and its URL', async () => {
  const page = await openStep(b, ID);
  // The default answers: text, decoder, fixed length, a modern LLM → RoPE.
  assert.deepEqual((await urlParams(page)), { step: ID, data: 'text', model: 'decoder', length: 'fixed', want: 'llm' });
  await checkState(page, { data: 'text', model: 'decoder', length: 'fixed', want: 'llm' });
  const now = { data: 'text', model: 'decoder', length: 'fixed', want: 'llm' };
  for (const a of ALL) {
    await answer(page, now, a);
    await checkState(page, a);
    assert.deepEqual((await urlParams(page)), { step: ID, ...a });
  }
  const times = await updateTimes(page, ID);
  assert.ok(times.length >= 40, `${times.length} updates measured`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('each answer set opened from its URL shows the same recommendation; bad values fall back to the defaults', async () => {
  const page = await b.newPage();
  for (const [query, a] of [
    ['data=image&model=encoder&length=longer&want=checkpoint', { data: 'image', model: 'encoder', length: 'longer', want: 'checkpoint' }],
    ['data=text&model=encoder&length=fixed&want=distance', { data: 'text', model: 'encoder', length: 'fixed', want: 'distance' }],
    ['data=video&model=&length=LONGER&want=extrapolate', { data: 'text', model: 'decoder', length: 'fixed', want: 'extrapolate' }],
    ['want=%3Cscript%3E&length=longer&model=1', { data: 'text', model: 'decoder', length: 'longer', want: 'llm' }],
  ]) {
    await page.goto(`${b.url}?step=${ID}&${query}`);
    await page.waitForSelector('body[data-ready=true]');
    await checkState(page, a);
    assert.deepEqual((await urlParams(page)), { step: ID, ...a }, query);
    assert.deepEqual(page.errors, [], query);
  }
  await page.close();
});

test('the arrow keys move within a question and change the recommendation', async () => {
  const page = await openStep(b, ID, 'data=text&model=decoder&length=fixed&want=baseline');
  await checkState(page, { data: 'text', model: 'decoder', length: 'fixed', want: 'baseline' });
  await page.locator(`#${ID} input[name=want][value=baseline]`).focus();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('want') === 'checkpoint');
  await checkState(page, { data: 'text', model: 'decoder', length: 'fixed', want: 'checkpoint' });
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('want') === 'distance');
  await checkState(page, { data: 'text', model: 'decoder', length: 'fixed', want: 'distance' });
  await page.locator(`#${ID} input[name=model][value=decoder]`).focus();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('model') === 'encoder');
  await checkState(page, { data: 'text', model: 'encoder', length: 'fixed', want: 'distance' });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the plot of the pick against distance holds the model\'s values (CSV), and says so in words', async () => {
  const base = { data: 'text', model: 'decoder', length: 'fixed' };
  const states = {
    sinusoidal: { want: 'baseline' }, learned: { want: 'checkpoint' }, t5: { want: 'distance', model: 'encoder' },
    rope: { want: 'llm' }, 'rope-scaled': { want: 'llm', length: 'longer' }, alibi: { want: 'extrapolate' },
    vision: { want: 'llm', data: 'image' },
  };
  // The Save CSV buttons are in the Go deeper fold: opened.
  const page = await openStep(b, ID, 'deeper=1');
  const now = { ...base, want: 'llm' };
  for (const [method, change] of Object.entries(states)) {
    await answer(page, now, { ...base, ...change });
    assert.equal(await page.getAttribute(`#${ID} [data-readout=method]`, 'data-value'), method);
    const [file] = await Promise.all([page.waitForEvent('download'), page.locator(`#${ID} button[data-table=signal]`).click()]);
    const [head, ...rows] = (await downloaded(file)).toString('utf8').trim().split('\n').map((l) => l.split(','));
    assert.equal(rows.length, 65, method);
    rows.forEach((r, k) => assert.equal(Number(r[0]), k));
    const sig = SIGNALS.get(method);
    assert.deepEqual(head, ['distance', ...sig.series.map((x) => x.key)], method);
    sig.series.forEach((series, c) => {
      for (let k = 0; k <= 64; k++) {
        assert.equal(rows[k][c + 1], k < series.y.length ? String(series.y[k]) : '', `${method} ${series.key} k ${k}`);
      }
    });
    // The plot: one path per series, 65 points (32 for the learned table), the cursor series dotted.
    const paths = await page.$$eval(`#${ID} .choose-plot path.series`, (ps) => ps.map((p) => p.getAttribute('d').split('L').length));
    assert.deepEqual(paths, sig.series.map((x) => x.y.length));
    assert.ok((await page.$eval(`#${ID} .choose-plot svg.lineplot`, plotDots, 'a')).length > 1);
    const alt = await page.getAttribute(`#${ID} .choose-plot svg`, 'aria-label');
    assert.ok(alt.length > 80, `${method}: ${alt}`);
    const y = sig.series[0].y;
    if (method === 'rope-scaled') assert.match(alt, new RegExp(`reaches ${minus(y[64].toFixed(2))}, the value plain RoPE has at k = 32`));
    if (method === 'alibi') assert.match(alt, new RegExp(`reaches ${minus(y[64].toFixed(2))} at k = 64`));
    if (method === 't5') {
      assert.match(alt, new RegExp(`${y[8].toFixed(2)} at k = 8 and ${y[64].toFixed(2)} at k = 64\\. The last bucket, ${sig.vars.lastBucket}, starts only at k = ${sig.vars.lastFrom},`));
    }
    if (method === 'rope') assert.match(alt, new RegExp(`stays within ${minus(sig.vars.spread.toFixed(2))} of 0`));
    assert.deepEqual(page.errors, [], method);
  }
  await page.close();
});

test('at 375 px nothing overflows the page sideways', async () => {
  const page = await openStep(b, ID, 'data=image', { viewport: { width: 375, height: 800 } });
  const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  assert.ok(scroll <= client, `page is ${scroll}px wide in a ${client}px window`);
  await page.close();
});
