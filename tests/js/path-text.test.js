// The line plots' path text (web/kit/path.js): centsText writes what String(cents(v)) wrote,
// and seriesParts, which keeps each x array's point prefixes between drawings, gives the same
// parts as a drawing made from nothing, also when a caller refills an array it drew before.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { centsText, seriesParts } from '../../web/kit/path.js';

// The plain route, as the plots wrote their paths before centsText.
const plain = (v) => String(Math.round(v * 100) / 100);

/** A seeded generator of numbers in [0, 1) (a 32-bit linear congruential one). */
function seeded(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 4294967296;
  };
}

test('centsText(v) equals String(Math.round(v * 100) / 100) for 200,000 seeded values and the edge cases', () => {
  const random = seeded(7);
  const edges = [0, -0, 0.005, -0.005, 0.004999, -0.004999, 0.015, 1.005, -1.005, 0.1, -0.1, 0.09, 0.9, 10, -10,
    123.456, -123.456, 99.995, -99.995, 2 ** 31 / 100 - 1, 2 ** 31 / 100 + 1, -(2 ** 31) / 100, 1e12, -1e12, 1e-9,
    NaN, Infinity, -Infinity];
  const values = [...edges, ...Array.from({ length: 200000 }, (_, i) => (random() - 0.4) * 10 ** (i % 7))];
  const wrong = values.filter((v) => centsText(v) !== plain(v));
  assert.deepEqual(wrong.slice(0, 5).map((v) => [v, centsText(v), plain(v)]), []);
});

test('seriesParts with a memo, redrawn over refilled and new arrays, at new scales and with joinFlat switched, equals a drawing from nothing every time', () => {
  const random = seeded(11);
  const memo = { scale: '', xScale: '', paths: new Map() };
  const xa = Float64Array.from({ length: 300 }, (_, i) => i);
  const xb = Float64Array.from({ length: 50 }, (_, i) => i * 6);
  // ya has runs of equal values, which joinFlat draws as their ends.
  const runs = () => Float64Array.from(xa, () => Math.floor(random() * 1.6) / 4);
  let ya = runs();
  const yb = Float64Array.from(xb, () => random());
  let reused = 0;
  for (let round = 0; round < 80; round++) {
    const xs = round % 7 < 4 ? 1 : 2;  // an x domain change now and then
    const ys = round % 3 === 0 ? 1 : 3;  // a y domain change more often
    memo.scale = `${xs}|${ys}`;
    memo.xScale = String(xs);
    const x = (v) => 52 + (v * 574 * xs) / 299;
    const y = (v) => 230 - v * 69 * ys;
    // A new y array, a refilled x or y array (same object, new numbers), or nothing new.
    const move = round % 5;
    if (move === 1) ya = runs();
    if (move === 2) for (let i = 0; i < yb.length; i++) yb[i] = random();
    if (move === 3) for (let i = 0; i < xb.length; i++) xb[i] = i * 6 + Math.floor(random() * 3);
    const series = [{ x: xa, y: ya, cls: 'a', points: round % 2 === 0, joinFlat: round % 4 < 2 }, { x: xb, y: yb, cls: 'b' }];
    const before = memo.xTexts?.get(xa);
    const fresh = seriesParts([], series, x, y, 2.5);
    assert.deepEqual(seriesParts([], series, x, y, 2.5, memo), fresh, `round ${round}`);
    // xa never changes: its x texts are the last drawing's whenever the x domain is.
    if (before?.xScale === memo.xScale) {
      assert.equal(memo.xTexts.get(xa), before, `round ${round}: the x texts of xa were made again`);
      reused++;
    }
    // And the path text is the point list written the plain way.
    const d = Array.from(xb, (v, i) => `${i ? 'L' : 'M'}${plain(x(v))},${plain(y(yb[i]))}`).join('');
    assert.equal(fresh.find(([tag, a]) => tag === 'path' && a.class === 'series b')[1].d, d);
  }
  assert.ok(reused > 40, `x texts reused in ${reused} of 80 drawings`);
});

