// web/kit/idle.js whenIdle: the root element counts the idle work still waiting (data-idle-work),
// work scheduled from inside idle work keeps the count up, a cancel takes the work off the count,
// and without requestIdleCallback a timer runs it `fallback` ms later with a `slot`-ms deadline, or,
// with fallback 'frame', right after the next animation frame (or a timer when none comes).
// Against stand-ins for the root element, requestIdleCallback and setTimeout run by the test.
import assert from 'node:assert/strict';
import { test } from 'node:test';

const root = { dataset: {} };
globalThis.document = { documentElement: root };
const idleQueue = new Map();
let ids = 0;
const { whenIdle, whenIdleEach } = await import('../../web/kit/idle.js');
const count = () => root.dataset.idleWork;

/** Runs every idle callback queued now (not those they queue), as an idle period would. */
const idlePeriod = () => {
  const due = [...idleQueue.entries()];
  idleQueue.clear();
  for (const [, { fn }] of due) fn({ didTimeout: false, timeRemaining: () => 5 });
};

test('with requestIdleCallback: counted while waiting, uncounted once run, chains stay counted, cancels uncount', () => {
  globalThis.requestIdleCallback = (fn, options) => { idleQueue.set(++ids, { fn, options }); return ids; };
  globalThis.cancelIdleCallback = (id) => idleQueue.delete(id);
  assert.equal(count(), undefined);
  const ran = [];
  whenIdle(() => ran.push('a'));
  whenIdle(() => ran.push('b'), { timeout: 500 });
  assert.equal(count(), '2');
  assert.deepEqual([...idleQueue.values()].map((q) => q.options), [undefined, { timeout: 500 }]);
  idlePeriod();
  assert.deepEqual(ran, ['a', 'b']);
  assert.equal(count(), undefined, 'nothing waits: the attribute is gone');

  // A chain of three, each link scheduling the next: between links (another task) the count
  // reads one; inside a link, before it schedules the next, zero.
  const seen = [];
  const link = (k) => () => {
    seen.push(count());
    if (k < 3) whenIdle(link(k + 1));
    seen.push(count());
  };
  whenIdle(link(1));
  for (let k = 0; k < 3; k++) {
    assert.equal(count(), '1');
    idlePeriod();
  }
  assert.deepEqual(seen, [undefined, '1', undefined, '1', undefined, undefined]);
  assert.equal(count(), undefined);

  const cancel = whenIdle(() => ran.push('never'));
  assert.equal(count(), '1');
  cancel();
  cancel();
  assert.equal(count(), undefined, 'a second cancel takes nothing more off');
  assert.equal(idleQueue.size, 0);
  idlePeriod();
  assert.ok(!ran.includes('never'));
  const late = whenIdle(() => ran.push('c'));
  idlePeriod();
  late();
  assert.equal(count(), undefined, 'a cancel after the run is a no-op');
  assert.deepEqual(ran, ['a', 'b', 'c']);
});

test('a callback the browser runs after a cancel does nothing; one that throws leaves no count behind', () => {
  globalThis.requestIdleCallback = (fn) => { idleQueue.set(++ids, { fn }); return ids; };
  globalThis.cancelIdleCallback = () => {};  // an engine whose cancel comes too late: the callback still runs
  let ran = 0;
  const cancel = whenIdle(() => { ran++; });
  cancel();
  assert.equal(count(), undefined);
  idlePeriod();
  assert.equal(ran, 0, 'cancelled work does not run');
  assert.equal(count(), undefined, 'and the count does not go below zero');
  whenIdle(() => { throw new Error('in idle work'); });
  assert.equal(count(), '1');
  assert.throws(idlePeriod, /in idle work/);
  assert.equal(count(), undefined);
  whenIdle(() => {});
  assert.equal(count(), '1', 'counting goes on from zero');
  idlePeriod();
});

test('whenIdleEach: one function at least per idle period, more while over `keep` ms remain, in order; counted until the last; cancel drops the rest; a throw drops none', () => {
  globalThis.requestIdleCallback = (fn) => { idleQueue.set(++ids, { fn }); return ids; };
  globalThis.cancelIdleCallback = (id) => idleQueue.delete(id);
  // A period whose remaining time drops by 3 ms with each function run in it.
  let left = 0;
  const period = (ms) => {
    left = ms;
    const due = [...idleQueue.values()];
    idleQueue.clear();
    for (const { fn } of due) fn({ didTimeout: false, timeRemaining: () => left });
  };
  const ran = [];
  const job = (k) => () => { ran.push(k); left -= 3; };
  whenIdleEach([1, 2, 3, 4, 5].map(job), {}, 4);
  assert.equal(count(), '1');
  period(1);  // under `keep` from the start: still one
  assert.deepEqual(ran, [1]);
  assert.equal(count(), '1', 'the rest waits for the next period');
  period(10);  // 10 → 7 → 4: two run, the third would start with only 4 ms left
  assert.deepEqual(ran, [1, 2, 3]);
  period(100);
  assert.deepEqual(ran, [1, 2, 3, 4, 5]);
  assert.equal(count(), undefined, 'nothing left: uncounted');
  assert.equal(idleQueue.size, 0);

  const later = [];
  const cancel = whenIdleEach(['a', 'b', 'c'].map((k) => () => { later.push(k); left = 0; }));
  period(20);
  assert.deepEqual(later, ['a']);
  cancel();
  assert.equal(count(), undefined, 'a cancel uncounts what waits');
  period(20);
  assert.deepEqual(later, ['a'], 'and it never runs');
  whenIdleEach([]);
  assert.equal(count(), undefined, 'no work: nothing scheduled');

  // A function that throws: the error reaches the idle callback's caller, and the rest still runs.
  const after = [];
  whenIdleEach([() => after.push(1), () => { throw new Error('in idle work'); }, () => after.push(3)]);
  assert.throws(() => period(20), /in idle work/);
  assert.deepEqual(after, [1]);
  assert.equal(count(), '1', 'the rest is still counted');
  period(20);
  assert.deepEqual(after, [1, 3]);
  assert.equal(count(), undefined);
});

