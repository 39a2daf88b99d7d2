// Step "relative-bias", the Shaw et al. (2018) panel: clip(j − i, −k, k) indexes 2k + 1 learned
// vectors (model.js); the index map, the query's row of indices and the table of vectors.
import { h } from '../../kit/dom.js';
import { paramSlider } from '../../kit/controls.js';
import { signed } from '../../kit/format.js';
import { Heatmap, legend } from '../../kit/heatmap.js';
import { pointerHint } from '../../kit/pointer.js';
import { math, mi, mn, mo, mrow, mtext } from '../../kit/math.js';
import { readout } from '../../kit/readout.js';
import { subscript } from '../../kit/scripts.js';
import { fence, mspace, sub } from './shared.js';
import { SHAW_LEN } from './model.js';

const id = 'relative-bias';

export function shawPanel({ model, m, params, values, set, t }) {
  const controls = {
    k: paramSlider(params, 'k', { label: t('shaw.k'), values, onInput: (v) => set({ k: v }) }),
    i: paramSlider(params, 'i', { label: t('shaw.i'), values, onInput: (v) => set({ i: v }) }),
    j: paramSlider(params, 'j', { label: t('shaw.j'), values, onInput: (v) => set({ j: v }) }),
  };
  const out = {
    index: readout('shaw-index', t('shaw.index')),
    clipped: readout('shaw-clipped', t('shaw.clipped')),
    distance: readout('shaw-distance', t('shaw.distance')),
    rows: readout('shaw-rows', t('shaw.rows')),
  };
  const formula = h('div', { class: 'formula rb-formula' });
  const keys = h('span', { id: `${id}-shaw-keys`, class: 'sr-only' }, t('shaw.hoverHint'));
  const canvas = h('canvas', { class: 'heatmap rb-heatmap', 'aria-describedby': keys.id });
  // The visible hint says "tap" on a touch screen; the map's description keeps the keys.
  const hint = pointerHint(m, 'relative-bias.shaw.hoverHint');
  const hover = h('p', { class: 'hover-readout', 'aria-live': 'polite' }, hint);
  const legendEl = h('div', { class: 'legend' });
  const legendCaption = h('p', { class: 'rb-legend-caption' }, t('shaw.legend'));
  let index = null;
  const heatmap = new Heatmap(canvas, {
    onCell: (c) => {
      hover.textContent = c ? t('shaw.hover', { i: c.row, j: c.col, index: index[c.row * SHAW_LEN + c.col], clipped: signed(c.value) }) : hint;
    },
    onSelect: (c) => set({ i: c.row, j: c.col }),
  });
  const rowList = h('ol', { class: 'rb-chips rb-row', 'aria-label': '' });
  const tableList = h('ol', { class: 'rb-chips rb-table' });
  const rowHeading = h('p', { class: 'rb-chips-heading' });
  const tableHeading = h('p', { class: 'rb-chips-heading' });
  const figure = h('div', { class: 'rb-method rb-shaw' },
    formula,
    h('div', { class: 'rb-figs' },
      h('figure', { class: 'rb-fig rb-shaw-map' },
        h('figcaption', {}, t('shaw.mapCaption', { n: SHAW_LEN })),
        h('div', { class: 'heatmap-frame' },
          h('span', { class: 'axis axis-x' }, t('axisKey')),
          h('span', { class: 'axis axis-y' }, t('axisQuery')),
          canvas, keys),
        legendEl, legendCaption, hover),
      h('div', { class: 'rb-fig rb-shaw-lists' }, rowHeading, rowList, tableHeading, tableList)));
  const deeper = [h('p', { class: 'rb-panel-note' }, t('shaw.note'))];

  let drawnK = null;  // the k the map shows
  function render() {
    const { k, i, j } = values;
    const s = model.shaw(values);
    index = s.index;   // clip(j − i, −k, k) + k
    // Only k changes the map; a move of i or j only moves its outline (kit/heatmap.js).
    if (k !== drawnK) {
      heatmap.limit = Math.max(k, 1);
      heatmap.selected = { row: i, col: j };
      heatmap.draw(s.clipped, SHAW_LEN, SHAW_LEN);
      drawnK = k;
    } else {
      heatmap.select({ row: i, col: j });
    }
    legend(legendEl, Math.max(k, 1));
    const { at, size } = s;
    canvas.setAttribute('aria-label', t('shaw.mapAlt', {
      n: SHAW_LEN, k, i, j, index: at, size,
    }));

    formula.replaceChildren(
      math(t('shaw.formulaLabel'),
        sub('a', mrow(mi('i'), mi('j'))), mo('='), sub('w', mrow(mi('clip'), mo('\u2061'), fence(mi('j'), mo('−'), mi('i'), mo(','), mo('−'), mi('k'), mo(','), mi('k')))),
        mo(','), mspace(), mi('k'), mo('='), mn(String(k))),
      math(t('shaw.formulaNowLabel', { i, j, k, clipped: signed(at - k), index: at }),
        mi('clip'), mo('\u2061'), fence(mn(String(j)), mo('−'), mn(String(i)), mo(','), mo('−'), mn(String(k)), mo(','), mn(String(k))),
        mo('='), mn(signed(at - k)), mo('→'), mtext(t('shaw.rowOf', { index: at, size }))));

    rowHeading.textContent = t('shaw.rowHeading', { i });
    rowList.setAttribute('aria-label', t('shaw.rowHeading', { i }));
    rowList.replaceChildren(...Array.from({ length: SHAW_LEN }, (_, c) => h('li', { class: `rb-chip${c === j ? ' current' : ''}` },
      h('span', { class: 'rb-chip-top' }, `j ${c}`), h('span', { class: 'rb-chip-value' }, String(s.row[c])))));
    tableHeading.textContent = t('shaw.tableHeading', { size, k });
    tableList.setAttribute('aria-label', t('shaw.tableHeading', { size, k }));
    tableList.replaceChildren(...Array.from({ length: size }, (_, r) => h('li', { class: `rb-chip${r === at ? ' current' : ''}` },
      h('span', { class: 'rb-chip-top' }, String(r)), h('span', { class: 'rb-chip-value' }, `w${subscript(r - k)}`))));

    out.index.set(String(at), at);
    out.clipped.set(signed(s.clippedAt), s.clippedAt);
    out.distance.set(signed(s.distance), s.distance);
    out.rows.set(String(size), size);
    controls.k.set(k);
    controls.i.set(i);
    controls.j.set(j);
  }
  /** The CSV of the clip index table. */
  const tables = () => {
    const table = model.shaw(values).index;
    return [{
      name: 'shaw-index', label: t('csv.shaw'),
      header: ['i\\j', ...Array.from({ length: SHAW_LEN }, (_, c) => c)],
      rows: Array.from({ length: SHAW_LEN }, (_, r) => [r, ...table.subarray(r * SHAW_LEN, (r + 1) * SHAW_LEN)]),
    }];
  };
  return { controls: Object.values(controls).map((c) => c.el), readouts: Object.values(out), figure, deeper, render, tables };
}
