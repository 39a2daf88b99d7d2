// Embedding: ?step=<id>&embed=1 shows the step alone and reports its height to the parent;
// the example course page iframes two steps and fits them; the Embed button's snippet
// reproduces the current state.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startBrowser } from './browser.js';
import { STEP_IDS } from './step-ids.js';
import { showStep } from './steps.js';

let b;
before(async () => { b = await startBrowser(); });
after(async () => { await b?.close(); });

test('embed=1 renders the step alone, without header, navigation or the text after the steps', async () => {
  const page = await b.newPage();
  await page.goto(`${b.url}?step=sinusoidal&pos=3&embed=1`);
  await page.waitForSelector('body[data-ready=true]');
  assert.equal(await page.isVisible('.masthead'), false);
  assert.equal(await page.isVisible('#step-nav'), false);
  assert.equal(await page.isVisible('#faq'), false);
  assert.equal(await page.isVisible('#sinusoidal'), true);
  assert.equal(await page.locator('#sinusoidal [name=embed]').count(), 0);
  assert.equal(await page.inputValue('#sinusoidal input[name=pos]'), '3');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the example course page iframes two steps, and each reports a height that fits its content', async () => {
  const page = await b.newPage();
  await page.goto(`${b.url}web/examples/course.html`);
  const frames = page.locator('iframe[data-posenc]');
  assert.equal(await frames.count(), 2);
  for (let i = 0; i < 2; i++) {
    const frame = frames.nth(i);
    await frame.scrollIntoViewIfNeeded();
    await page.waitForFunction((n) => document.querySelectorAll('iframe[data-posenc]')[n].dataset.reportedHeight, i);  // the embed's own report, at Playwright's default bound
    const reported = Number(await frame.getAttribute('data-reported-height'));
    const inner = await (await frame.elementHandle()).contentFrame();
    await inner.waitForSelector('body[data-ready=true]');
    const content = await inner.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
    assert.ok(reported > 200, `frame ${i} reported ${reported}`);
    assert.ok(Math.abs(reported - content) <= 2, `frame ${i}: reported ${reported}, content ${content}`);
    assert.equal(Number(await frame.getAttribute('height')), Math.ceil(reported));
    assert.equal(await inner.isVisible('.masthead'), false);
  }
  const first = await (await frames.nth(0).elementHandle()).contentFrame();
  assert.equal(await first.inputValue('#sinusoidal input[name=pos]'), '12');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("every step's Embed button gives an iframe snippet carrying the step's current state", async () => {
  const page = await b.newPage();
  await page.goto(`${b.url}?step=${STEP_IDS[0]}`);
  await page.waitForSelector('body[data-ready=true]');
  for (const id of STEP_IDS) {
    await showStep(page, id);
    // A slider on screen (a closed Go deeper fold's cannot be moved).
    const slider = page.locator(`#${id} input[type=range]:visible`).first();
    let expected = null;
    if (await slider.count()) {
      const name = await slider.getAttribute('name');
      const min = Number(await slider.getAttribute('min'));
      await slider.fill(String(min + 1));
      expected = [name, String(min + 1)];
    }
    await page.locator(`#${id} button[name=embed]`).click();
    const snippet = await page.inputValue(`#${id} .embed-code`);
    const src = snippet.match(/<iframe src="([^"]+)"/)[1];
    const url = new URL(src);
    assert.equal(url.searchParams.get('step'), id);
    assert.equal(url.searchParams.get('embed'), '1');
    if (expected) assert.equal(url.searchParams.get(expected[0]), expected[1]);
    assert.match(snippet, /title="[^"]+"/);
    // Opening the snippet's URL shows the same state.
    const embedded = await b.newPage();
    await embedded.goto(src);
    await embedded.waitForSelector('body[data-ready=true]');
    if (expected) assert.equal(await embedded.inputValue(`#${id} input[name=${expected[0]}]`), expected[1]);
    assert.deepEqual(embedded.errors, []);
    await embedded.close();
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});
