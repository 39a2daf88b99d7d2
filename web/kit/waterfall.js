// A waterfall in SVG: each row's bar starts where the previous one ended, the last bar (the
// total) runs from zero. Drawn as wide as its box (redrawn on resize), so its text keeps its
// size on phones. Styles: .waterfall in styles.css; bar colours from each row's class.
import { s } from './dom.js';
import { registerFigure } from './figures.js';
import { patch } from './svg-patch.js';

const ROW = 34;
const PAD = { top: 10, bottom: 26 };

export class Waterfall {
  /** @param {HTMLElement} container  @param {{format:(v:number)=>string, className?:string}} options
   *   format: the value printed at the end of each row; className: more classes for the svg. */
  constructor(container, { format, className = '' }) {
    this.format = format;
    this.svg = s('svg', { class: `bars waterfall ${className}`.trim(), role: 'img', 'aria-label': '' });
    container.append(this.svg);
    registerFigure(this.svg, { holder: container });
    this.boxWidth = 0;
    this.width = 0;
    new ResizeObserver(([entry]) => {
      this.boxWidth = entry.contentRect.width;
      requestAnimationFrame(() => {
        if (this.last && this.#width() !== this.width) this.draw(this.last);
      });
    }).observe(this.svg);
  }

  #width() {
    return Math.max(280, Math.round(this.boxWidth || 560));
  }

  /** @param {{rows:{label:string, value:number, cls:string}[], total:{label:string, value:number, cls:string}}} d */
  draw(d) {
    this.last = d;
    const W = this.width = this.#width();
    const all = [...d.rows, d.total];
    const H = PAD.top + PAD.bottom + all.length * ROW;
    this.svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    const labelW = W < 420 ? 92 : 120;
    const valueW = 58;
    const left = labelW;
    const right = W - valueW;
    // Running sums: bar n spans [before, before + value].
    const spans = [];
    let at = 0;
    for (const r of d.rows) {
      spans.push([at, at + r.value]);
      at += r.value;
    }
    spans.push([0, d.total.value]);
    const ends = spans.flat();
    const lo = Math.min(0, ...ends);
    const hi = Math.max(0, ...ends);
    const pad = (hi - lo) * 0.04 || 1;
    const x = (v) => left + ((v - (lo - pad)) / (hi - lo + 2 * pad)) * (right - left);
    const parts = [];
    all.forEach((r, n) => {
      const y = PAD.top + n * ROW;
      const [a, b] = spans[n];
      const x0 = Math.min(x(a), x(b));
      parts.push(
        ['text', { x: 4, y: y + ROW / 2 + 4, class: 'wf-label' }, r.label],
        ['rect', { x: x0, y: y + 6, width: Math.max(1, Math.abs(x(b) - x(a))), height: ROW - 12, class: `bar ${r.cls}` }],
        ['text', { x: W - 4, y: y + ROW / 2 + 4, 'text-anchor': 'end', class: 'wf-value' }, this.format(r.value)],
      );
      // A thin connector from the end of this bar to the start of the next one.
      if (n < d.rows.length - 1) parts.push(['line', { x1: x(b), x2: x(b), y1: y + ROW - 6, y2: y + ROW + 6, class: 'wf-link' }]);
    });
    const base = PAD.top + all.length * ROW;
    parts.unshift(
      ['line', { x1: x(0), x2: x(0), y1: PAD.top, y2: base, class: 'zero' }],
      ['line', { x1: left, x2: right, y1: PAD.top + d.rows.length * ROW, y2: PAD.top + d.rows.length * ROW, class: 'wf-rule' }],
      ['text', { x: x(0), y: base + 16, 'text-anchor': 'middle', class: 'tick' }, '0'],
    );
    patch(this.svg, parts);  // svg-patch.js: elements already drawn are moved; only missing ones are built
  }
}
