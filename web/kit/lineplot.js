// Line plot in SVG: labelled axes with round ticks, any number of series, point markers and
// vertical guide lines. Scales to its container (viewBox); colours come from CSS classes.
// Focusable: the arrow keys walk a cursor over one series' points and a polite live region
// reads each point out, so the curve can be read without seeing it. A press (finger, pen or
// mouse) puts the cursor on the point nearest in x and a drag walks it; the plot pans only
// vertically under a finger (touch-action in styles.css), so the page still scrolls over it.
import { h, s } from './dom.js';
import { registerFigure } from './figures.js';
import { firstMargin, keptFont, leftMargin, placeYTitle, plotFonts, textWidth, xTickParts } from './textfit.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
// The drawing's size in its own units, and the room under the x axis: the x tick labels'
// baseline (tickY below the axis) and the x title's (6 above the bottom edge). On a phone the
// drawing is narrower, so that, shown ~330 px wide, its text (styles.css: 18 and 19 units) reads
// at ~15 px; a 640-unit drawing set its labels at ~9 px there. The phone's larger text needs more
// room under the axis, or the x title runs into the tick labels.
// (One query list, read on each draw: asking matchMedia anew each time parses the query again.)
let phoneQuery = null;
// xTicks: about how many x ticks; yTickDy: a y tick label's baseline below its tick (a third of its size).
const DESKTOP = { w: 640, h: 260, bottom: 42, tickY: 17, xTicks: 8, yTickDy: 4 };
const PHONE = { w: 400, h: 280, bottom: 50, tickY: 23, xTicks: 5, yTickDy: 6 };
const sizeNow = () => ((phoneQuery ??= globalThis.matchMedia?.('(max-width: 560px)') ?? null)?.matches ? PHONE : DESKTOP);
const PAD = { left: 52, right: 14, top: 12 };

/** The round step (1, 2, 2.5 or 5 × a power of ten) for about `count` ticks over `span`. */
function roundStep(span, count) {
  const raw = span / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  // A candidate less than one part in 10^9 below raw counts as reaching it: in binary, 5 × 1e-6
  // is a hair below 5e-6, and a span of exactly 5e-6 per tick took the next step up.
  return [1, 2, 2.5, 5, 10].map((f) => f * mag).find((v) => v >= raw * (1 - 1e-9)) ?? 10 * mag;
}

/** About `count` round tick values covering [lo, hi]. */
export function ticks(lo, hi, count = 6) {
  const step = roundStep(hi - lo || 1, count);
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  return out;
}

/**
 * Tick labels in the page's number format (m.fixed) with as many decimals as each tick needs,
 * at least `min`: 0.25 → "0.25", 2.5 → "2.5", 30 → "30". ticks() steps by 1, 2, 2.5 or 5 times
 * a power of ten, so a label rounded to fewer decimals misstates its tick: the train step's
 * components plot labelled −2.5 and −1.5 as "−3" and "−2".
 */
export const tickLabel = (m, min = 0) => (v) => m.fixed(v, Math.max(min, (String(+v.toFixed(6)).split('.')[1] ?? '').length));

/**
 * v (> 0) rounded up to a multiple of the round step ticks(0, v, count) takes (count 5: the line
 * plots' y axes), or v itself when it lies within a billionth of a step above a multiple. That
 * is at most `count` steps, so ticks(0, top, count) keeps the step and ends on the top. A top for
 * an axis that stays put while v moves a little: a plot redrawn for every slider step keeps its
 * ticks instead of rescaling each time.
 */
export function roundedTop(v, count = 5) {
  const step = roundStep(v, count);
  // Written back from 12 significant digits (0.1 + 0.2 style errors dropped), and never below v.
  return Math.max(v, Number((Math.ceil(v / step - 1e-9) * step).toPrecision(12)));
}

let plots = 0;  // for unique ids of the key hints

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
// hundreds of SVG nodes per change cost more than the arithmetic behind them.
const drawn = new WeakMap();

/**
 * Makes `group`'s children the parts [tag, attributes, text?] in order, reusing, in order, the
 * elements an earlier patch made (an old element whose tag is the part's) and writing only the
 * attributes and text that differ. Anything else a caller added to the group after a draw is
 * removed first, as a rebuild would have removed it.
 *
 * Where the next old element's tag is not the part's (a plot that drops a guide line or a series
 * before its points): if more old elements are left than parts (a surplus of s) and one of the
 * next s old elements has the part's tag, the old elements before it are removed and it is
 * reused; otherwise a new element replaces the old one while the old elements left are at least
 * as many as the parts left, and goes in before it while they are fewer. One part fewer near the
 * start then costs a removal, not a new element for every part after it (the extend step's 129
 * points were rebuilt whenever a guide line went).
 */
