// A plot with a linear horizontal axis and a logarithmic vertical one, in SVG: decade ticks
// (1, 10, 100, ...), series as lines with optional points, highlighted markers with a label, and
// horizontal guide lines with a label. A geometric series is a straight line on it. Scales to its
// container (viewBox); colours come from CSS classes, as in lineplot.js (series a/b/c, ...).
import { h, s } from './dom.js';
import { registerFigure } from './figures.js';
import { seriesParts } from './path.js';
import { legendItems, patch, patchKeyed } from './svg-patch.js';
import { firstMargin, leftMargin, placeYTitle, plotFonts, xTickParts } from './textfit.js';

const PAD = { left: 58, right: 12, top: 12, bottom: 44 };

export class LogPlot {
  /**
   * @param {HTMLElement} container
   * @param {{label:string, xLabel:string, yLabel:string, width?:number, height?:number,
   *   formatX?:(v:number)=>string, formatY?:(v:number)=>string}} options
   *   formatY receives the decade's value (1, 10, 100, ...), not its logarithm.
   */
  constructor(container, { label, xLabel, yLabel, width = 360, height = 300, formatX = String, formatY = String }) {
    this.w = width;
    this.h = height;
    this.formatX = formatX;
    this.formatY = formatY;
    this.svg = s('svg', { viewBox: `0 0 ${width} ${height}`, class: 'lineplot logplot', role: 'img', 'aria-label': label });
    this.grid = s('g', { class: 'grid' });
    this.plot = s('g', { class: 'plot' });
    this.xLabel = s('text', { y: height - 6, class: 'axis-label', 'text-anchor': 'middle' }, xLabel);
    this.yLabel = s('text', { class: 'axis-label', 'text-anchor': 'middle' }, yLabel);
    this.svg.append(this.grid, this.plot, this.xLabel, this.yLabel);
    this.fonts = plotFonts(this.svg);
    this.margin = firstMargin(PAD.left);  // kit/textfit.js's leftMargin
    this.placeTitles();
    this.legend = h('div', { class: 'plot-legend' });
    this.memo = { scale: '', paths: new Map() };  // the last drawing's paths and x texts (path.js's seriesParts)
    container.append(this.svg, this.legend);
    registerFigure(this.svg, { holder: container });
  }

  /**
   * Forgets how wide the y axis's labels were: the next draw() fits the margin to its own labels
   * only. A drawing kept and put back later (loss-figure.js) then looks the same whatever was
   * drawn before it.
   */
  resetMargin() {
    this.margin = firstMargin(PAD.left);
  }

  /** The axis titles where the margin puts them (the y title at the size it fits at). */
  placeTitles() {
    const { left } = this.margin;
    this.xLabel.setAttribute('x', left + (this.w - left - PAD.right) / 2);
    placeYTitle(this.yLabel, this.margin, PAD.top + (this.h - PAD.top - PAD.bottom) / 2);
  }

  x(v) { const { left } = this.margin; return left + ((v - this.xd[0]) / (this.xd[1] - this.xd[0] || 1)) * (this.w - left - PAD.right); }

  y(v) {
    const [lo, hi] = this.yd.map(Math.log10);
    return this.h - PAD.bottom - ((Math.log10(v) - lo) / (hi - lo || 1)) * (this.h - PAD.top - PAD.bottom);
  }

  /**
   * @param {{xDomain:[number,number], yDomain:[number,number], xTicks:number[],
   *   series:{x:ArrayLike<number>, y:ArrayLike<number>, cls:string, label?:string, points?:boolean|'rings'}[],
   *   markers?:{x:number, y:number, cls:string, label?:string, labelAt?:'below-right'|'above-left'}[],
   *   hlines?:{y:number, cls:string, label?:string, anchor?:'start'|'end'}[]}} d
   *   yDomain must be positive; every y value must be positive.
   */
  draw({ xDomain, yDomain, xTicks, series, markers = [], hlines = [] }) {
    this.xd = xDomain;
    this.yd = yDomain;
    const decades = [];
    for (let k = Math.ceil(Math.log10(yDomain[0]) - 1e-9); k <= Math.floor(Math.log10(yDomain[1]) + 1e-9); k++) decades.push(10 ** k);
    const yTexts = decades.map((v) => this.formatY(v));
    // Kept at least as wide as it was (loss-figure.js may put back an earlier drawing's margin
    // with its grid).
    const fitted = leftMargin(this.margin, this.fonts(), {
      ticks: yTexts, title: this.yLabel.textContent, axis: this.h - PAD.top - PAD.bottom, min: PAD.left, gap: 6, keep: true,
    });
    if (fitted !== this.margin) {
      this.margin = fitted;
      this.placeTitles();
    }
    const { left } = this.margin;
    const right = this.w - PAD.right;
    const bottom = this.h - PAD.bottom;
    // Parts [tag, attributes, text?], patched into the groups (svg-patch.js): a redraw moves the
    // nodes it has instead of building hundreds anew.
    patchKeyed(this.grid, `${xDomain}|${yDomain}|${xTicks}|${left}|${this.fonts()?.tick.font}`, () => {
      const grid = [];
      decades.forEach((v, k) => {
        const y = this.y(v);
        grid.push(['line', { x1: left, x2: right, y1: y, y2: y, class: 'tick-line' }],
          ['text', { x: left - 6, y: y + 4, 'text-anchor': 'end', class: 'tick' }, yTexts[k]]);
      });
      grid.push(...xTickParts(this.fonts()?.tick, xTicks.map((t) => this.x(t)), xTicks.map((t) => this.formatX(t)), left, this.w - 1, bottom));
      grid.push(['line', { x1: left, x2: right, y1: bottom, y2: bottom, class: 'axis' }],
        ['line', { x1: left, x2: left, y1: PAD.top, y2: bottom, class: 'axis' }]);
      return grid;
    });
    const plot = [];
    const labels = [];  // drawn last, over the curves; each has a halo in the card's colour (styles.css)
    for (const g of hlines) {
      const y = this.y(g.y);
      plot.push(['line', { x1: left, x2: right, y1: y, y2: y, class: `hline ${g.cls}` }]);
      if (g.label) {
        const end = (g.anchor ?? 'end') === 'end';
        // Above its line, unless that would reach the top gridline: then below it (the
        // frequencies step's 62,832 sits a fifth of a decade under the top, 100,000).
        const below = y - 5 - (this.fonts()?.tick.size ?? 12) < PAD.top;
        labels.push(['text', { x: end ? right - 2 : left + 4, y: below ? y + 14 : y - 5, 'text-anchor': end ? 'end' : 'start', class: `hline-label ${g.cls}` }, g.label]);
      }
    }
    this.memo.scale = `${xDomain}|${yDomain}|${left}`;
    this.memo.xScale = `${xDomain}|${left}`;  // x(v) reads the x domain and the left margin (the width is the plot's own)
    seriesParts(plot, series, (v) => this.x(v), (v) => this.y(v), 3.5, this.memo);
    for (const mk of markers) {
      const cx = this.x(mk.x);
      const cy = this.y(mk.y);
      plot.push(['circle', { cx, cy, r: 6.5, class: `marker ${mk.cls}` }]);
      if (mk.label) {
        const above = mk.labelAt === 'above-left';
        labels.push(['text', { x: above ? cx - 9 : cx + 10, y: above ? cy - 9 : cy + 16, 'text-anchor': above ? 'end' : 'start',
          class: `marker-label ${mk.cls}` }, mk.label]);
      }
    }
    patch(this.plot, plot.concat(labels));
    legendItems(this.legend, series);
  }
}
