// A table of numbers as a heatmap figure: caption, the map (rows down, columns across), a
// colour legend for ±limit in the page's locale, and a polite hover line. Used for the trained
// position table, its seeded stand-in and the rows' similarity, in the train step and in the
// learned step's "trained" panel. The caller passes its own text (its own catalog part).
import { h } from '../kit/dom.js';
import { symmetricMarks } from '../kit/format.js';
import { Heatmap, legend } from '../kit/heatmap.js';

let figures = 0;

/**
 * @param {{m:object, cls:string, keysHint:string, hint:string, axisX:string, axisY:string,
 *   hover:(cell:{row:number,col:number,value:number}) => string}} options
 */
export function tableFigure({ m, cls, keysHint, hint, axisX, axisY, hover: describe }) {
  const keys = h('span', { id: `train-table-keys-${++figures}`, class: 'sr-only' }, keysHint);
  const canvas = h('canvas', { class: `heatmap ${cls}-map`, 'aria-describedby': keys.id });
  const caption = h('figcaption', {});
  const hover = h('p', { class: 'hover-readout', 'aria-live': 'polite' }, hint);
  const legendEl = h('div', { class: 'legend' });
  const figure = h('figure', { class: `train-fig ${cls}` }, caption,
    h('div', { class: 'heatmap-frame' }, h('span', { class: 'axis axis-x' }, axisX), h('span', { class: 'axis axis-y' }, axisY), canvas, keys),
    legendEl, hover);
  const heatmap = new Heatmap(canvas, { onCell: (c) => { hover.textContent = c ? describe(c) : hint; } });
  return {
    el: figure,
    canvas,
    caption,
    /** Draws rows × cols values on ±limit; caption and alt text as given. */
    draw({ values, rows, cols, limit, captionText, alt }) {
      heatmap.limit = limit;
      // Cells a little wider than tall for a long, narrow table, so it stays wide enough to read.
      canvas.style.aspectRatio = `${Math.max(cols, rows * 0.8)} / ${rows}`;
      heatmap.draw(values, rows, cols);
      const digits = limit < 0.1 ? 2 : limit < 1 ? 1 : 0;
      legend(legendEl, limit, symmetricMarks(limit, (v) => m.fixed(v, digits)));
      caption.textContent = captionText;
      canvas.setAttribute('aria-label', alt);
    },
  };
}

/** A colour limit for a table: its largest magnitude, rounded up to two significant digits. */
export function limitOf(values) {
  let top = 0;
  for (const v of values) if (Math.abs(v) > top) top = Math.abs(v);
  if (!(top > 0)) return 1;
  const mag = 10 ** (Math.floor(Math.log10(top)) - 1);
  return Math.ceil(top / mag) * mag;
}