export function patch(group, parts) {
  for (const el of [...group.children]) if (!drawn.has(el)) el.remove();
  let el = group.firstElementChild;
  let left = group.childElementCount;  // old elements from el on
  for (let k = 0; k < parts.length; k++) {
    const [tag, attrs, text] = parts[k];
    if (el && el.localName !== tag) {
      // More old elements left than parts: if one of the next (surplus) old elements has this
      // tag, drop those before it.
      let ahead = el;
      for (let skip = left - (parts.length - k); ahead && ahead.localName !== tag && skip > 0; skip--) ahead = ahead.nextElementSibling;
      if (ahead?.localName === tag) {
        while (el !== ahead) {
          const next = el.nextElementSibling;
          el.remove();
          el = next;
          left--;
        }
      }
    }
    const had = el && el.localName === tag ? drawn.get(el) : null;
    if (!had) {
      const fresh = document.createElementNS(SVG_NS, tag);
      for (const name in attrs) write(fresh, name, attrs[name]);
      if (text !== undefined) fresh.textContent = text;
      drawn.set(fresh, { attrs, text });
      if (el && left >= parts.length - k) {
        const next = el.nextElementSibling;
        el.replaceWith(fresh);
        el = next;
        left--;
      } else if (el) el.before(fresh);
      else group.append(fresh);
      continue;
    }
    // The values as given are compared, not their text: the same number writes the same text,
    // and most of a redraw's numbers are the last one's (turning every value into text first cost
    // more than the writes it saved).
    for (const name in attrs) if (had.attrs[name] !== attrs[name]) write(el, name, attrs[name]);
    for (const name in had.attrs) if (!(name in attrs)) el.removeAttribute(name);
    had.attrs = attrs;
    if (had.text !== text) {
      el.textContent = text ?? '';
      had.text = text;
    }
    el = el.nextElementSibling;
    left--;
  }
  while (el) {
    const next = el.nextElementSibling;
    el.remove();
    el = next;
  }
}

/** An attribute as kit/dom.js writes it: none for null, undefined and false, '' for true. */
function write(el, name, v) {
  if (v === undefined || v === null || v === false) el.removeAttribute(name);
  else el.setAttribute(name, v === true ? '' : String(v));
}

// What an element was last filled with through legendItems or patchKeyed: the key it was filled
// for, and its first and last child then. If a caller has since added children or replaced them
// (a step that appends its own legend entry; a figure that puts back a kept drawing), the first
// or last child differs and the next call fills it again.
const filled = new WeakMap();
const stillFilled = (el, key) => {
  const f = filled.get(el);
  return f !== undefined && f.key === key && f.first === el.firstChild && f.last === el.lastChild;
};
const remember = (el, key) => filled.set(el, { key, first: el.firstChild, last: el.lastChild });

/**
 * The legend's entries, one per series with a label: a swatch in the series' class and the label.
 * Built again only when the labels or classes change (most redraws move the curves, not this).
 */
export function legendItems(legend, series) {
  const items = series.filter((l) => l.label);
  const key = JSON.stringify(items.map((l) => [l.cls, l.label]));
  if (stillFilled(legend, key)) return;
  legend.replaceChildren(...items.map((l) =>
    h('span', { class: `legend-item ${l.cls}` }, h('span', { class: 'swatch', 'aria-hidden': 'true' }), l.label)));
  remember(legend, key);
}

/**
 * patch(group, parts()) unless the group still holds what its last patch through here drew for
 * the same `key`: a plot's axes and ticks depend on its domains and size only, and most redraws
 * keep them.
 */
export function patchKeyed(group, key, parts) {
  if (stillFilled(group, key)) return;
  patch(group, parts());
  remember(group, key);
}

