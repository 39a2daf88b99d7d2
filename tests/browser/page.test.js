// The page as a whole in Chromium: navigation between steps, the text after the steps, the URL
// contract for step selection, and no request leaving the page's own origin.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startBrowser } from './browser.js';
import { openStep, pageUrl } from './steps.js';
import { ALL_STEP_IDS as STEP_IDS } from './step-ids.js';
import { FAQ_COUNT, REFERENCE_COUNT } from './content-counts.js';
import { textsOutsideFigures } from './text-boxes.js';
import { ticksOffScale } from './tick-labels.js';

let b;
before(async () => { b = await startBrowser(); });
after(async () => { await b?.close(); });

async function open(query = '') {
  const page = await b.newPage();
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(`${b.url}${query}`);
  await page.waitForSelector('body[data-ready=true]');  // the page's own signal, at Playwright's default bound
  page.requests = requests;
  return page;
}

const visibleSteps = (page) => page.$$eval('main > section.step', (els) => els.filter((e) => !e.hidden).map((e) => e.id));

test('without ?step the first step shows, alone', async () => {
  const page = await open();
  assert.deepEqual(await visibleSteps(page), [STEP_IDS[0]]);
  assert.equal(new URL(await pageUrl(page)).searchParams.get('step'), STEP_IDS[0]);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('an unknown ?step falls back to the first step without an error', async () => {
  const page = await open('?step=%3Cscript%3E');
  assert.deepEqual(await visibleSteps(page), [STEP_IDS[0]]);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('every step opens by URL, shows its number and title, keeps its figures\' text inside them, labels its axes with their ticks\' values, draws its readout labels as written, sets primed variables in italic, and logs no error', async () => {
  let checkedAxes = 0;
  for (const [i, id] of STEP_IDS.entries()) {
    // The step's own signal (built, shown, drawn): the rest of the page loading behind it is the
    // same for every step, and the tests above wait for it.
    // With the Go deeper fold open (from the URL): the figures in it are checked too.
    const page = await openStep(b, id, 'deeper=1');
    assert.deepEqual(await visibleSteps(page), [id]);
    // The six steps of the idea count to 6, the rest of the field to the number of steps after them (web/place.js).
    const label = i < 6 ? `Step ${i + 1} of 6` : `The rest of the field · ${i - 5} of ${STEP_IDS.length - 6}`;
    assert.equal((await page.textContent(`#${id} .step-count`)).trim(), label);
    assert.ok((await page.textContent(`#${id} h2`)).trim().length > 0);
    assert.equal(await page.getAttribute(`#step-nav [data-step=${id}]`, 'aria-current'), 'step');
    // At 1280 px, as the Firefox and WebKit suite checks it (tests/browser/text-boxes.js).
    assert.deepEqual((await page.evaluate(textsOutsideFigures, id)).out, [], `step ${id}: figure text outside its figure or run together`);
    const ticks = await page.evaluate(ticksOffScale, id);
    assert.deepEqual(ticks.out, [], `step ${id}: tick labels that are not evenly spaced values (a label rounded past its tick)`);
    checkedAxes += ticks.n;
    // The labels name symbols (i, j, ω, θ) that capitals would turn into different ones. (MathML's
    // <mi> sets a one-letter variable in italic by text-transform: math-auto, not a recasing.)
    const recased = await page.evaluate((step) => [...document.querySelectorAll(`#${step} .readout-label`)]
      .filter((el) => [el, ...el.querySelectorAll('*')].some((e) => !['none', 'math-auto'].includes(getComputedStyle(e).textTransform)))
      .map((el) => el.textContent), id);
    assert.deepEqual(recased, [], `step ${id}: readout labels drawn with a text-transform`);
    // A one-letter <mi> is set in italic, a longer one upright: a prime inside the <mi> ("θ′")
    // would set a variable upright (kit/math.js primed puts it after the <mi>).
    const uprightPrimed = await page.evaluate((step) => [...document.querySelectorAll(`#${step} mi`)]
      .map((el) => el.textContent).filter((t) => t.length > 1 && /[′″‴]/.test(t)), id);
    assert.deepEqual(uprightPrimed, [], `step ${id}: a primed variable inside one <mi>`);
    assert.deepEqual(page.errors, [], `step ${id}`);
    await page.close();
  }
  // The tick check reached the figures: most steps have a plot with numeric axes.
  assert.ok(checkedAxes >= 20, `${checkedAxes} numeric axes checked`);
});

test('Next and Previous walk through the steps in order and update the URL', async () => {
  const page = await open(`?step=${STEP_IDS[0]}`);
  for (const id of STEP_IDS.slice(1)) {
    await page.locator('main > section.step:not([hidden]) .pager .primary').click();
    // A step whose module has not loaded yet shows once it has (under load, after the click returns).
    await page.waitForSelector(`main > section.step#${id}:not([hidden])`);
    assert.deepEqual(await visibleSteps(page), [id]);
    assert.equal(new URL(await pageUrl(page)).searchParams.get('step'), id);
  }
  await page.locator('main > section.step:not([hidden]) .pager button').first().click();
  await page.waitForSelector(`main > section.step#${STEP_IDS.at(-2)}:not([hidden])`);
  assert.deepEqual(await visibleSteps(page), [STEP_IDS.at(-2)]);
  await page.locator(`#step-nav [data-step=${STEP_IDS[0]}]`).click();
  await page.waitForSelector(`main > section.step#${STEP_IDS[0]}:not([hidden])`);
  assert.deepEqual(await visibleSteps(page), [STEP_IDS[0]]);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('key ideas, every FAQ answer and every reference with its link follow the steps', async () => {
  const page = await open();
  assert.equal(await page.locator('#key-ideas li').count(), 6);
  assert.ok(FAQ_COUNT >= 7);
  assert.equal(await page.locator('#faq details').count(), FAQ_COUNT);
  await page.locator('#faq summary').first().click();
  assert.ok((await page.locator('#faq details').first().locator('p').first().textContent()).length > 50);
  const refs = await page.$$eval('#references li', (lis) => lis.map((li) => ({ text: li.textContent, href: li.querySelector('a')?.href })));
  assert.ok(REFERENCE_COUNT >= 20);
  assert.equal(refs.length, REFERENCE_COUNT);
  for (const r of refs) {
    assert.match(r.text, /\(\d{4}\)/);
    // arXiv wherever the work is there; GPT-2's report, the forum posts, code, model cards and
    // blog posts and a paper only on OpenReview are not (content.test.js checks each address).
    assert.match(r.href, /^https:\/\/(arxiv\.org\/abs\/\d{4}\.\d{4,5}|cdn\.openai\.com\/.+\.pdf|www\.reddit\.com\/r\/LocalLLaMA\/comments\/.+|github\.com\/.+|huggingface\.co\/.+|ai\.meta\.com\/blog\/.+|blog\.eleuther\.ai\/.+|openreview\.net\/forum\?id=\w+)$/);
  }
  assert.match(refs[0].text, /Attention Is All You Need/);
  await page.close();
});

test('the page requests nothing from any other origin', async () => {
  const page = await open();
  for (const id of STEP_IDS) await page.locator(`#step-nav [data-step=${id}]`).click();
  const origin = new URL(b.url).origin;
  const foreign = page.requests.filter((u) => !u.startsWith(origin) && !u.startsWith('data:'));
  assert.deepEqual(foreign, []);
  await page.close();
});