test('without requestIdleCallback: a timer `fallback` ms later, with a deadline `slot` ms long', () => {
  delete globalThis.requestIdleCallback;
  delete globalThis.cancelIdleCallback;
  const timers = new Map();
  const realSetTimeout = globalThis.setTimeout;
  const realClearTimeout = globalThis.clearTimeout;
  globalThis.setTimeout = (fn, ms) => { timers.set(++ids, { fn, ms }); return ids; };
  globalThis.clearTimeout = (id) => timers.delete(id);
  try {
    let remaining = null;
    whenIdle((deadline) => { remaining = deadline.timeRemaining(); }, { fallback: 40, slot: 10 });
    const cancel = whenIdle(() => assert.fail('cancelled'), { fallback: 200 });
    assert.deepEqual([...timers.values()].map((t) => t.ms), [40, 200]);
    assert.equal(count(), '2');
    cancel();
    assert.equal(timers.size, 1);
    [...timers.values()][0].fn();
    assert.ok(remaining > 0 && remaining <= 10, `deadline ${remaining} ms`);
    assert.equal(count(), undefined);
    const last = whenIdle(() => {});
    assert.equal([...timers.values()].at(-1).ms, 50, 'the default fallback');
    last();
    assert.equal(count(), undefined);
  } finally {
    globalThis.setTimeout = realSetTimeout;
    globalThis.clearTimeout = realClearTimeout;
  }
});

test("without requestIdleCallback, fallback 'frame': a timer queued by the next animation frame, with a deadline 12 ms into that frame (at most `slot`); with no frame in 100 ms, a timer", () => {
  delete globalThis.requestIdleCallback;
  const timers = new Map();
  const frames = new Map();
  const real = { setTimeout: globalThis.setTimeout, clearTimeout: globalThis.clearTimeout, now: performance.now };
  let now = 1000;
  globalThis.setTimeout = (fn, ms) => { timers.set(++ids, { fn, ms }); return ids; };
  globalThis.clearTimeout = (id) => timers.delete(id);
  globalThis.requestAnimationFrame = (fn) => { frames.set(++ids, fn); return ids; };
  globalThis.cancelAnimationFrame = (id) => frames.delete(id);
  performance.now = () => now;
  const timerMs = () => [...timers.values()].map((t) => t.ms);
  try {
    const seen = [];
    whenIdle((deadline) => seen.push(deadline.timeRemaining()), { fallback: 'frame', slot: 10 });
    assert.deepEqual(timerMs(), [100], 'only the backstop before the frame');
    assert.equal(count(), '1');
    // The frame began at 1000; its painting took 5 ms before the timer ran.
    [...frames.values()][0](1000);
    assert.deepEqual(timerMs(), [0], 'the frame cleared the backstop and queued the work');
    now = 1005;
    [...timers.values()][0].fn();
    assert.deepEqual(seen, [7], '12 ms after the frame began');
    assert.equal(count(), undefined);
    // A short slot ends first.
    frames.clear();
    timers.clear();
    whenIdle((deadline) => seen.push(deadline.timeRemaining()), { fallback: 'frame', slot: 3 });
    [...frames.values()][0](1005);
    [...timers.values()][0].fn();
    assert.equal(seen.at(-1), 3);
    // No frame (a hidden page): the backstop runs it with a slot-long deadline and drops the frame.
    frames.clear();
    timers.clear();
    whenIdle((deadline) => seen.push(deadline.timeRemaining()), { fallback: 'frame', slot: 4 });
    [...timers.values()][0].fn();
    assert.equal(seen.at(-1), 4);
    assert.equal(frames.size, 0);
    assert.equal(count(), undefined);
    // A cancel before the frame, and one between the frame and the timer, run nothing.
    timers.clear();
    const before = whenIdle(() => assert.fail('cancelled'), { fallback: 'frame' });
    before();
    assert.equal(frames.size, 0);
    assert.equal(timers.size, 0);
    const between = whenIdle(() => assert.fail('cancelled'), { fallback: 'frame' });
    [...frames.values()][0](now);
    between();
    assert.equal(timers.size, 0);
    assert.equal(count(), undefined);
    // Where there is no requestAnimationFrame: a timer at once.
    delete globalThis.requestAnimationFrame;
    whenIdle(() => seen.push('timer'), { fallback: 'frame' });
    assert.equal([...timers.values()].at(-1).ms, 0);
    [...timers.values()].at(-1).fn();
    assert.equal(seen.at(-1), 'timer');
  } finally {
    globalThis.setTimeout = real.setTimeout;
    globalThis.clearTimeout = real.clearTimeout;
    performance.now = real.now;
    delete globalThis.requestAnimationFrame;
    delete globalThis.cancelAnimationFrame;
  }
});