export class LinePlot {
  /**
   * @param {HTMLElement} container
   * @param {{xLabel:string, yLabel:string, label:string, format?:(v:number)=>string,
   *   cursorX?:(v:number)=>string, cursorY?:(v:number)=>string, keysHint?:string}} options
   *   format: tick labels. The plot is focusable: Left/Right, Home/End move a cursor over the
   *   points of the series drawn with `cursor: true` (else the first one), drawn on the plot and
   *   announced politely as "x label: x; y label: y", with cursorX/cursorY formatting the numbers
   *   (default: format for x, two decimals for y). keysHint describes the keys to screen readers.
   */
  constructor(container, { xLabel, yLabel, label, format = (v) => String(+v.toFixed(6)), cursorX = format,
    cursorY = (v) => v.toFixed(2), keysHint = '' }) {
    this.format = format;
    this.cursorX = cursorX;
    this.cursorY = cursorY;
    this.labels = { x: xLabel, y: yLabel };
    this.size = sizeNow();
    // role=application: a screen reader hands the arrow keys to the plot when it has focus.
    this.svg = s('svg', { viewBox: `0 0 ${this.size.w} ${this.size.h}`, class: 'lineplot', role: 'application', 'aria-label': label, tabindex: '0' });
    this.grid = s('g', { class: 'grid' });
    this.plot = s('g', { class: 'plot' });
    this.cursorLayer = s('g', { class: 'plot-cursor', 'aria-hidden': 'true' });
    this.xLabel = s('text', { class: 'axis-label', 'text-anchor': 'middle' }, xLabel);
    this.yLabel = s('text', { class: 'axis-label', 'text-anchor': 'middle' }, yLabel);
    this.svg.append(this.grid, this.plot, this.cursorLayer, this.xLabel, this.yLabel);
    this.fonts = plotFonts(this.svg);
    // Never shown: one text per guide-line class, to read the font a label of that class gets.
    this.probes = s('g', { display: 'none', 'aria-hidden': 'true' });
    this.svg.append(this.probes);
    this.margin = firstMargin(PAD.left);  // kit/textfit.js's leftMargin: the axis line, the y title's place and size
    this.#layout();
    this.legend = h('div', { class: 'plot-legend line-legend' });
    // Only the cursor's announcements are live; redrawing the plot never speaks.
    this.announcer = h('p', { class: 'sr-only plot-announcer', 'aria-live': 'polite' });
    const extra = [];
    if (keysHint) {
      const hint = h('span', { class: 'sr-only', id: `lineplot-keys-${++plots}` }, keysHint);
      this.svg.setAttribute('aria-describedby', hint.id);
      extra.push(hint);
    }
    container.append(this.svg, this.legend, this.announcer, ...extra);
    registerFigure(this.svg, { holder: container });
    this.memo = { scale: '', paths: new Map() };  // the last drawing's paths and x texts (seriesParts)
    this.cursor = null;   // index into the cursor series: set by the keys or a press, cleared on blur
    this.track = null;    // { x, y } of the cursor series
    this.svg.addEventListener('keydown', (e) => this.#key(e));
    this.pressed = null;  // the pointer that is walking the cursor, while it is down
    this.svg.addEventListener('pointerdown', (e) => {
      if (!e.isPrimary || e.button > 0 || !this.track?.x.length) return;
      this.pressed = e.pointerId;
      this.svg.setPointerCapture?.(e.pointerId);
      this.#pointAt(e);
    });
    this.svg.addEventListener('pointermove', (e) => { if (e.pointerId === this.pressed) this.#pointAt(e); });
    for (const type of ['pointerup', 'pointercancel']) this.svg.addEventListener(type, () => { this.pressed = null; });
    this.svg.addEventListener('blur', () => {
      this.cursor = null;
      this.#drawCursor();
    });
  }

  #key(e) {
    if (!this.track || !this.track.x.length || e.altKey || e.ctrlKey || e.metaKey) return;
    const last = this.track.x.length - 1;
    const at = this.cursor;
    const next = {
      ArrowRight: at === null ? 0 : Math.min(last, at + 1),
      ArrowLeft: at === null ? last : Math.max(0, at - 1),
      Home: 0,
      End: last,
    }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    this.#moveTo(next);
  }

  /** The cursor to the point whose x is nearest the pointer's. */
  #pointAt(e) {
    const box = this.svg.getBoundingClientRect();
    if (!box.width) return;
    const at = ((e.clientX - box.left) / box.width) * this.size.w;
    let best = 0;
    for (let i = 1; i < this.track.x.length; i++) {
      if (Math.abs(this.x(this.track.x[i]) - at) < Math.abs(this.x(this.track.x[best]) - at)) best = i;
    }
    if (best !== this.cursor) this.#moveTo(best);
  }

  #moveTo(index) {
    this.cursor = index;
    this.#drawCursor();
    const x = this.track.x[index];
    const y = this.track.y[index];
    this.announcer.textContent = `${this.labels.x}: ${this.cursorX(x)}; ${this.labels.y}: ${this.cursorY(y)}`;
  }

