// web/state.js replaceUrl: history calls stay within the limit engines enforce (Safari throws a
// SecurityError past 100 replaceState calls in 10 s), and the last URL asked for is the one the
// address bar ends with. Run against a stand-in history that enforces Safari's rule, on a clock
// the test moves itself.
import assert from 'node:assert/strict';
import { test } from 'node:test';

let now = 0;
const calls = [];  // times of the stand-in's accepted calls
globalThis.performance = { now: () => now };
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

test('a drag of 1,000 changes in 5 s stays within 100 history calls per 10 s and ends on its last URL', () => {
  for (let k = 0; k < 1000; k++) {
    replaceUrl(`?step=attention&i=${k}`);  // would throw past Safari's limit if unguarded
    advance(5);
  }
  assert.ok(calls.length <= 100, `${calls.length} calls within the first window`);
  assert.notEqual(location.search, '?step=attention&i=999', 'the last URL waits for the window');
  advance(11000);
  assert.equal(location.search, '?step=attention&i=999');
  // No window of 10 s ever held more than 100 calls.
  for (const t of calls) assert.ok(calls.filter((u) => u >= t && u < t + 10000).length <= 100);
});

test('an unchanged URL makes no call, and going back to the shown URL drops a waiting one', () => {
  advance(20000);
  const before = calls.length;
  replaceUrl(location.search);
  assert.equal(calls.length, before);
  for (let k = 0; k < 120; k++) replaceUrl(`?step=order&k=${k}`);  // the budget runs out on the way
  const shown = location.search;
  assert.notEqual(shown, '?step=order&k=119');
  replaceUrl(shown);  // back where the address bar already is: the waiting k=119 must not win
  advance(20000);
  assert.equal(location.search, shown);
});
