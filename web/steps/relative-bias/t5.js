// Step "relative-bias", the T5 panel: log-spaced buckets of key − query, one learned scalar each
// (model.js); the bucket map, its staircase against distance, and the trained biases.
import { h } from '../../kit/dom.js';
import { button, paramSlider, toggle } from '../../kit/controls.js';
import { colourBar, legendLabels } from '../../kit/colourbar.js';
import { signed } from '../../kit/format.js';
import { Heatmap } from '../../kit/heatmap.js';
import { pointerHint } from '../../kit/pointer.js';
import { LinePlot } from '../../kit/lineplot.js';
import { math, mfrac, mi, mn, mo, mrow, msub, mtext } from '../../kit/math.js';
import { divergingCss } from '../../kit/palette.js';
import { readout } from '../../kit/readout.js';
import { trainedBiasPanel } from '../../train/trained-panels.js';
import { fence, mspace, sub } from './shared.js';
import { T5_PRESET } from './model.js';

const id = 'relative-bias';

export function t5Panel({ core, model, m, params, values, set, t, train }) {
  const controls = {
    len: paramSlider(params, 'len', { label: t('t5.len'), values, onInput: (v) => set({ len: v }) }),
    nb: paramSlider(params, 'nb', { label: t('t5.nb'), values, onInput: (v) => set({ nb: v }) }),
    maxd: paramSlider(params, 'maxd', { label: t('t5.maxd'), values, onInput: (v) => set({ maxd: v }) }),
    bidir: toggle({ name: 'bidir', label: t('t5.bidir'), checked: values.bidir, onChange: (v) => set({ bidir: v }) }),
    ti: paramSlider(params, 'ti', { label: t('t5.i'), values, onInput: (v) => set({ ti: v }) }),
    tj: paramSlider(params, 'tj', { label: t('t5.j'), values, onInput: (v) => set({ tj: v }) }),
    trained: toggle({ name: 'trained', label: t('t5.trainedToggle'), checked: values.trained, onChange: (v) => set({ trained: v }) }),
  };
  const trained = trainedBiasPanel({ m, core, platform: train, stepId: id });
  const preset = button({ name: 'preset', label: t('t5.preset'), onClick: () => set({ ...T5_PRESET }) });
  const out = {
    bucket: readout('t5-bucket', t('t5.bucket')),
    offset: readout('t5-offset', t('t5.offset')),
    region: readout('t5-region', t('t5.region')),
    range: readout('t5-range', t('t5.range')),
    used: readout('t5-used', t('t5.used')),
  };
  const formula = h('div', { class: 'formula rb-formula rb-t5-formula' });
  const now = h('div', { class: 'formula rb-formula rb-t5-now' });
  const keys = h('span', { id: `${id}-t5-keys`, class: 'sr-only' }, t('t5.hoverHint'));
  const canvas = h('canvas', { class: 'heatmap rb-heatmap', 'aria-describedby': keys.id });
  // The visible hint says "tap" on a touch screen; the map's description keeps the keys.
  const hint = pointerHint(m, 'relative-bias.t5.hoverHint');
  const hover = h('p', { class: 'hover-readout', 'aria-live': 'polite' }, hint);
  const legendEl = h('div', { class: 'legend rb-t5-legend' });
  const legendCaption = h('p', { class: 'rb-legend-caption' });
  const heatmap = new Heatmap(canvas, {
    onCell: (c) => {
      hover.textContent = c ? t('t5.hover', { i: c.row, j: c.col, offset: signed(c.col - c.row), bucket: state.bucketAt(c.col - c.row) }) : hint;
    },
    onSelect: (c) => set({ ti: c.row, tj: c.col }),
  });
  const mapFig = h('figure', { class: 'rb-fig rb-t5-map' },
    h('figcaption', {}, t('t5.mapCaption')),
    h('div', { class: 'heatmap-frame' },
      h('span', { class: 'axis axis-x' }, t('axisKey')),
      h('span', { class: 'axis axis-y' }, t('axisQuery')),
      canvas, keys),
    legendEl, legendCaption, hover);
  const plotFig = h('figure', { class: 'rb-fig rb-t5-plot' }, h('figcaption', {}, t('t5.plotCaption')));
  const plot = new LinePlot(plotFig, {
    xLabel: t('t5.plotX'), yLabel: t('t5.plotY'), label: '', format: (v) => String(v),
    cursorY: (v) => String(v), keysHint: m.t('page.plotKeys'),
  });
  // The staircase (buckets one distance wide, then ever wider, then one for all the rest), then
  // the trained biases' switch over the panel it opens. The bucket's formula, worked with the
  // current numbers, the bucket of every pair as a map, and the note: depth.
  const figure = h('div', { class: 'rb-method rb-t5' }, h('div', { class: 'rb-figs rb-stack' }, plotFig),
    h('div', { class: 'controls rb-trained' }, controls.trained.el), trained.el);
  const deeper = [formula, now, h('div', { class: 'rb-figs rb-stack' }, mapFig), h('p', { class: 'rb-panel-note' }, t('t5.note'))];

  // The buckets of the current settings (model.js); the map and its legend drawn again when they change.
  let state = null;
  function compute() {
    const s = model.t5Buckets(values);
    if (s === state) return state;
    state = s;
    heatmap.limit = s.side - 1;
    heatmap.draw(s.cells, values.len, values.len);
    drawLegend(s.side);
    return state;
  }

  // Bucket numbers in order along the bar, each in the colour the map gives it.
  function drawLegend(side) {
    const { nb, bidir } = values;
    const bar = colourBar(nb, (b) => divergingCss(bidir && b >= side ? b - side : -b, side - 1));
    legendEl.replaceChildren(bar, legendLabels(['0', String(nb / 2), String(nb - 1)]));
    legendCaption.textContent = t(bidir ? 't5.legendBidir' : 't5.legendCausal', { before: side - 1, side, last: nb - 1 });
  }

  function render() {
    const { len, nb, maxd, bidir, ti, tj } = values;
    // The selection goes in before a redraw of the map, which places its outline (kit/heatmap.js).
    const redraw = state?.key !== `${len}/${nb}/${maxd}/${bidir}`;
    if (redraw) heatmap.selected = { row: ti, col: tj };
    const s = compute();
    const p = model.t5(values);
    const { rp, bucket, side, exact, after, n } = p;
    if (!redraw) heatmap.select({ row: ti, col: tj });
    canvas.setAttribute('aria-label', t('t5.mapAlt', {
      len, nb, maxd, mode: t(bidir ? 't5.modeBidir' : 't5.modeCausal'), i: ti, j: tj, bucket, used: s.used,
    }));

    formula.replaceChildren(...t5Formula(t));
    const shown = (x) => mn(String(x));
    const logParts = [mi('min'), mo('\u2061'), fence(shown(side - 1), mo(','), shown(exact), mo('+'), mo('⌊'),
      mfrac(mrow(mi('ln'), mo('\u2061'), fence(shown(n), mo('/'), shown(exact))), mrow(mi('ln'), mo('\u2061'), fence(shown(maxd), mo('/'), shown(exact)))),
      mo('·'), shown(side - exact), mo('⌋'))];
    // The condition, then the branch it picks: two pieces that wrap on a phone.
    const branch = math('', mo('⇒'), ...(after ? [shown(side), mo('+')] : []), ...(n < exact ? [shown(n)] : logParts), mo('='), shown(bucket));
    branch.removeAttribute('aria-label');
    branch.setAttribute('aria-hidden', 'true');
    now.replaceChildren(math(t('t5.formulaNowLabel', { n, bucket }),
      mi('n'), mo('='), shown(n), mo(n < exact ? '<' : '≥'), sub('n', mtext('exact')), mo('='), shown(exact)), branch);

    // Where the current bucket starts and ends (distances on the same side).
    const { from, to } = p.range;
    const range = { future: () => t('t5.rangeFuture'), open: () => t('t5.rangeOpen', { from }),
      span: () => (from === to ? String(from) : t('t5.rangeSpan', { from, to })) }[p.range.kind]();
    const region = `region${p.region[0].toUpperCase()}${p.region.slice(1)}`;
    const { distances: xs, before, later } = p;
    plot.draw({
      xDomain: [0, len - 1], yDomain: [0, nb],
      vlines: [
        { x: exact, cls: 'c', label: t('t5.plotExact') },
        ...(maxd <= len - 1 ? [{ x: maxd, cls: 'n', label: t('t5.plotMaxd') }] : []),
      ],
      series: [
        // Dots up to 128 distances; beyond, they would merge into a line and cost time for nothing.
        { x: xs, y: before, cls: 'a', points: len <= 128, cursor: true, label: t('t5.plotBefore') },
        { x: xs, y: later, cls: 'b', label: t(bidir ? 't5.plotAfter' : 't5.plotAfterCausal') },
      ],
      markers: [{ x: Math.abs(rp), y: bucket, cls: rp > 0 ? 'b' : 'a' }],
    });
    plot.svg.setAttribute('aria-label', t('t5.plotAlt', {
      len, exact, last: side - 1, from: p.lastFrom < 0 ? t('t5.never') : String(p.lastFrom), mode: t(bidir ? 't5.modeBidir' : 't5.modeCausal'),
    }));

    out.bucket.set(String(bucket), bucket);
    out.offset.set(signed(rp), rp);
    out.region.set(t(`t5.${region}`));
    out.range.set(range);
    out.used.set(t('t5.usedOf', { used: s.used, nb }), s.used);
    for (const [name, c] of Object.entries(controls)) c.set(values[name]);
    trained.show(values.trained);
  }

  /** The CSV: every offset the map covers and its bucket. */
  const tables = () => {
    const st = model.t5Buckets(values);
    return [{
      name: 't5-buckets', label: t('csv.t5'),
      header: ['key_minus_query', 'bucket'],
      rows: Array.from(st.rel, (r, n) => [r, st.buckets[n]]),
    }];
  };
  const { trained: _, ...shown } = controls;  // the trained biases' switch sits in the figure
  return { controls: [...Object.values(shown).map((c) => c.el), preset], readouts: Object.values(out), figure, deeper, render, tables };
}

