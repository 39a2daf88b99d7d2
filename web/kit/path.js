// A series of points as SVG path text: numbers written to two decimals from whole numbers,
// points thinned to a unit column's extremes or a flat run's ends, and each drawing's texts kept
// for the next redraw when its numbers have not changed (seriesParts' memo).

/** v rounded to two decimals; as text it prints as the shortest form that reads back to it (cheaper than toFixed). */
const cents = (v) => Math.round(v * 100) / 100;

/**
 * String(cents(v)), written from whole numbers: the hundredths as an integer, split into the
 * whole part and the digits after the point. Turning a fraction into its shortest text is the
 * slow part of a path of thousands of points: for 2,048 values, String(cents(v)) took ~0.25 ms
 * in Chromium, ~0.3 ms in WebKit and ~0.8 ms in Firefox, this ~0.15, ~0.2 and ~0.15 ms. A value
 * with |100·v| ≥ 2³¹, or not finite, takes the plain route.
 */
export function centsText(v) {
  let k = Math.round(v * 100);
  if (!(Math.abs(k) < 2 ** 31)) return String(cents(v));
  const sign = k < 0 ? '-' : '';
  if (sign) k = -k;
  const whole = Math.trunc(k / 100);
  const f = k - whole * 100;
  if (f === 0) return `${sign}${whole}`;
  return `${sign}${whole}.${f % 10 === 0 ? f / 10 : f < 10 ? `0${f}` : f}`;
}

function sameValues(copy, values) {
  const n = values.length;
  if (copy.length !== n) return false;
  for (let i = 0; i < n; i++) if (copy[i] !== values[i]) return false;
  return true;
}

/** Each point's "x," text for an x array, the unit column of the drawing it falls in, and whether x rises throughout. */
function xTextsOf(values, x, xScale) {
  const xs = Float64Array.from(values);
  const texts = new Array(xs.length);
  const columns = new Int32Array(xs.length);
  for (let i = 0; i < xs.length; i++) {
    const at = x(xs[i]);
    texts[i] = `${centsText(at)},`;
    columns[i] = Math.floor(at);
  }
  return {
    xScale, xs, texts, columns,
    rising: xs.every((v, i) => i === 0 || v > xs[i - 1]),
  };
}

/**
 * Of points in rising x, the indices kept when the points that fall in one unit column of the
 * drawing are written as their lowest and highest (in the order they come), with the very first
 * and last points kept: nearly the same picture from fewer points (a stroke is wider than a unit;
 * the segments between columns move by under a unit, and a dash pattern shifts).
 * A row of 2,048 keys drawn ~570 units wide has 3–4 points a column, and the browser parses
 * every point it is given: in WebKit, drawing two such rows took 4–10 ms of a change, 1–3 thinned.
 */
function columnExtremes(columns, ys) {
  const n = columns.length;
  const kept = new Int32Array(n);
  let count = 0;
  const add = (k) => { if (!count || kept[count - 1] !== k) kept[count++] = k; };
  for (let start = 0; start < n;) {
    let end = start;
    let lo = start;
    let hi = start;
    for (const c = columns[start]; end < n && columns[end] === c; end++) {
      // (A point with no height, NaN, gives way to any that has one.)
      if (ys[end] < ys[lo] || Number.isNaN(ys[lo])) lo = end;
      if (ys[end] > ys[hi] || Number.isNaN(ys[hi])) hi = end;
    }
    // In index order: the curve's first point, the column's two extremes, the curve's last.
    add(start === 0 ? 0 : Math.min(lo, hi));
    if (start === 0) add(Math.min(lo, hi));
    add(Math.max(lo, hi));
    if (end === n) add(n - 1);
    start = end;
  }
  return kept.subarray(0, count);
}

/**
 * A series' path text from its x texts; with x rising throughout, perColumn writes each unit
 * column's points as its extremes (columnExtremes), and joinFlat a run of points at the same
 * drawn height as its ends.
 */
