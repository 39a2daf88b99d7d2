// The address bar (web/state.js): written at most every 250 ms while a control moves, always ending
// on the last change, and never behind when the page reads it to go elsewhere (a language, a
// theme) or is left.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startBrowser } from './browser.js';
import { openStep, urlParams } from './steps.js';

let b;
before(async () => { b = await startBrowser(); });
after(async () => { await b?.close(); });

/**
 * In the page: sets the sinusoidal step's pos slider to each value in turn, one frame apart, and
 * then, at once (the page's handlers and its microtasks done), goes to `then` if given.
 * Returns the last value and whether the body said a URL was waiting just after it.
 */
async function drag({ values, then = null }) {
  const el = document.querySelector('#sinusoidal input[name=pos]');
  for (const [k, v] of values.entries()) {
    if (k) await new Promise(requestAnimationFrame);
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }
  await Promise.resolve();  // after the URL's microtask (web/app.js)
  const pending = document.body.dataset.urlPending === 'true';
  if (then) location.assign(then);
  return { last: el.value, pending };
}

const positions = (from, count) => Array.from({ length: count }, (_, k) => from + k);

test('a drag writes the address bar at most once per 250 ms and ends on its last value', async () => {
  const page = await openStep(b, 'sinusoidal', 'pos=3');
  await page.evaluate(() => {
    window.__writes = [];
    const replace = history.replaceState.bind(history);
    history.replaceState = (...args) => { window.__writes.push(performance.now()); return replace(...args); };
  });
  const { last, pending } = await page.evaluate(drag, { values: positions(10, 40) });
  const writes = await page.evaluate(() => window.__writes);
  assert.ok(pending, 'the last value waits for its interval');
  assert.equal((await urlParams(page)).pos, last);
  const made = await page.evaluate(() => window.__writes);
  assert.ok(made.length >= 2 && made.length < 40, `${made.length} writes for 40 changes`);
  // A timer never fires early; 1 ms of slack covers the clock's rounding.
  for (let k = 1; k < made.length; k++) assert.ok(made[k] - made[k - 1] >= 249, `writes ${(made[k] - made[k - 1]).toFixed(1)} ms apart`);
  assert.ok(writes.length < made.length, 'the waiting value was written after the drag');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a language chosen right after a change opens the page in that change\'s state', async () => {
  const page = await openStep(b, 'sinusoidal', 'pos=3');
  const { last, pending } = await page.evaluate(drag, { values: [20, 21, 22] });
  assert.ok(pending);
  await Promise.all([page.waitForURL(/lang=sv/), page.selectOption('#lang-select', 'sv')]);
  await page.waitForSelector('#sinusoidal[data-shown=true]');
  assert.equal(await page.inputValue('#sinusoidal input[name=pos]'), last);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a theme chosen right after a change drops ?theme, and the waiting change does not bring it back', async () => {
  const page = await openStep(b, 'sinusoidal', 'pos=3&theme=dark');
  const { last, pending } = await page.evaluate(drag, { values: [30, 31, 32] });
  assert.ok(pending);
  await page.click('[data-theme-option=light]');
  await page.waitForTimeout(600);  // past the interval a waiting URL would have been written in
  const params = await urlParams(page);
  assert.equal(params.theme, undefined);
  assert.equal(params.pos, last);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('leaving right after a change and coming back finds the last state in the address bar', async () => {
  const page = await openStep(b, 'sinusoidal', 'pos=3');
  const { last, pending } = await page.evaluate(drag, { values: [40, 41, 42], then: `${b.url}web/examples/course.html` });
  assert.ok(pending);
  await page.waitForURL(/course\.html/);
  await page.goBack();
  await page.waitForSelector('#sinusoidal[data-shown=true]');
  assert.equal(new URL(page.url()).searchParams.get('pos'), last);
  assert.equal(await page.inputValue('#sinusoidal input[name=pos]'), last);
  assert.deepEqual(page.errors, []);
  await page.close();
});