  /** The cursor on the plot: a dashed line down to the x axis, a ring on the point, its value. */
  #drawCursor() {
    if (this.cursor === null || !this.track) {
      this.cursorLayer.replaceChildren();
      return;
    }
    const x = this.track.x[this.cursor];
    const y = this.track.y[this.cursor];
    const cx = this.x(x);
    const cy = this.y(y);
    const right = cx > this.size.w * 0.8;
    const above = cy > PAD.top + 28;
    this.cursorLayer.replaceChildren(
      s('line', { x1: cx, x2: cx, y1: PAD.top, y2: this.size.h - this.size.bottom, class: 'cursor-line' }),
      s('circle', { cx, cy, r: 8, class: 'cursor-ring' }),
      s('text', {
        x: right ? cx - 11 : cx + 11, y: above ? cy - 11 : cy + 22, 'text-anchor': right ? 'end' : 'start', class: 'cursor-label',
      }, this.cursorY(y)),
    );
  }

  /** The font of a text of class `cls` in this plot (read again when the window's width changes). */
  #probeFont(cls) {
    let probe = [...this.probes.children].find((t) => t.getAttribute('class') === cls);
    if (!probe) {
      probe = s('text', { class: cls });
      this.probes.append(probe);
    }
    return keptFont(probe);
  }

  /** The x title at its CSS size, or smaller where it would be wider than the drawing around its centre. */
  #fitXTitle() {
    const font = this.fonts()?.title;
    if (!font) return;
    const { w: W } = this.size;
    const { left } = this.margin;
    const centre = left + (W - left - PAD.right) / 2;
    const room = 2 * Math.min(centre - 2, W - 2 - centre);
    const wide = textWidth(font, this.labels.x);
    const size = wide > room ? `${((font.size * room) / wide).toFixed(2)}px` : '';
    if (this.xLabel.style.fontSize !== size) this.xLabel.style.fontSize = size;
  }

  #layout() {
    const { w: W, h: H, bottom } = this.size;
    this.svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    const { left } = this.margin;
    this.xLabel.setAttribute('x', left + (W - left - PAD.right) / 2);
    this.xLabel.setAttribute('y', H - 6);
    placeYTitle(this.yLabel, this.margin, PAD.top + (H - PAD.top - bottom) / 2);
  }

  /** New axis titles, which the cursor's announcements read too; one left out stays. */
  setAxisLabels({ x = this.labels.x, y = this.labels.y }) {
    this.labels = { x, y };
    this.xLabel.textContent = x;
    this.yLabel.textContent = y;  // placed and sized to fit by the next draw
  }

  x(v) { const { left } = this.margin; return left + ((v - this.xd[0]) / (this.xd[1] - this.xd[0] || 1)) * (this.size.w - left - PAD.right); }
  y(v) { const { h: H, bottom } = this.size; return H - bottom - ((v - this.yd[0]) / (this.yd[1] - this.yd[0] || 1)) * (H - PAD.top - bottom); }

  /**
   * @param {{xDomain:[number,number], yDomain:[number,number],
   *   series:{x:ArrayLike<number>, y:ArrayLike<number>, cls:string, label?:string, points?:boolean|'rings', cursor?:boolean,
   *     joinFlat?:boolean, perColumn?:boolean}[],
   *   markers?:{x:number, y:number, cls:string}[], vlines?:{x:number, cls:string, label?:string, labelY?:number, anchor?:'start'|'end'}[],
   *   bands?:{x:ArrayLike<number>, lo:ArrayLike<number>, hi:ArrayLike<number>, cls:string}[]}} d
   *   points: a dot at every point (CSS .dots); 'rings': circles instead (CSS .point), for hollow ones.
   *   bands: filled areas between lo and hi (a spread), drawn under the series.
   *   joinFlat: when x rises throughout, a run of points at the same drawn height is written as
   *   its two ends (the same picture from fewer points: for long, mostly flat curves).
   *   perColumn: when x rises throughout, the points in one unit column of the drawing are written
   *   as their lowest and highest (for curves with more points than the drawing has units).
   */
  draw({ xDomain, yDomain, series, markers = [], vlines = [], bands = [] }) {
    this.xd = xDomain;
    this.yd = yDomain;
    const size = sizeNow();
    const { w: W, h: H, bottom } = size;
    const yTicks = ticks(...yDomain, 5);
    const yTexts = yTicks.map(this.format);
    // Kept at least as wide as it was, unless the drawing's size (phone or desktop) changed.
    const fitted = leftMargin(this.margin, this.fonts(), {
      ticks: yTexts, title: this.labels.y, axis: H - PAD.top - bottom, min: PAD.left, gap: 6, keep: size === this.size,
    });
    if (size !== this.size || fitted !== this.margin) {
      this.size = size;
      this.margin = fitted;
      this.#layout();
    }
    this.#fitXTitle();
    const { left } = this.margin;
    // The tick font too: at some widths a step's CSS resizes the ticks without a change of the drawing's size.
    patchKeyed(this.grid, `${xDomain}|${yDomain}|${W}x${H}|${left}|${this.fonts()?.tick.font}`, () => {
      const grid = [];
      yTicks.forEach((t, k) => {
        grid.push(
          ['line', { x1: left, x2: W - PAD.right, y1: this.y(t), y2: this.y(t), class: t === 0 ? 'zero' : 'tick-line' }],
          ['text', { x: left - 6, y: this.y(t) + size.yTickDy, 'text-anchor': 'end', class: 'tick' }, yTexts[k]],
        );
      });
      const xTicks = ticks(...xDomain, size.xTicks);
      grid.push(...xTickParts(this.fonts()?.tick, xTicks.map((t) => this.x(t)), xTicks.map(this.format), left, W - 1, H - bottom, size.tickY));
      grid.push(['line', { x1: left, x2: W - PAD.right, y1: H - bottom, y2: H - bottom, class: 'axis' }]);
      return grid;
    });
    const plot = [];
    const labels = [];  // drawn last, over the curves; each has a halo in the card's colour (styles.css)
    for (const v of vlines) {
      plot.push(['line', { x1: this.x(v.x), x2: this.x(v.x), y1: PAD.top, y2: H - bottom, class: `vline ${v.cls}` }]);
      if (!v.label) continue;
      // By default the label hangs at the top, right of its line; a plot whose curves run along
      // the top there places it by a value (labelY) and a side (anchor 'end': left of the line).
      // A label with no room on its side (a line near the plot's edge, a long translation) goes
      // to the other side if it fits there, and else to the roomier side, squeezed to fit (an
      // attribute: the strict CSP refuses style attributes).
      let end = v.anchor === 'end';
      let fit = {};
      const font = this.#probeFont(`vline-label ${v.cls}`);
      if (font) {
        const wide = textWidth(font, v.label);
        const room = [this.x(v.x) - 4 - left, W - 1 - this.x(v.x) - 4];  // [left of the line, right of it]
        const side = end ? 0 : 1;
        if (wide > room[side]) {
          if (wide <= room[1 - side] || room[1 - side] > room[side]) end = !end;
          const r = room[end ? 0 : 1];
          if (wide > r && r > 0) fit = { textLength: r.toFixed(1), lengthAdjust: 'spacingAndGlyphs' };
        }
      }
      labels.push(['text', {
        x: this.x(v.x) + (end ? -4 : 4), y: v.labelY === undefined ? PAD.top + 12 : this.y(v.labelY),
        ...(end ? { 'text-anchor': 'end' } : {}), class: `vline-label ${v.cls}`, ...fit,
      }, v.label]);
    }
    for (const b of bands) {
      let d = '';
      for (let i = 0; i < b.x.length; i++) d += `${i ? 'L' : 'M'}${this.x(b.x[i]).toFixed(2)},${this.y(b.hi[i]).toFixed(2)}`;
      for (let i = b.x.length - 1; i >= 0; i--) d += `L${this.x(b.x[i]).toFixed(2)},${this.y(b.lo[i]).toFixed(2)}`;
      if (d) plot.push(['path', { d: `${d}Z`, class: `band ${b.cls}` }]);
    }
    this.memo.scale = `${xDomain}|${yDomain}|${W}x${H}|${left}`;
    this.memo.xScale = `${xDomain}|${W}|${left}`;  // x(v) reads the x domain, the width and the left margin
    seriesParts(plot, series, (v) => this.x(v), (v) => this.y(v), 2.5, this.memo);
    for (const mk of markers) {
      plot.push(['circle', { cx: this.x(mk.x), cy: this.y(mk.y), r: 5.5, class: `marker ${mk.cls}` }]);
    }
    patch(this.plot, plot.concat(labels));
    legendItems(this.legend, series);
    // The keyboard cursor stays on the same point index, redrawn without a new announcement.
    const track = series.find((l) => l.cursor) ?? series[0];
    this.track = track ? { x: track.x, y: track.y } : null;
    if (this.cursor !== null) this.cursor = this.track?.x.length ? Math.min(this.cursor, this.track.x.length - 1) : null;
    this.#drawCursor();
  }
}