/** A path's points as [x, y] numbers. */
const pointsOf = (d) => d.slice(1).split('L').map((xy) => xy.split(',').map(Number));

test('joinFlat: when x rises throughout, the path keeps each run\'s ends and passes through every point; when x turns back it keeps every point', () => {
  // A softmax-like row: a few peaks over long runs near zero, and a masked tail of exact zeros.
  const n = 2048;
  const xs = Float64Array.from({ length: n }, (_, k) => k);
  const ys = Float64Array.from({ length: n }, (_, k) => (k > 1500 ? 0 : Math.exp(-((k - 700) ** 2) / 50) + 1e-5 * (k % 3)));
  const x = (v) => 52 + (v * 574) / (n - 1);
  const y = (v) => 218 - v * 206;
  const [[, { d: full }]] = seriesParts([], [{ x: xs, y: ys, cls: 'a' }], x, y, 2.5);
  const [[, { d: thin }]] = seriesParts([], [{ x: xs, y: ys, cls: 'a', joinFlat: true }], x, y, 2.5);
  const all = pointsOf(full);
  const kept = pointsOf(thin);
  assert.equal(all.length, n);
  // Kept: the first and last points and every point whose drawn height differs from a neighbour's.
  const want = all.filter(([, py], k) => k === 0 || k === n - 1 || py !== all[k - 1][1] || py !== all[k + 1][1]);
  assert.deepEqual(kept, want);
  assert.ok(kept.length < n / 10, `${kept.length} points kept of ${n}`);
  // Every point lies on the thinned path: it is kept, or it lies on the flat segment between the
  // kept points either side of it.
  let j = 0;
  for (const [px, py] of all) {
    while (kept[j + 1] && kept[j + 1][0] <= px) j++;
    const [ax, ay] = kept[j];
    if (px === ax) assert.equal(py, ay, `point at ${px}`);
    else assert.ok(ay === py && kept[j + 1][1] === py, `point at ${px} off the segment from ${ax}`);
  }
  // x not rising (a curve that turns back): every point stays.
  const back = Float64Array.from(xs, (v) => (v < 1000 ? v : 2000 - v));
  const [[, { d: turned }]] = seriesParts([], [{ x: back, y: ys, cls: 'a', joinFlat: true }], x, y, 2.5);
  assert.equal(pointsOf(turned).length, n);
});

