// Vector bars in SVG: one group per dimension, one bar per vector, on a shared symmetric scale.
import { h, s } from './dom.js';
import { registerFigure } from './figures.js';
import { legendItems, patch } from './svg-patch.js';
import { plotFonts, textWidth } from './textfit.js';

const W = 640;
const H = 200;
const PAD = { left: 30, right: 8, top: 10, bottom: 26 };

export class VectorBars {
  /**
   * @param {HTMLElement} container
   * @param {{label:string, format?:(v:number)=>string}} options format writes the scale's limit
   *   for its two tick labels (in the page's language: a decimal comma where that is the custom)
   */
  constructor(container, { label, format = String }) {
    this.format = format;
    this.svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'bars', role: 'img', 'aria-label': label });
    this.layer = s('g');
    this.svg.append(this.layer);
    this.fonts = plotFonts(this.svg);
    this.left = PAD.left;
    this.legend = h('div', { class: 'plot-legend' });
    container.append(this.svg, this.legend);
    registerFigure(this.svg, { holder: container });
  }

  /**
   * @param {{values:ArrayLike<number>, cls:string, label:string}[]} vectors  equal lengths
   * @param {number} limit  the scale runs from -limit to +limit
   */
  draw(vectors, limit = 1) {
    const n = vectors[0].values.length;
    const top = `+${this.format(limit)}`;
    const bottom = `−${this.format(limit)}`;
    // A margin that fits the longer tick label (kit/textfit.js); never narrower than it was, so
    // the bars do not shift sideways between drawings.
    const font = this.fonts()?.tick;
    if (font) this.left = Math.max(this.left, Math.ceil(2 + Math.max(textWidth(font, top), textWidth(font, bottom)) + 4));
    const left = this.left;
    // The top label's digits reach about 0.75 em above its baseline; a baseline at least 0.8 em
    // down keeps them inside the drawing when the font is large (a phone's).
    const topLine = Math.max(PAD.top + 4, font ? Math.ceil(0.8 * font.size) : 0);
    const slot = (W - left - PAD.right) / n;
    // Every dimension is labelled where the labels have room, every other one where they would
    // touch (16 dimensions on a phone: "101112131415").
    const every = font && textWidth(font, String(n - 1)) + 0.5 * font.size > slot ? 2 : 1;
    const bw = (slot * 0.8) / vectors.length;
    const y = (v) => PAD.top + ((limit - v) / (2 * limit)) * (H - PAD.top - PAD.bottom);
    // Parts [tag, attributes, text?], patched into the drawing (svg-patch.js): a redraw rewrites
    // the bars' heights instead of building every bar anew.
    const parts = [
      ['line', { x1: left, x2: W - PAD.right, y1: y(0), y2: y(0), class: 'zero' }],
      ['text', { x: left - 4, y: topLine, 'text-anchor': 'end', class: 'tick' }, top],
      ['text', { x: left - 4, y: y(-limit) + 4, 'text-anchor': 'end', class: 'tick' }, bottom],
    ];
    for (let d = 0; d < n; d++) {
      const x0 = left + d * slot + slot * 0.1;
      vectors.forEach((vec, k) => {
        const v = vec.values[d];
        parts.push(['rect', {
          x: x0 + k * bw, width: Math.max(1, bw - 1),
          y: Math.min(y(v), y(0)), height: Math.max(0.5, Math.abs(y(v) - y(0))),
          class: `bar ${vec.cls}`,
        }]);
      });
      if (d % every === 0) parts.push(['text', { x: x0 + slot * 0.4, y: H - 8, 'text-anchor': 'middle', class: 'tick' }, String(d)]);
    }
    patch(this.layer, parts);
    legendItems(this.legend, vectors);
  }
}
