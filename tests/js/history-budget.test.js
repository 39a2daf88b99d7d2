// web/state.js replaceUrl: the address bar is written at most once per URL_INTERVAL_MS, the last
// URL asked for is the one it ends with, and past the limit an engine enforces (Safari throws a
// SecurityError past 100 replaceState calls in 10 s) nothing is thrown at the page. Run against a stand-in history that enforces Safari's rule, on a
// clock the test moves itself.
import assert from 'node:assert/strict';
import { test } from 'node:test';

let now = 0;
const calls = [];  // times of the stand-in's accepted calls
globalThis.location = { search: '', hash: '' };
globalThis.history = {
  replaceState(_state, _title, url) {
    if (calls.filter((t) => now - t < 10000).length >= 100) {
      throw Object.assign(new Error('Attempt to use history.replaceState() more than 100 times per 10 seconds'), { name: 'SecurityError' });
    }
    calls.push(now);
    // Resolve url against the page's address, as a browser does, and keep its query and fragment.
    const { search, hash } = new URL(url, `https://example.test/page${location.search}${location.hash}`);
    Object.assign(location, { search, hash });
  },
};
// setTimeout on the test's clock: due callbacks run when the test advances it.
const timers = [];
let ids = 0;
globalThis.setTimeout = (fn, ms) => { timers.push({ at: now + ms, fn, id: ++ids }); return ids; };
globalThis.clearTimeout = (id) => { const k = timers.findIndex((t) => t.id === id); if (k >= 0) timers.splice(k, 1); };
const advance = (ms) => {
  const end = now + ms;
  for (;;) {
    timers.sort((a, b) => a.at - b.at);
    if (!timers.length || timers[0].at > end) break;
    const t = timers.shift();
    now = t.at;
    t.fn();
  }
  now = end;
};

const { replaceUrl, flushUrl, URL_INTERVAL_MS } = await import('../../web/state.js');

test('a drag of 1,000 changes in 5 s: one write at once, then at most one per interval, ending on its last URL', () => {
  const first = calls.length;
  for (let k = 0; k < 1000; k++) {
    replaceUrl(`?step=attention&i=${k}`);
    if (k === 0) assert.equal(location.search, '?step=attention&i=0', 'the first change is written at once');
    advance(5);
  }
  advance(URL_INTERVAL_MS);
  assert.equal(location.search, '?step=attention&i=999', 'the last URL is written once its interval ends');
  const made = calls.slice(first);
  // The first at once, then at most one at each interval's end.
  assert.ok(made.length >= 2 && made.length <= 1 + 5000 / URL_INTERVAL_MS, `${made.length} writes`);
  for (let k = 1; k < made.length; k++) assert.ok(made[k] - made[k - 1] >= URL_INTERVAL_MS, `writes ${made[k - 1]} and ${made[k]} ms apart`);
  advance(1000);
  assert.equal(calls.length, first + made.length, 'and nothing after it');
});

test('an unchanged URL makes no call, and going back to the shown URL drops a waiting one', () => {
  advance(20000);
  const before = calls.length;
  replaceUrl(location.search);
  assert.equal(calls.length, before);
  replaceUrl('?step=order&k=1');  // written at once
  const shown = location.search;
  for (let k = 2; k < 50; k++) replaceUrl(`?step=order&k=${k}`);  // waiting
  replaceUrl(shown);  // back where the address bar already is: the waiting k=49 must not win
  advance(20000);
  assert.equal(location.search, shown);
  assert.equal(calls.length, before + 1);
});

test('past the limit an engine enforces, nothing is thrown and the last URL still lands', () => {
  advance(20000);
  // 100 writes now leave the stand-in's window full: the next ones are refused for 10 s.
  for (let k = 0; k < 100; k++) history.replaceState(null, '', `?step=vision&k=${k}`);
  for (let k = 0; k < 200; k++) {
    replaceUrl(`?step=nope&k=${k}`);  // would throw if unguarded
    advance(20);
  }
  assert.equal(location.search, '?step=vision&k=99', 'the engine took none of them yet');
  advance(12000);
  assert.equal(location.search, '?step=nope&k=199');
});

test('flushUrl writes a waiting URL at once and returns the latest', () => {
  advance(20000);
  replaceUrl('?step=rope&k=1');
  replaceUrl('?step=rope&k=2');
  assert.equal(location.search, '?step=rope&k=1');
  assert.equal(flushUrl(), '?step=rope&k=2');
  assert.equal(location.search, '?step=rope&k=2');
  const before = calls.length;
  assert.equal(flushUrl(), '?step=rope&k=2');  // nothing waits: no call
  assert.equal(calls.length, before);
});

test('flushUrl refused by the engine returns the URL still waiting', () => {
  advance(20000);
  for (let k = 0; k < 100; k++) history.replaceState(null, '', `?step=quiz&k=${k}`);
  replaceUrl('?step=quiz&mine=1');
  assert.equal(flushUrl(), '?step=quiz&mine=1');
  assert.equal(location.search, '?step=quiz&k=99');
  advance(12000);
  assert.equal(location.search, '?step=quiz&mine=1');
});
