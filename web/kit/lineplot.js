// Line plot in SVG: labelled axes with round ticks, any number of series, point markers and
// vertical guide lines. Scales to its container (viewBox); colours come from CSS classes.
import { h, s } from './dom.js';

const W = 640;
// Height of the drawing: taller on phones, where the 640-unit width shrinks to ~340 px.
const heightNow = () => (globalThis.matchMedia?.('(max-width: 560px)').matches ? 420 : 260);
const PAD = { left: 52, right: 14, top: 12, bottom: 42 };

/** About `count` round tick values covering [lo, hi]. */
export function ticks(lo, hi, count = 6) {
  const span = hi - lo || 1;
  const raw = span / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((f) => f * mag).find((v) => v >= raw) ?? 10 * mag;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  return out;
}

export class LinePlot {
  /**
   * @param {HTMLElement} container
   * @param {{xLabel:string, yLabel:string, label:string, format?:(v:number)=>string}} options
   */
  constructor(container, { xLabel, yLabel, label, format = (v) => String(+v.toFixed(6)) }) {
    this.format = format;
    this.h = heightNow();
    this.svg = s('svg', { viewBox: `0 0 ${W} ${this.h}`, class: 'lineplot', role: 'img', 'aria-label': label });
    this.grid = s('g', { class: 'grid' });
    this.plot = s('g', { class: 'plot' });
    this.xLabel = s('text', { class: 'axis-label', 'text-anchor': 'middle' }, xLabel);
    this.yLabel = s('text', { class: 'axis-label', 'text-anchor': 'middle' }, yLabel);
    this.svg.append(this.grid, this.plot, this.xLabel, this.yLabel);
    this.#layout();
    this.legend = h('div', { class: 'plot-legend' });
    container.append(this.svg, this.legend);
  }

  #layout() {
    const H = this.h;
    this.svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    this.xLabel.setAttribute('x', PAD.left + (W - PAD.left - PAD.right) / 2);
    this.xLabel.setAttribute('y', H - 6);
    const mid = PAD.top + (H - PAD.top - PAD.bottom) / 2;
    this.yLabel.setAttribute('x', 14);
    this.yLabel.setAttribute('y', mid);
    this.yLabel.setAttribute('transform', `rotate(-90 14 ${mid})`);
  }

  x(v) { return PAD.left + ((v - this.xd[0]) / (this.xd[1] - this.xd[0] || 1)) * (W - PAD.left - PAD.right); }
  y(v) { const H = this.h; return H - PAD.bottom - ((v - this.yd[0]) / (this.yd[1] - this.yd[0] || 1)) * (H - PAD.top - PAD.bottom); }

  /**
   * @param {{xDomain:[number,number], yDomain:[number,number],
   *   series:{x:ArrayLike<number>, y:ArrayLike<number>, cls:string, label?:string, points?:boolean}[],
   *   markers?:{x:number, y:number, cls:string}[], vlines?:{x:number, cls:string, label?:string}[]}} d
   */
  draw({ xDomain, yDomain, series, markers = [], vlines = [] }) {
    this.xd = xDomain;
    this.yd = yDomain;
    const H = heightNow();
    if (H !== this.h) {
      this.h = H;
      this.#layout();
    }
    this.grid.replaceChildren();
    for (const t of ticks(...yDomain, 5)) {
      this.grid.append(
        s('line', { x1: PAD.left, x2: W - PAD.right, y1: this.y(t), y2: this.y(t), class: t === 0 ? 'zero' : 'tick-line' }),
        s('text', { x: PAD.left - 6, y: this.y(t) + 4, 'text-anchor': 'end', class: 'tick' }, this.format(t)),
      );
    }
    for (const t of ticks(...xDomain, 8)) {
      this.grid.append(
        s('line', { x1: this.x(t), x2: this.x(t), y1: H - PAD.bottom, y2: H - PAD.bottom + 4, class: 'tick-mark' }),
        s('text', { x: this.x(t), y: H - PAD.bottom + 17, 'text-anchor': 'middle', class: 'tick' }, this.format(t)),
      );
    }
    this.grid.append(s('line', { x1: PAD.left, x2: W - PAD.right, y1: H - PAD.bottom, y2: H - PAD.bottom, class: 'axis' }));
    this.plot.replaceChildren();
    for (const v of vlines) {
      this.plot.append(s('line', { x1: this.x(v.x), x2: this.x(v.x), y1: PAD.top, y2: H - PAD.bottom, class: `vline ${v.cls}` }));
      if (v.label) this.plot.append(s('text', { x: this.x(v.x) + 4, y: PAD.top + 12, class: `vline-label ${v.cls}` }, v.label));
    }
    for (const line of series) {
      let d = '';
      for (let i = 0; i < line.x.length; i++) d += `${i ? 'L' : 'M'}${this.x(line.x[i]).toFixed(2)},${this.y(line.y[i]).toFixed(2)}`;
      this.plot.append(s('path', { d, class: `series ${line.cls}` }));
      if (line.points) {
        for (let i = 0; i < line.x.length; i++) {
          this.plot.append(s('circle', { cx: this.x(line.x[i]), cy: this.y(line.y[i]), r: 2.5, class: `point ${line.cls}` }));
        }
      }
    }
    for (const mk of markers) {
      this.plot.append(s('circle', { cx: this.x(mk.x), cy: this.y(mk.y), r: 5.5, class: `marker ${mk.cls}` }));
    }
    this.legend.replaceChildren(...series.filter((l) => l.label).map((l) =>
      h('span', { class: `legend-item ${l.cls}` }, h('span', { class: 'swatch', 'aria-hidden': 'true' }), l.label)));
  }
}
