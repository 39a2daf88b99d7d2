// Value strips in SVG: a few rows, each a labelled number line with one mark per value, on a
// shared x axis. Good for "are these lists the same numbers?": equal lists line up mark for
// mark. Each row has a series class (a/b/c) and its own mark shape, so rows differ by more than
// colour; a highlighted row is drawn bolder. Values that coincide within a row stack upwards.
// The drawing is as wide as its box (redrawn on resize), so text keeps its size on phones.
import { h, s } from './dom.js';
import { registerFigure } from './figures.js';
import { patch } from './svg-patch.js';
import { ticks } from './ticks.js';

const ROW = 46;
const PAD = { left: 14, right: 14, top: 26, bottom: 40 };
const SHAPES = ['circle', 'square', 'diamond'];

/** A mark as a part [tag, attributes] for svg-patch.js's patch. */
function mark(shape, x, y, r, cls) {
  if (shape === 'square') return ['rect', { x: x - r * 0.9, y: y - r * 0.9, width: r * 1.8, height: r * 1.8, class: cls }];
  if (shape === 'diamond') return ['polygon', { points: `${x},${y - r * 1.2} ${x + r * 1.2},${y} ${x},${y + r * 1.2} ${x - r * 1.2},${y}`, class: cls }];
  return ['circle', { cx: x, cy: y, r, class: cls }];
}

export class ValueStrips {
  /**
   * @param {HTMLElement} container
   * @param {{label:string, xLabel:string, format?:(v:number)=>string}} options
   */
  constructor(container, { label, xLabel, format = (v) => String(+v.toFixed(6)) }) {
    this.xLabel = xLabel;
    this.format = format;
    this.svg = s('svg', { class: 'strips', role: 'img', 'aria-label': label });
    this.legend = h('div', { class: 'plot-legend' });
    container.append(this.svg, this.legend);
    registerFigure(this.svg, { holder: container });
    this.width = 0;
    this.boxWidth = 0;
    // The observer records the box's width, so draw() never forces a layout to read it; the
    // redraw happens in the next frame, not inside the observer (that could loop).
    new ResizeObserver(([entry]) => {
      this.boxWidth = entry.contentRect.width;
      requestAnimationFrame(() => {
        if (this.last && this.#boxWidth() !== this.width) this.draw(this.last);
      });
    }).observe(this.svg);
  }

  #boxWidth() {
    if (!this.boxWidth) this.boxWidth = this.svg.clientWidth || this.svg.parentElement?.clientWidth || 0;
    return Math.max(280, Math.round(this.boxWidth || 640));
  }

  setLabel(label) {
    this.svg.setAttribute('aria-label', label);
  }

  /**
   * @param {{domain:[number,number], rows:{values:ArrayLike<number>, cls:string, label:string, current?:boolean}[],
   *   same?:number}} d  values closer than `same` count as coinciding (stacked)
   */
  draw({ domain, rows, same = 1e-6 }) {
    this.last = { domain, rows, same };
    const W = this.width = this.#boxWidth();
    const H = PAD.top + PAD.bottom + rows.length * ROW;
    this.svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    const x = (v) => PAD.left + ((v - domain[0]) / (domain[1] - domain[0] || 1)) * (W - PAD.left - PAD.right);
    const parts = [];
    const base = H - PAD.bottom;
    for (const t of ticks(domain[0], domain[1], W < 480 ? 5 : 8)) {
      parts.push(
        ['line', { x1: x(t), x2: x(t), y1: PAD.top - 8, y2: base, class: t === 0 ? 'zero' : 'tick-line' }],
        ['text', { x: x(t), y: base + 16, 'text-anchor': 'middle', class: 'tick' }, this.format(t)],
      );
    }
    parts.push(
      ['line', { x1: PAD.left, x2: W - PAD.right, y1: base, y2: base, class: 'axis' }],
      ['text', { x: PAD.left + (W - PAD.left - PAD.right) / 2, y: H - 6, 'text-anchor': 'middle', class: 'axis-label' }, this.xLabel],
    );
    rows.forEach((row, i) => {
      const y = PAD.top + i * ROW + ROW * 0.62;
      const shape = SHAPES[i % SHAPES.length];
      const state = row.current ? ' current' : '';
      const sorted = Array.from(row.values).sort((a, b) => a - b);
      const step = row.current ? 10 : 8;
      const r = row.current ? 5.5 : 4.5;
      const marks = [];
      let stack = 0;
      let top = 0;  // the highest stack of the row
      sorted.forEach((v, k) => {
        stack = k > 0 && Math.abs(v - sorted[k - 1]) <= same ? stack + 1 : 0;
        top = Math.max(top, stack);
        marks.push(mark(shape, x(v), y - stack * step, r, `strip-mark ${row.cls}${state}`));
      });
      // The label's baseline clears the row's highest stacked mark, which it would otherwise
      // cross where it runs over the first marks (a phone's larger type).
      parts.push(
        ['line', { x1: PAD.left, x2: W - PAD.right, y1: y, y2: y, class: `strip-line${state}` }],
        ['text', { x: PAD.left, y: y - Math.max(17, top * step + r + 5), class: `strip-label ${row.cls}${state}` }, row.label],
        ...marks,
      );
    });
    // Patched (svg-patch.js): a redraw moves the marks it has instead of building them anew.
    patch(this.svg, parts);
    const key = JSON.stringify(rows.map((row) => [row.cls, row.label]));
    if (key !== this.legendKey) {
      this.legendKey = key;
      this.legend.replaceChildren(...rows.map((row, i) => h('span', { class: `legend-item ${row.cls}` },
        h('span', { class: `shape-swatch ${SHAPES[i % SHAPES.length]}`, 'aria-hidden': 'true' }), row.label)));
    }
  }
}
