// Step 'choose' in Chromium: four questions → one recommended method. The expected method comes
// from this file's own table of rules (first match wins), written from seed 001's when-to-use
// list; the plot's numbers (saved as CSV) are checked against formulas computed here.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startBrowser } from './browser.js';
import { downloaded, minus, openStep, plotDots, readout, updateTimes, urlParams } from './steps.js';
// The answers, the rule table and the method names: shared with the cross-engine suite.
import { ANSWERS, NAMES, ROW, expected } from '../expect/choose.js';
import { learnedRow, t5Bucket } from '../js/reference.js';  // the seeded normal rows of core/learned.cpp; T5's buckets

const ID = 'choose';
let b;
before(async () => { b = await startBrowser(); });
after(async () => { await b?.close(); });

const ALL = [];
for (const data of ANSWERS.data) for (const model of ANSWERS.model) for (const length of ANSWERS.length) {
  for (const want of ANSWERS.want) ALL.push({ data, model, length, want });
}

test('the step module exports a pure recommend() that agrees with the rule table on all 40 answer sets', async () => {
  const { recommend } = await import('../../web/steps/choose/choose.js');
  assert.equal(ALL.length, 40);
  const seen = new Set();
  for (const a of ALL) {
    const got = recommend(a);
    assert.equal(got.method, expected(a), JSON.stringify(a));
    assert.equal(typeof got.rule, 'string');
    seen.add(got.method);
  }
  // Every method is reachable.
  assert.deepEqual([...seen].sort(), Object.keys(NAMES).sort());
});

async function checkState(page, a) {
  const method = expected(a);
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
  assert.deepEqual(got.picked, [ROW[method] ?? method], label);
  assert.deepEqual(got.badges, [ROW[method] ?? method], label);
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

// What each method does with distance k (0..64), computed here. d = 16, base 10000.
const sinSim = (k, d) => {
  let s = 0;
  for (let i = 0; i < d / 2; i++) s += Math.cos(k * 10000 ** (-(2 * i) / d));
  return s;
};
// RoPE on independent random pairs: 32 queries (seed 23) and keys (seed 24) of core
// learned's normal draws, std 1, rotate_half pairs (i, i + 8); the mean of q(k)·k(0), over d.
const RANDOM = Array.from({ length: 32 }, (_, p) => [learnedRow(p, 16, { seed: 23, std: 1 }), learnedRow(p, 16, { seed: 24, std: 1 })]);
function ropeRandom(k) {
  let sum = 0;
  for (const [q, key] of RANDOM) {
    for (let i = 0; i < 8; i++) {
      const t = k * 10000 ** (-(2 * i) / 16);
      sum += (q[i] * key[i] + q[i + 8] * key[i + 8]) * Math.cos(t) + (q[i] * key[i + 8] - q[i + 8] * key[i]) * Math.sin(t);
    }
  }
  return sum / RANDOM.length / 16;
}
const WANT = {
  sinusoidal: { sinusoidal: (k) => sinSim(k, 16) / 8 },
  t5: { t5: (k) => t5Bucket(-k) },
  rope: { rope: (k) => sinSim(k, 16) / 8, ropeRandom },
  'rope-scaled': { ropeScaled: (k) => sinSim(k / 2, 16) / 8, rope: (k) => sinSim(k, 16) / 8 },
  alibi: { alibi3: (k) => -k / 8, alibi1: (k) => -k / 2, alibi8: (k) => -k / 256 },
  vision: { visionRow: (k) => (4 + sinSim(k, 8)) / 8, visionDiagonal: (k) => sinSim(k, 8) / 4 },
};

test('the plot of the pick against distance holds the values computed here (CSV), and says so in words', async () => {
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
    if (method === 'learned') {
      // A stand-in table of 32 rows: cosine 1 with itself, within [−1, 1], and nothing past row 31.
      assert.deepEqual(head, ['distance', 'learned']);
      assert.ok(Math.abs(Number(rows[0][1]) - 1) < 1e-6);
      for (let k = 0; k < 32; k++) assert.ok(Math.abs(Number(rows[k][1])) <= 1 + 1e-6);
      for (let k = 32; k <= 64; k++) assert.equal(rows[k][1], '', `no row ${k}`);
    } else {
      assert.deepEqual(head, ['distance', ...Object.keys(WANT[method])], method);
      Object.values(WANT[method]).forEach((fn, c) => {
        for (let k = 0; k <= 64; k++) {
          const got = Number(rows[k][c + 1]);
          assert.ok(Math.abs(got - fn(k)) < 2e-5, `${method} ${head[c + 1]} k ${k}: ${got} vs ${fn(k)}`);
        }
      });
    }
    // The plot: one path per series, 65 points (32 for the learned table), the cursor series dotted.
    const paths = await page.$$eval(`#${ID} .choose-plot path.series`, (ps) => ps.map((p) => p.getAttribute('d').split('L').length));
    assert.deepEqual(paths, method === 'learned' ? [32] : Object.keys(WANT[method]).map(() => 65));
    assert.ok((await page.$eval(`#${ID} .choose-plot svg.lineplot`, plotDots, 'a')).length > 1);
    const alt = await page.getAttribute(`#${ID} .choose-plot svg`, 'aria-label');
    assert.ok(alt.length > 80, `${method}: ${alt}`);
    if (method === 'rope-scaled') assert.match(alt, new RegExp(`reaches ${minus((sinSim(32, 16) / 8).toFixed(2))}, the value plain RoPE has at k = 32`));
    if (method === 'alibi') assert.match(alt, /reaches −8\.00 at k = 64/);
    if (method === 't5') {
      // With T5's maximum distance of 128 the last bucket of a direction starts beyond the plot.
      let from = 0;
      while (t5Bucket(-from) < 15) from++;
      assert.ok(from > 64);
      assert.match(alt, new RegExp(`8\\.00 at k = 8 and ${t5Bucket(-64).toFixed(2)} at k = 64\\. The last bucket, 15, starts only at k = ${from},`));
    }
    if (method === 'rope') {
      const spread = Math.max(...Array.from({ length: 65 }, (_, k) => Math.abs(ropeRandom(k))));
      assert.ok(spread < 0.25, `random pairs stay near 0: ${spread}`);
      assert.match(alt, new RegExp(`stays within ${minus(spread.toFixed(2))} of 0`));
    }
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
