// kit/simplify.js: keptPoints drops only points the drawn line passes within the tolerance of.
// Each dropped point is checked against the segment between the kept points around it, with the
// distance computed here; the ALiBi curve (straight on a log axis) keeps its two ends.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keptPoints } from '../../web/kit/simplify.js';

/** Distance from (px, py) to the segment (ax, ay)–(bx, by). */
function toSegment(px, py, ax, ay, bx, by) {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy || 1)));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

/** A seeded generator of numbers in [0, 1). */
function seeded(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 4294967296;
  };
}

/** The same simplification written recursively, as a reference: the kept indices in order. */
function reference(u, v, tolerance) {
  const n = u.length;
  if (n <= 2) return Array.from({ length: n }, (_, k) => k);
  const keep = new Set([0, n - 1]);
  const split = (a, b) => {
    let worst = -1;
    let far = tolerance;
    for (let k = a + 1; k < b; k++) {
      const off = toSegment(u[k], v[k], u[a], v[a], u[b], v[b]);
      if (off > far) { far = off; worst = k; }
    }
    if (worst < 0) return;
    keep.add(worst);
    split(a, worst);
    split(worst, b);
  };
  split(0, n - 1);
  return [...keep].sort((x, y) => x - y);
}

function checkKept(u, v, tolerance) {
  const kept = keptPoints(u, v, tolerance);
  assert.equal(kept[0], 0);
  assert.equal(kept.at(-1), u.length - 1);
  for (let k = 1; k < kept.length; k++) assert.ok(kept[k] > kept[k - 1], 'indices rise');
  for (let k = 0; k + 1 < kept.length; k++) {
    const [a, b] = [kept[k], kept[k + 1]];
    for (let i = a + 1; i < b; i++) {
      const off = toSegment(u[i], v[i], u[a], v[a], u[b], v[b]);
      assert.ok(off <= tolerance + 1e-12, `point ${i} is ${off} from the drawn segment ${a}–${b}`);
    }
  }
  return kept;
}

test('a straight line keeps its two ends; a bend keeps the corner', () => {
  const u = Array.from({ length: 500 }, (_, k) => k);
  assert.deepEqual(checkKept(u, u.map((x) => 3 - 0.25 * x), 0.05), [0, 499]);
  assert.deepEqual(checkKept(u, u.map((x) => Math.abs(x - 200)), 0.05), [0, 200, 499]);
  assert.deepEqual(keptPoints([1], [2], 0.05), [0]);
  assert.deepEqual(keptPoints([], [], 0.05), []);
  // A loop back to the start: the segment between the ends has no length, and the far point stays.
  assert.deepEqual(checkKept([0, 1, 0.01], [0, 1, 0], 0.05), [0, 1, 2]);
});

test('seeded wiggly lines: every dropped point lies within the tolerance of the drawn line', () => {
  const rnd = seeded(7);
  let dropped = 0;
  for (let trial = 0; trial < 50; trial++) {
    const n = 2 + Math.floor(rnd() * 400);
    const u = [];
    const v = [];
    let x = 0;
    for (let k = 0; k < n; k++) {
      x += rnd() * 2;
      u.push(x);
      v.push(Math.sin(x / (1 + rnd() * 20)) * 10 + rnd() * 0.2);
    }
    const tolerance = [0.01, 0.05, 0.5][trial % 3];
    const kept = checkKept(u, v, tolerance);
    assert.deepEqual(kept, reference(u, v, tolerance), `trial ${trial}: the recursive reference keeps the same points`);
    dropped += n - kept.length;
  }
  assert.ok(dropped > 0, 'some points are dropped');
});

test('softmax weights of an ALiBi row on a log axis: a straight line, kept as two points', () => {
  // p_d = e^(−m·d) / Z over distances 0..2047, as the ALiBi step plots them (log10, in units);
  // m = 2^−8 is the shallowest of 8 heads.
  const m = 2 ** -8;
  const n = 2048;
  const z = Array.from({ length: n }, (_, d) => Math.exp(-m * d)).reduce((a, b) => a + b, 0);
  const u = Array.from({ length: n }, (_, d) => d * (640 / 2047));
  const v = Array.from({ length: n }, (_, d) => Math.log10(Math.exp(-m * d) / z) * (320 / 8));
  assert.equal(checkKept(u, v, 0.05).length, 2);
});
