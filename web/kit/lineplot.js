// Line plot in SVG: labelled axes with round ticks, any number of series, point markers and
// vertical guide lines. Scales to its container (viewBox); colours come from CSS classes.
// Focusable: the arrow keys walk a cursor over one series' points and a polite live region
// reads each point out, so the curve can be read without seeing it. A press (finger, pen or
// mouse) puts the cursor on the point nearest in x and a drag walks it; the plot pans only
// vertically under a finger (touch-action in styles.css), so the page still scrolls over it.
import { h, s } from './dom.js';
import { registerFigure } from './figures.js';
import { seriesParts } from './path.js';
import { legendItems, patch, patchKeyed } from './svg-patch.js';
import { firstMargin, keptFont, leftMargin, placeYTitle, plotFonts, textWidth, xTickParts } from './textfit.js';
import { ticks } from './ticks.js';

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

let plots = 0;  // for unique ids of the key hints

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