function pathText(line, { texts, columns, rising }, y) {
  const ys = new Float64Array(texts.length);
  for (let i = 0; i < ys.length; i++) ys[i] = y(line.y[i]);
  const order = line.perColumn && rising ? columnExtremes(columns, ys) : null;
  const n = order ? order.length : texts.length;
  const at = order ? (k) => order[k] : (k) => k;
  let d = '';
  if (!(line.joinFlat && rising)) {
    for (let k = 0; k < n; k++) d += (k ? 'L' : 'M') + texts[at(k)] + centsText(ys[at(k)]);
    return d;
  }
  // A run of points drawn at the same height lies on the segment between the run's ends, since
  // x rises: only the ends are written (a row of 2,048 attention weights is mostly such runs,
  // near 0 or masked, and the browser parses every point it is given).
  let before = null;
  let here = n ? centsText(ys[at(0)]) : '';
  for (let k = 0; k < n; k++) {
    const next = k + 1 < n ? centsText(ys[at(k + 1)]) : null;
    if (here !== before || here !== next) d += (k ? 'L' : 'M') + texts[at(k)] + here;
    before = here;
    here = next;
  }
  return d;
}

/**
 * A series' points as one path of zero-length lines ("Mx,yh0"): SVG strokes a zero-length
 * subpath with round caps as a dot, a bare M draws nothing. The stroke is 2r wide unless CSS
 * (.dots) sets another width. One element instead of a circle per point: moving 129 circles
 * sets 258 attributes (0.24 ms in Chromium, 0.36 ms in Firefox), while one path text costs
 * 0.04–0.07 ms, and there are fewer nodes to style and lay out.
 */
function dotsText(line, { texts }, y) {
  let d = '';
  for (let i = 0; i < texts.length; i++) d += `M${texts[i]}${centsText(y(line.y[i]))}h0`;
  return d;
}

/**
 * [tag, attributes] of each series' path (and of its points, dots of radius r), in drawing
 * order. With `memo` (a plot's own { scale, xScale, paths, xTexts }: scale names the mapping x
 * and y make, e.g. the domains and the size; xScale the one x makes), a series whose y array is
 * the very one drawn last time, still holding the same numbers over the same x values, at the
 * same scale and thinned the same way (joinFlat, perColumn), keeps its path text instead of
 * formatting thousands of numbers again (a step that keeps its curves and moves a marker); and a
 * new y array over an x array drawn last time, at the same xScale, formats only its y values (a
 * new query row, a new task). The numbers are copied and compared, not trusted: a caller may
 * refill the same array. Only the last drawing's paths and x texts are kept.
 */
export function seriesParts(out, series, x, y, r, memo = null) {
  const paths = new Map();   // y array → { scale, thin, ys, xText, d, dots? (made on first use) }
  const xTexts = new Map();  // x array → { xScale, xs, texts, columns, rising }
  const xScale = memo?.xScale ?? memo?.scale;
  for (const line of series) {
    let kept = memo?.paths.get(line.y);
    const thin = `${Boolean(line.joinFlat)}${Boolean(line.perColumn)}`;
    if (!(kept && kept.scale === memo.scale && kept.thin === thin &&
      sameValues(kept.xText.xs, line.x) && sameValues(kept.ys, line.y))) {
      let xText = xTexts.get(line.x) ?? memo?.xTexts?.get(line.x);
      if (!(xText && xText.xScale === xScale && sameValues(xText.xs, line.x))) xText = xTextsOf(line.x, x, xScale);
      kept = { scale: memo?.scale, thin, ys: memo && Float64Array.from(line.y), xText, d: pathText(line, xText, y) };
    }
    xTexts.set(line.x, kept.xText);
    if (memo) paths.set(line.y, kept);
    out.push(['path', { d: kept.d, class: `series ${line.cls}` }]);
    if (line.points === 'rings') {
      // Circles, so that a stroke can outline them (hollow points: the frequencies step's ladder).
      for (let i = 0; i < line.x.length; i++) out.push(['circle', { cx: x(line.x[i]), cy: y(line.y[i]), r, class: `point ${line.cls}` }]);
    } else if (line.points) {
      kept.dots ??= dotsText(line, kept.xText, y);
      out.push(['path', { d: kept.dots, 'stroke-width': 2 * r, class: `dots ${line.cls}` }]);
    }
  }
  if (memo) {
    memo.paths = paths;
    memo.xTexts = xTexts;
  }
  return out;
}

// The attributes and text each element a plot drew was last given, so a redraw keeps its nodes
// and only writes what changed: a new task or dimension moves the same points, and rebuilding
