// kit/lineplot.js's roundedTop: an axis top at or above v that is a multiple of a round step
// (1, 2, 2.5 or 5 × 10^k) and stays the same while v moves within that step, so a plot
// redrawn for each slider step keeps its ticks. Checked on seeded values against the
// definitions, computed here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { roundedTop, ticks } from '../../web/kit/lineplot.js';

/** A seeded generator of numbers in [0, 1). */
function seeded(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 4294967296;
  };
}

/** Whether x is k · f · 10^e for a whole k and f in {1, 2, 2.5, 5}, to 9 significant digits. */
function onRoundStep(x, step) {
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
    assert.ok(onRoundStep(top, step), `${top} is not a multiple of ${step}`);
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
    // Values between v and the top, whose own step is the same, give the same top.
    for (let k = 0; k < 10; k++) {
      const w = v + (top - v) * rnd();
      const [u0, u1] = ticks(0, w, 5);
      if (Math.abs(u1 - u0 - step) > step * 1e-9) continue;
      assert.equal(roundedTop(w), top, `v ${v} → ${top}, w ${w} → ${roundedTop(w)}`);
    }
    assert.equal(roundedTop(top), top, `a round top ${top} stays`);
  }
});
