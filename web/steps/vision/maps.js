// Step "vision", the two maps. The main one: the cosine similarity of every patch to the chosen
// one, the chosen patch marked by the heatmap and the second one framed by an SVG laid over it
// (square grids only, so the SVG has the map's aspect). Beside it a smaller map: for the
// learned table, the table as trained; for sin-cos and RoPE, what a 1-D encoding of the patch
// number would make of the same grid.
import { h, s } from '../../kit/dom.js';
import { Heatmap, legend } from '../../kit/heatmap.js';
import { pointerHint } from '../../kit/pointer.js';
import { D } from './model.js';

const hoverText = (m, cell) => (cell
  ? m.t('vision.hover', { r: cell.row, c: cell.col, value: m.fixed(cell.value, 3) })
  : pointerHint(m, 'vision.hoverHint'));

const lowest = (values) => values.reduce((a, v) => Math.min(a, v), Infinity);

/** The main map; onSelect(cell) when a patch is clicked or chosen by the keys. */
export function mainMap(m, onSelect) {
  const keys = h('span', { id: 'vision-keys', class: 'sr-only' }, m.t('vision.keys'));
  const canvas = h('canvas', { class: 'heatmap', 'aria-describedby': keys.id });
  // The second patch: a dashed frame drawn over the map (one cell = one unit of the viewBox).
  const secondMark = s('rect', { class: 'vision-second-outer', width: 1, height: 1, 'vector-effect': 'non-scaling-stroke' });
  const secondInner = s('rect', { class: 'vision-second', width: 1, height: 1, 'vector-effect': 'non-scaling-stroke' });
  const overlay = s('svg', { class: 'vision-overlay', 'aria-hidden': 'true', preserveAspectRatio: 'none' }, secondMark, secondInner);
  const hover = h('p', { class: 'hover-readout', 'aria-live': 'polite' }, hoverText(m, null));
  const caption = h('figcaption', { class: 'vision-caption' });
  const legendEl = h('div', { class: 'legend' });
  legend(legendEl, 1);
  // Captions under the maps, so the two maps line up at the top.
  const el = h('figure', { class: 'vision-fig vision-main' },
    h('div', { class: 'heatmap-frame' },
      h('span', { class: 'axis axis-x' }, m.t('vision.axisCols')),
      h('span', { class: 'axis axis-y' }, m.t('vision.axisRows')),
      h('div', { class: 'vision-map' }, canvas, overlay), keys),
    caption,
    legendEl,
    h('p', { class: 'vision-marks' }, m.t('vision.marks')),
    hover);
  const heatmap = new Heatmap(canvas, {
    limit: 1,
    onCell: (cell) => { hover.textContent = hoverText(m, cell); },
    onSelect,
  });

  return {
    el,
    /** The similarities to patch (r, c) of an n × n grid. */
    draw(sims, n, r, c) {
      heatmap.selected = { row: r, col: c };  // draw() places its outline (and drops one outside a new grid)
      heatmap.draw(Float32Array.from(sims), n, n);
      overlay.setAttribute('viewBox', `0 0 ${n} ${n}`);
    },
    /** Frames the second patch. */
    second(r2, c2) {
      for (const mark of [secondMark, secondInner]) {
        mark.setAttribute('x', String(c2));
        mark.setAttribute('y', String(r2));
      }
    },
    /** The map's description for screen readers, and its caption. */
    describe(label, text) {
      canvas.setAttribute('aria-label', label);
      caption.textContent = text;
    },
  };
}

/** The side map, drawn from the model's tables. */
export function sideMap(m, model) {
  const canvas = h('canvas', { class: 'heatmap', 'aria-describedby': 'vision-side-keys' });
  const hover = h('p', { class: 'hover-readout', 'aria-live': 'polite' }, hoverText(m, null));
  const caption = h('figcaption', { class: 'vision-caption' });
  const el = h('figure', { class: 'vision-fig vision-side' },
    h('div', { class: 'heatmap-frame' },
      h('span', { class: 'axis axis-x' }, m.t('vision.axisCols')),
      h('span', { class: 'axis axis-y' }, m.t('vision.axisRows')),
      h('div', { class: 'vision-map' }, canvas),
      h('span', { id: 'vision-side-keys', class: 'sr-only' }, m.t('vision.sideKeys'))),
    caption,
    hover);
  const map = new Heatmap(canvas, {
    limit: 1,
    onCell: (cell) => { hover.textContent = hoverText(m, cell); },
  });
  let flatSims = null;

  return {
    el,
    /** The learned table as trained (train × train), from its cell (tr, tc); n is the grid shown. */
    drawTrained(train, tr, tc, n) {
      const sims = model.trainedSims(train, tr, tc);
      map.selected = { row: tr, col: tc };
      map.draw(Float32Array.from(sims), train, train);
      caption.textContent = m.t('vision.trainedCaption', { t: train, r: tr, c: tc });
      canvas.setAttribute('aria-label', m.t('vision.trainedAlt', { t: train, r: tr, c: tc, n, min: m.fixed(lowest(sims), 3) }));
    },
    /** Patch numbers p = r·n + c in a 1-D sinusoidal encoding, from the chosen patch. */
    drawFlat(n, base, r, c) {
      flatSims = model.flatSims(n, base, r, c);
      map.selected = { row: r, col: c };
      map.draw(Float32Array.from(flatSims), n, n);
      caption.textContent = m.t('vision.flatCaption', { n, d: D, base: m.fixed(base, 0) });
    },
    /** drawFlat's description, which also names the second patch's value. */
    describeFlat(n, base, r, c, r2, c2) {
      canvas.setAttribute('aria-label', m.t('vision.flatAlt', {
        n, p: r * n + c, r, c, base: m.fixed(base, 0), r2, c2, p2: r2 * n + c2, sim: m.fixed(flatSims[r2 * n + c2], 3),
        min: m.fixed(lowest(flatSims), 3),
      }));
    },
  };
}
