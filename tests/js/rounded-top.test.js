// kit/ticks.js's roundedTop: an axis top at or above v that is a multiple of a round step
// (1, 2, 2.5 or 5 × 10^k) and stays the same while v moves within that step, so a plot
// redrawn for each slider step keeps its ticks. Checked on seeded values: the top against the
// step ticks() takes (the two share it; that the step is round is checked here), and round
// values built here from their factors, which must come back as they are.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { roundedTop, ticks } from '../../web/kit/ticks.js';

/** A seeded generator of numbers in [0, 1). */
function seeded(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 4294967296;
  };
}

/** Whether x is a whole number of `step`s, to a millionth of a step. */
function isMultipleOf(x, step) {
  const k = x / step;
  return Math.abs(k - Math.round(k)) < 1e-6;
}

test('roundedTop(v) is at least v, a whole number of round steps, and within one step of v', () => {
  const rnd = seeded(3);
  for (let trial = 0; trial < 5000; trial++) {
    const v = (0.5 + rnd() * 9.5) * 10 ** Math.floor(-7 + rnd() * 10);
    const top = roundedTop(v);
    assert.ok(top >= v, `${top} < ${v}`);
    // The step ticks() takes for [0, v] with 5 ticks: the gap between its first two values.
    const [t0, t1] = ticks(0, v, 5);
    const step = t1 - t0;
    assert.ok([1, 2, 2.5, 5, 10].some((f) => Math.abs(step / 10 ** Math.floor(Math.log10(step)) - f) < 1e-9), `step ${step}`);
    assert.ok(isMultipleOf(top, step), `${top} is not a multiple of ${step}`);
    assert.ok(top - v < step * (1 + 1e-9), `${top} is more than a step ${step} above ${v}`);
  }
});

test('roundedTop keeps its value while v moves within the step below a round top', () => {
  const rnd = seeded(5);
  for (let trial = 0; trial < 500; trial++) {
    const v = (0.5 + rnd() * 9.5) * 10 ** Math.floor(-6 + rnd() * 8);
    const top = roundedTop(v);
    const [t0, t1] = ticks(0, v, 5);
    const step = t1 - t0;
    // Values in the step below the top (above v and below it), whose own step is the same,
    // give the same top.
    for (let k = 0; k < 10; k++) {
      const w = top - step * rnd();
      if (!(w > 0)) continue;
      const [u0, u1] = ticks(0, w, 5);
      if (Math.abs(u1 - u0 - step) > step * 1e-9) continue;
      assert.equal(roundedTop(w), top, `v ${v} → ${top}, w ${w} → ${roundedTop(w)}`);
    }
    assert.equal(roundedTop(top), top, `a round top ${top} stays`);
  }
});

test('five round steps come back as they are, ticked at every step', () => {
  // x = 5 · s for a round step s = f · 10^e, written as JavaScript writes those numbers (2.5e-5,
  // not 5 * 5e-6): x / 5 is exactly s, which ticks() must take as the step (it once took the
  // next one up, and 2.5e-5 went to 3e-5).
  for (let e = -8; e <= 3; e++) {
    for (const f of [1, 2, 2.5, 5]) {
      const x = Number(`${5 * f}e${e}`);
      assert.equal(roundedTop(x), x, `${x}`);
      const t = ticks(0, x, 5);
      assert.equal(t.length, 6, `ticks(0, ${x}, 5): ${t.join(' ')}`);
      assert.ok(Math.abs(t.at(-1) - x) <= x * 1e-9, `ticks(0, ${x}, 5) ends at ${t.at(-1)}`);
    }
  }
});
