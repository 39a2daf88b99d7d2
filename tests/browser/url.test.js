// The address bar (web/state.js): written at most once per URL_INTERVAL_MS while a control moves,
// always ending on the last change, never behind when the page builds a new address from it
// (a language, a theme) or is left, and keeping the #fragment.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startBrowser } from './browser.js';
import { URL_INTERVAL_MS } from '../../web/state.js';
import { openStep, pageUrl, urlParams } from './steps.js';

let b;
before(async () => { b = await startBrowser(); });
after(async () => { await b?.close(); });

/**
 * In the page: sets the sinusoidal step's pos slider to each value in turn, one frame apart, and
 * then (the page's handlers and its microtasks done) goes to `then` if given, before the
 * waiting URL is written.
 * Returns the last value, whether the body said a URL was waiting just after it, and how many
 * writes window.__writes had counted by then (if a test counts them).
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
  const written = window.__writes?.length ?? null;
  // Left from a timer due at once: before the waiting URL's (due up to URL_INTERVAL_MS later, and
  // timers run in the order they are due), but after this call has answered. Left from here, a
  // quick navigation could take the page away before the answer got out (seen under load).
  if (then) setTimeout(() => location.assign(then));
  return { last: el.value, pending, written };
}

const positions = (from, count) => Array.from({ length: count }, (_, k) => from + k);

/**
 * Opens the sinusoidal step at `query`, drags pos through `values` (drag, then going to `then`
 * if given) and checks that the last value is still waiting for the address bar: the state each
 * of the tests below starts from. Returns the page and the last value.
 */
async function draggedJustNow(query, values, then = null) {
  const page = await openStep(b, 'sinusoidal', query);
  const { last, pending } = await page.evaluate(drag, { values, then });
  assert.ok(pending, 'the last value waits for its interval');
  return { page, last };
}

test('a drag writes the address bar at most once per interval and ends on its last value', async () => {
  const page = await openStep(b, 'sinusoidal', 'pos=3');
  await page.evaluate(() => {
    window.__writes = [];
    const replace = history.replaceState.bind(history);
    history.replaceState = (...args) => { window.__writes.push(performance.now()); return replace(...args); };
  });
  const { last, pending, written: duringDrag } = await page.evaluate(drag, { values: positions(10, 40) });
  assert.ok(pending, 'the last value waits for its interval');
  assert.equal((await urlParams(page)).pos, last);
  const all = await page.evaluate(() => window.__writes);
  assert.ok(all.length > duringDrag, 'the waiting value was written after the drag');
  // A timer never fires early; 1 ms of slack covers the clock's rounding.
  for (let k = 1; k < all.length; k++) assert.ok(all[k] - all[k - 1] >= URL_INTERVAL_MS - 1, `writes ${(all[k] - all[k - 1]).toFixed(1)} ms apart`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a language chosen right after a change opens the page in that change\'s state', async () => {
  const { page, last } = await draggedJustNow('pos=3', [20, 21, 22]);
  await Promise.all([page.waitForURL(/lang=sv/), page.selectOption('#lang-select', 'sv')]);
  await page.waitForSelector('#sinusoidal[data-shown=true]');
  assert.equal(await page.inputValue('#sinusoidal input[name=pos]'), last);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a theme chosen right after a change drops ?theme, and the waiting change does not bring it back', async () => {
  const { page, last } = await draggedJustNow('pos=3&theme=dark', [30, 31, 32]);
  await page.click('[data-theme-option=light]');
  const params = await urlParams(page);  // once nothing waits: a URL left waiting with ?theme would have landed
  assert.equal(params.theme, undefined);
  assert.equal(params.pos, last);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('leaving right after a change and coming back finds the last state in the address bar', async () => {
  const { page, last } = await draggedJustNow('pos=3', [40, 41, 42], `${b.url}web/examples/course.html`);
  await page.waitForURL(/course\.html/);
  await page.goBack();
  await page.waitForSelector('#sinusoidal[data-shown=true]');
  assert.equal(new URL(page.url()).searchParams.get('pos'), last);
  assert.equal(await page.inputValue('#sinusoidal input[name=pos]'), last);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a change, a theme and a language keep the #fragment in the address bar (the place the reader jumped to)', async () => {
  // With ?theme, so that choosing a theme rewrites the address too.
  const page = await openStep(b, 'sinusoidal', 'pos=3&theme=light#faq');
  const { last } = await page.evaluate(drag, { values: [50, 51, 52] });
  let url = new URL(await pageUrl(page));  // pageUrl waits for a pending write
  assert.equal(url.searchParams.get('pos'), last);
  assert.equal(url.hash, '#faq', 'after a change');
  await page.click('[data-theme-option=dark]');
  url = new URL(await pageUrl(page));
  assert.equal(url.searchParams.get('theme'), null, 'choosing a theme rewrote the address (dropped ?theme)');
  assert.equal(url.hash, '#faq', 'after a theme');
  await Promise.all([page.waitForURL(/lang=ru/), page.selectOption('#lang-select', 'ru')]);
  await page.waitForSelector('#sinusoidal[data-shown=true]');
  assert.equal(new URL(page.url()).hash, '#faq', 'after a language');
  assert.equal(await page.inputValue('#sinusoidal input[name=pos]'), last);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('an address with #faq or #references opens there (the page builds them after the browser has looked for the fragment)', async () => {
  for (const [query, id] of [['pos=3#faq', 'faq'], ['pos=3&lang=ru#references', 'references']]) {
    const page = await openStep(b, 'sinusoidal', query, { whole: true });
    const [top, margin] = await page.evaluate((i) => {
      const el = document.getElementById(i);
      return [el.getBoundingClientRect().top, parseFloat(getComputedStyle(el).scrollMarginTop)];
    }, id);
    // At its scroll margin, or as far down as the page goes (the last section may be too short).
    const bottom = await page.evaluate(() => scrollY >= document.documentElement.scrollHeight - innerHeight - 1);
    assert.ok(Math.abs(top - margin) < 2 || (top > margin && bottom), `#${id}: top ${top} px, expected its scroll margin (${margin} px)`);
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

test('an address with a malformed #fragment (#%E0%A4%A) still starts the page and stays at the top', async () => {
  // A malformed escape names nothing. (Before, decoding it threw and the page never became
  // ready: this open then times out waiting for body[data-ready].)
  const page = await openStep(b, 'sinusoidal', 'pos=3#%E0%A4%A', { whole: true });
  assert.equal(await page.evaluate(() => scrollY), 0, 'the page scrolled');
  assert.deepEqual(page.errors, []);
  await page.close();
});
