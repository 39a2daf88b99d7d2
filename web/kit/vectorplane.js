// 2D vectors as arrows on a plane with equal scales on both axes: labelled axes with round
// ticks, arrows from any start to any end, dots and text labels. Colours come from the series
// classes a/b/c (as in the line plot); dashes come from the `dashed` flag, so no arrow is told
// apart by colour alone. Scales to its container (viewBox).
import { s } from './dom.js';
import { registerFigure } from './figures.js';
import { patch } from './svg-patch.js';
import { ticks } from './ticks.js';

const PAD = { left: 44, right: 14, top: 12, bottom: 40 };
const UNIT = 120;   // SVG units per data unit, the same on both axes

export class VectorPlane {
  /**
   * @param {HTMLElement} container
   * @param {{label:string, xLabel:string, yLabel:string, x:[number,number], y:[number,number],
   *   format?:(v:number)=>string}} options  x and y are the visible domains
   */
  constructor(container, { label, xLabel, yLabel, x, y, format = (v) => String(+v.toFixed(6)) }) {
    this.xd = x;
    this.yd = y;
    this.format = format;
    this.w = PAD.left + PAD.right + (x[1] - x[0]) * UNIT;
    this.h = PAD.top + PAD.bottom + (y[1] - y[0]) * UNIT;
    this.svg = s('svg', { viewBox: `0 0 ${this.w} ${this.h}`, class: 'vectorplane', role: 'img', 'aria-label': label });
    this.plot = s('g', { class: 'plot' });
    const midY = PAD.top + (this.h - PAD.top - PAD.bottom) / 2;
    this.svg.append(
      this.#grid(),
      this.plot,
      s('text', { x: PAD.left + (this.w - PAD.left - PAD.right) / 2, y: this.h - 6, class: 'axis-label', 'text-anchor': 'middle' }, xLabel),
      s('text', { x: 12, y: midY, class: 'axis-label', 'text-anchor': 'middle', transform: `rotate(-90 12 ${midY})` }, yLabel),
    );
    container.append(this.svg);
    registerFigure(this.svg, { holder: container });
  }

  px(v) { return PAD.left + (v - this.xd[0]) * UNIT; }
  py(v) { return this.h - PAD.bottom - (v - this.yd[0]) * UNIT; }

  #grid() {
    const g = s('g', { class: 'grid' });
    const [x0, x1] = this.xd;
    const [y0, y1] = this.yd;
    for (const t of ticks(y0, y1, 5)) {
      g.append(
        s('line', { x1: this.px(x0), x2: this.px(x1), y1: this.py(t), y2: this.py(t), class: t === 0 ? 'zero' : 'tick-line' }),
        s('text', { x: PAD.left - 6, y: this.py(t) + 4, 'text-anchor': 'end', class: 'tick' }, this.format(t)),
      );
    }
    for (const t of ticks(x0, x1, 5)) {
      g.append(
        s('line', { x1: this.px(t), x2: this.px(t), y1: this.py(y0), y2: this.py(y1), class: t === 0 ? 'zero' : 'tick-line' }),
        s('text', { x: this.px(t), y: this.h - PAD.bottom + 16, 'text-anchor': 'middle', class: 'tick' }, this.format(t)),
      );
    }
    return g;
  }

  /** Replaces the accessible description. */
  setLabel(label) {
    this.svg.setAttribute('aria-label', label);
  }

  /**
   * @param {{arrows?:{from:[number,number], to:[number,number], cls:string, dashed?:boolean, faint?:boolean}[],
   *   dots?:{at:[number,number], cls:string}[],
   *   labels?:{at:[number,number], text:string, cls:string, dx?:number, dy?:number, anchor?:string}[]}} d
   *   labels are offset by (dx, dy) SVG units from their point (default: right and up).
   */
  draw({ arrows = [], dots = [], labels = [] }) {
    const parts = [];
    for (const a of arrows) {
      const x1 = this.px(a.from[0]);
      const y1 = this.py(a.from[1]);
      const x2 = this.px(a.to[0]);
      const y2 = this.py(a.to[1]);
      const len = Math.hypot(x2 - x1, y2 - y1);
      if (len < 1e-6) continue;
      const ux = (x2 - x1) / len;
      const uy = (y2 - y1) / len;
      const head = Math.min(9, len * 0.6);
      // The shaft stops at the head's base so a dashed shaft does not poke through the tip.
      const bx = x2 - head * ux;
      const by = y2 - head * uy;
      const cls = `${a.cls}${a.dashed ? ' dashed' : ''}${a.faint ? ' faint' : ''}`;
      parts.push(
        ['line', { x1, y1, x2: bx, y2: by, class: `vec ${cls}` }],
        ['polygon', { points: `${x2},${y2} ${bx - 4.5 * uy},${by + 4.5 * ux} ${bx + 4.5 * uy},${by - 4.5 * ux}`, class: `vec-head ${cls}` }],
      );
    }
    for (const d of dots) {
      parts.push(['circle', { cx: this.px(d.at[0]), cy: this.py(d.at[1]), r: 4, class: `dot ${d.cls}` }]);
    }
    for (const l of labels) {
      parts.push(['text', {
        x: this.px(l.at[0]) + (l.dx ?? 6), y: this.py(l.at[1]) + (l.dy ?? -6),
        'text-anchor': l.anchor ?? 'start', class: `vec-label ${l.cls}`,
      }, l.text]);
    }
    patch(this.plot, parts);  // svg-patch.js: elements already drawn are moved; only missing ones are built
  }
}