// The T5 formula, per direction: N buckets, the first N/2 one distance each, then log-spaced.
// Four short lines (the two cases, the log branch's value b(n), its share r(n)) that sit side by
// side where there is room and stack on a phone: the cases as one brace were 477 px wide at 375.
// The first line's label speaks the whole formula; the others are hidden from screen readers.
function t5Formula(t) {
  const N = () => mi('N');
  const half = () => msub(mi('n'), mtext('exact'));
  const of = (name) => mrow(mi(name), mo('\u2061'), fence(mi('n')));
  const hidden = (el) => {
    el.removeAttribute('aria-label');
    el.setAttribute('aria-hidden', 'true');
    return el;
  };
  return [
    math(t('t5.formulaLabel'), of('bucket'), mo('='), mi('n'), mo(','), mspace(), mtext(t('t5.if')), mspace(), mi('n'), mo('<'), half()),
    hidden(math('', of('bucket'), mo('='), mi('min'), mo('\u2061'), fence(N(), mo('−'), mn('1'), mo(','), of('b')), mo(','), mspace(), mtext(t('t5.otherwise')))),
    hidden(math('', of('b'), mo('='), half(), mo('+'), mo('⌊'), of('r'), mo('·'), fence(N(), mo('−'), half()), mo('⌋'))),
    hidden(math('', of('r'), mo('='), mfrac(mrow(mi('ln'), mo('\u2061'), fence(mi('n'), mo('/'), half())), mrow(mi('ln'), mo('\u2061'), fence(mi('D'), mo('/'), half()))))),
  ];
}