test('perColumn: when x rises throughout, each unit column of the drawing keeps its lowest and highest point, in order, and the curve its first and last; when x turns back every point stays', () => {
  // Seeded rows of 2,048 values drawn ~574 units wide (3–4 points a column), as the attention
  // step draws a query's row, with and without joinFlat.
  const random = seeded(5);
  const n = 2048;
  const xs = Float64Array.from({ length: n }, (_, k) => k);
  const x = (v) => 52 + (v * 574) / (n - 1);
  const y = (v) => 218 - v * 206;
  for (let round = 0; round < 20; round++) {
    const ys = Float64Array.from({ length: n }, () => random() ** 3);
    const [[, { d: full }]] = seriesParts([], [{ x: xs, y: ys, cls: 'a' }], x, y, 2.5);
    const [[, { d: thin }]] = seriesParts([], [{ x: xs, y: ys, cls: 'a', perColumn: true }], x, y, 2.5);
    const all = pointsOf(full);
    const kept = pointsOf(thin);
    // What the test expects, worked out from the full path's points: per column (the floor of the
    // drawn x, recomputed here), the points at the column's extreme drawn heights.
    const column = (k) => Math.floor(x(xs[k]));
    const byColumn = new Map();
    all.forEach((p, k) => {
      if (!byColumn.has(column(k))) byColumn.set(column(k), []);
      byColumn.get(column(k)).push(k);
    });
    assert.ok(byColumn.size < n / 3, `${byColumn.size} columns`);
    // Kept points are points of the full path, in their order: their indices.
    const keptAt = [];
    let at = 0;
    for (const p of kept) {
      while (at < n && (all[at][0] !== p[0] || all[at][1] !== p[1])) at++;
      assert.ok(at < n, `kept point ${p} is one of the curve's, in order`);
      keptAt.push(at++);
    }
    for (const [c, ks] of byColumn) {
      const inColumn = keptAt.filter((k) => column(k) === c);
      const heights = ks.map((k) => all[k][1]);
      const got = inColumn.map((k) => all[k][1]);
      // y(v) is written to hundredths: the extremes of the written heights.
      assert.ok(got.includes(Math.min(...heights)) && got.includes(Math.max(...heights)), `column ${c}: its extremes drawn`);
      assert.ok(inColumn.length <= 2 + (ks[0] === 0) + (ks.at(-1) === n - 1), `column ${c}: ${inColumn.length} points`);
    }
    assert.deepEqual(kept[0], all[0]);
    assert.deepEqual(kept.at(-1), all.at(-1));
    assert.ok(kept.length < 0.65 * n, `${kept.length} points kept of ${n}`);
    // With joinFlat too: the column extremes, then flat runs as their ends (a masked tail of zeros).
    const masked = Float64Array.from(ys, (v, k) => (k > 1500 ? 0 : v));
    const [[, { d: both }]] = seriesParts([], [{ x: xs, y: masked, cls: 'a', perColumn: true, joinFlat: true }], x, y, 2.5);
    const [[, { d: columnsOnly }]] = seriesParts([], [{ x: xs, y: masked, cls: 'a', perColumn: true }], x, y, 2.5);
    const c = pointsOf(columnsOnly);
    const want = c.filter(([, py], k) => k === 0 || k === c.length - 1 || py !== c[k - 1][1] || py !== c[k + 1][1]);
    assert.deepEqual(pointsOf(both), want);
  }
  // x not rising: every point stays.
  const back = Float64Array.from(xs, (v) => (v < 1000 ? v : 2000 - v));
  const ys = Float64Array.from(xs, () => random());
  const [[, { d: turned }]] = seriesParts([], [{ x: back, y: ys, cls: 'a', perColumn: true }], x, y, 2.5);
  assert.equal(pointsOf(turned).length, n);
});

test('perColumn at the edges: no point, one point, a column with a missing (NaN) height, and a memo that switches it on and off', () => {
  const x = (v) => 10 + v * 0.25;  // four points a unit column
  const y = (v) => 100 - v;
  const draw = (xs, ys, extra = {}, memo = null) => seriesParts([], [{ x: xs, y: ys, cls: 'a', perColumn: true, ...extra }], x, y, 2.5, memo)[0][1].d;
  assert.equal(draw([], []), '');
  assert.equal(draw([3], [5]), `M${centsText(x(3))},${centsText(y(5))}`);
  // Column 10 holds x = 0..3; its first height is missing: its extremes are still the real ones.
  const xs = [0, 1, 2, 3, 4, 5, 6, 7];
  const ys = [NaN, 9, 1, 4, 3, 3, 8, 2];
  const points = pointsOf(draw(xs, ys));
  const heights = points.map(([, py]) => py);
  assert.ok(heights.includes(y(9)) && heights.includes(y(1)), `column 10 keeps 9 and 1: ${heights}`);
  // The memo keeps a path only for the same thinning: on, off and on again equal fresh drawings.
  const memo = { scale: 's', xScale: 'x', paths: new Map() };
  const many = Float64Array.from({ length: 64 }, (_, k) => k);
  const row = Float64Array.from(many, (k) => (k * 37) % 11);
  for (const perColumn of [true, false, true]) {
    assert.equal(draw(many, row, { perColumn }, memo), draw(many, row, { perColumn }), `perColumn ${perColumn}`);
  }
  assert.ok(pointsOf(draw(many, row, { perColumn: true })).length < pointsOf(draw(many, row, { perColumn: false })).length);
});
