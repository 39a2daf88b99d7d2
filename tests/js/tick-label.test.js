// web/kit/ticks.js tickLabel: every tick ticks() makes is labelled with its own value, so one
// axis's labels are distinct and read back as its ticks (the train step's components plot had
// shown −2.5 as "−3"). A stand-in for the page's m.fixed (Intl.NumberFormat): toFixed gives the
// same digits wherever no label is rounded, as here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tickLabel, ticks } from '../../web/kit/ticks.js';

const m = { fixed: (v, digits) => v.toFixed(digits) };

test('tick labels read back as their ticks, for steps of 1, 2, 2.5 and 5 times powers of ten', () => {
  const label = tickLabel(m);
  let axes = 0;
  const steps = new Set();
  for (const [lo, hi] of [[-2.7, 1.1], [0, 15], [0, 0.9], [-0.004, 0.013], [0, 1e6], [-35, 35], [1, 10], [0, 0.00125]]) {
    for (const count of [3, 4, 5, 6, 8]) {
      const t = ticks(lo, hi, count);
      const texts = t.map(label);
      assert.equal(new Set(texts).size, texts.length, `[${lo}, ${hi}] / ${count}: ${texts}`);
      t.forEach((v, k) => assert.ok(Math.abs(Number(texts[k]) - v) <= 1e-9 * Math.max(1, Math.abs(v)), `[${lo}, ${hi}] / ${count}: ${v} labelled ${texts[k]}`));
      steps.add(Number((t[1] - t[0]).toPrecision(6)) / 10 ** Math.floor(Math.log10(t[1] - t[0])));
      axes++;
    }
  }
  // The ranges reach every kind of step ticks() takes.
  for (const f of [1, 2, 2.5, 5]) assert.ok([...steps].some((s) => Math.abs(s - f) < 1e-9), `no step of ${f} × 10^k among ${[...steps]}`);
  assert.equal(axes, 40);
});

test('a minimum keeps that many decimals on whole ticks', () => {
  assert.deepEqual([0, 0.5, 1, 0.25].map(tickLabel(m, 1)), ['0.0', '0.5', '1.0', '0.25']);
});
