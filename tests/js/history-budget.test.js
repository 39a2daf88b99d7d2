// web/state.js replaceUrl: past the limit an engine enforces (Safari throws a SecurityError past
// 100 replaceState calls in 10 s) nothing is thrown at the page, and the last URL asked for is the
// one the address bar ends with. Run against a stand-in history that enforces Safari's rule, on a
// clock the test moves itself.
import assert from 'node:assert/strict';
import { test } from 'node:test';

let now = 0;
const calls = [];  // times of the stand-in's accepted calls
globalThis.location = { search: '' };
globalThis.history = {
  replaceState(_state, _title, url) {
    if (calls.filter((t) => now - t < 10000).length >= 100) {
      throw Object.assign(new Error('Attempt to use history.replaceState() more than 100 times per 10 seconds'), { name: 'SecurityError' });
    }
    calls.push(now);
    location.search = url;
  },
};
// setTimeout on the test's clock: due callbacks run when the test advances it.
const timers = [];
globalThis.setTimeout = (fn, ms) => { timers.push({ at: now + ms, fn }); return timers.length; };
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

const { replaceUrl } = await import('../../web/state.js');

test('a drag of 1,000 changes in 5 s throws nothing past Safari\'s limit and ends on its last URL', () => {
  for (let k = 0; k < 1000; k++) {
    replaceUrl(`?step=attention&i=${k}`);  // throws past the limit if unguarded
    advance(5);
  }
  assert.equal(calls.length, 100, 'the first 100 went out at once');
  assert.notEqual(location.search, '?step=attention&i=999', 'the rest wait for the engine');
  advance(11000);
  assert.equal(location.search, '?step=attention&i=999');
});

test('an unchanged URL makes no call, and going back to the shown URL drops a waiting one', () => {
  advance(20000);
  const before = calls.length;
  replaceUrl(location.search);
  assert.equal(calls.length, before);
  for (let k = 0; k < 120; k++) replaceUrl(`?step=order&k=${k}`);  // the engine refuses on the way
  const shown = location.search;
  assert.notEqual(shown, '?step=order&k=119');
  replaceUrl(shown);  // back where the address bar already is: the waiting k=119 must not win
  advance(20000);
  assert.equal(location.search, shown);
});
