// Step: relative position as a learned term of the attention score. Three schemes behind three
// tabs (URL: method=shaw|xl|t5), each with its own controls, figures and readouts:
//   Shaw et al. 2018   clip(j − i, −k, k) indexes 2k + 1 learned vectors: core.shawIndex
//   Transformer-XL     the score's four terms for seeded example vectors: core.transformerXlTerms/Row
//   T5                 log-spaced buckets of key − query, one learned scalar each: core.t5Bucket
// The cost note (per-head tables, work per score, the KV cache) sits in the notes under all three.
//
// Only the current scheme's controls, figure and readouts are in the document: the page-wide
// tests operate every control and focus every plot they find. All three figures are built at
// mount, so the page's Save PNG buttons are added to each; the two others are taken out right
// after (a microtask: app.js adds the buttons synchronously after mount() returns).
import { h, mm, s } from '../kit/dom.js';
import { Heatmap, legend } from '../kit/heatmap.js';
import { LinePlot } from '../kit/lineplot.js';
import { math, mfrac, mi, mn, mo, mrow, msub, mtext } from '../kit/math.js';
import { button, slider, toggle } from '../kit/controls.js';
import { divergingCss } from '../kit/palette.js';
import { readout, readoutRow } from '../kit/readout.js';
import { paragraphs, stepFrame } from '../kit/step.js';
import { trainedBiasPanel } from '../train/trained-panels.js';

export const id = 'relative-bias';
const METHODS = ['shaw', 'xl', 't5'];
const SHAW_LEN = 16;
const XL_LEN = 24;
const XL_DIM = 16;
const XL_BASE = 10000;
const T5_LEN = { min: 16, max: 512, step: 16 };
const T5_PRESET = { nb: 32, maxd: 128, bidir: true };

export const params = {
  method: { type: 'enum', values: METHODS, default: 'shaw' },
  k: { type: 'int', min: 0, max: SHAW_LEN - 1, default: 3 },
  i: { type: 'int', min: 0, max: SHAW_LEN - 1, default: 9 },
  j: { type: 'int', min: 0, max: SHAW_LEN - 1, default: 4 },
  xi: { type: 'int', min: 0, max: XL_LEN - 1, default: 12 },
  xj: { type: 'int', min: 0, max: XL_LEN - 1, default: 7 },
  seed: { type: 'int', min: 0, max: 99, default: 0 },
  len: { type: 'int', min: T5_LEN.min, max: T5_LEN.max, default: 128 },
  nb: { type: 'int', min: 4, max: 128, default: 32 },
  maxd: { type: 'int', min: 2, max: 1024, default: 128 },
  bidir: { type: 'bool', default: true },
  ti: { type: 'int', min: 0, max: T5_LEN.max - 1, default: 60 },
  tj: { type: 'int', min: 0, max: T5_LEN.max - 1, default: 40 },
  // The train step's trained T5 biases beside the buckets (their data loads when switched on).
  trained: { type: 'bool', default: false },
};

// T5's buckets per direction and how many of them are exact (one distance each).
const perSide = (nb, bidir) => (bidir ? nb / 2 : nb);
const exactCount = (nb, bidir) => Math.floor(perSide(nb, bidir) / 2);

/** The T5 values made consistent: len on its 16 grid, nb even, maxd above the exact range, the
 * pair inside the sequence (the core rejects maxd <= exact: its log would be 0 or negative). */
function t5Consistent(v) {
  const len = Math.min(T5_LEN.max, Math.max(T5_LEN.min, Math.round(v.len / T5_LEN.step) * T5_LEN.step));
  const nb = Math.max(4, 2 * Math.round(v.nb / 2));
  const maxd = Math.max(v.maxd, exactCount(nb, v.bidir) + 1);
  return { len, nb, maxd, ti: Math.min(v.ti, len - 1), tj: Math.min(v.tj, len - 1) };
}

const sub = (base, index) => msub(mi(base), index);
const fence = (...c) => mrow(mo('('), ...c, mo(')'));

export function mount(root, { core, m, values, setter, index, total, train }) {
  const slots = stepFrame(root, m, { id, index, total });
  Object.assign(values, t5Consistent(values));
  const t = (key, vars) => m.t(`relative-bias.${key}`, vars);
  const f2 = (v) => m.fixed(v, 2);
  const signed = (v) => (v < 0 ? `−${-v}` : String(v));

  // [TABS] ---------------------------------------------------------------------------------------
  const workbench = root.querySelector('.workbench');
  workbench.id = `${id}-panel`;
  workbench.setAttribute('role', 'tabpanel');
  const tabs = new Map(METHODS.map((name) => [name, h('button', {
    type: 'button', role: 'tab', id: `${id}-tab-${name}`, class: 'rb-tab', 'data-method': name,
    'aria-controls': workbench.id, onClick: () => set({ method: name }),
  }, h('span', { class: 'rb-tab-name' }, t(`tab.${name}`)), h('span', { class: 'rb-tab-year' }, t(`tab.${name}Year`)))]));
  const tablist = h('div', { role: 'tablist', class: 'rb-tabs', 'aria-label': t('tabsLabel') }, [...tabs.values()]);
  tablist.addEventListener('keydown', (e) => {
    const at = METHODS.indexOf(values.method);
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: METHODS.length - 1 }[e.key];
    if (to === undefined || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    const name = METHODS[(to + METHODS.length) % METHODS.length];
    set({ method: name });
    tabs.get(name).focus();
  });
  workbench.before(tablist);

  const readoutsRow = readoutRow();
  slots.readouts.append(readoutsRow);

  const panels = { shaw: shawPanel(), xl: xlPanel(), t5: t5Panel() };

  // [SHAW] ---------------------------------------------------------------------------------------
  function shawPanel() {
    const controls = {
      k: slider({ name: 'k', label: t('shaw.k'), min: 0, max: SHAW_LEN - 1, value: values.k, onInput: (v) => set({ k: v }) }),
      i: slider({ name: 'i', label: t('shaw.i'), min: 0, max: SHAW_LEN - 1, value: values.i, onInput: (v) => set({ i: v }) }),
      j: slider({ name: 'j', label: t('shaw.j'), min: 0, max: SHAW_LEN - 1, value: values.j, onInput: (v) => set({ j: v }) }),
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
    const hover = h('p', { class: 'hover-readout', 'aria-live': 'polite' }, t('shaw.hoverHint'));
    const legendEl = h('div', { class: 'legend' });
    const legendCaption = h('p', { class: 'rb-legend-caption' }, t('shaw.legend'));
    let index = null;
    const heatmap = new Heatmap(canvas, {
      onCell: (c) => {
        hover.textContent = c ? t('shaw.hover', { i: c.row, j: c.col, index: index[c.row * SHAW_LEN + c.col], clipped: signed(c.value) }) : t('shaw.hoverHint');
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
        h('div', { class: 'rb-fig rb-shaw-lists' }, rowHeading, rowList, tableHeading, tableList)),
      h('p', { class: 'rb-panel-note' }, t('shaw.note')));

    function render() {
      const { k, i, j } = values;
      index = core.shawIndex(SHAW_LEN, SHAW_LEN, k);   // clip(j − i, −k, k) + k
      const clipped = Float32Array.from(index, (x) => x - k);
      heatmap.limit = Math.max(k, 1);
      heatmap.selected = { row: i, col: j };
      heatmap.draw(clipped, SHAW_LEN, SHAW_LEN);
      legend(legendEl, Math.max(k, 1));
      const at = index[i * SHAW_LEN + j];
      const size = 2 * k + 1;
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
        h('span', { class: 'rb-chip-top' }, `j ${c}`), h('span', { class: 'rb-chip-value' }, String(index[i * SHAW_LEN + c])))));
      tableHeading.textContent = t('shaw.tableHeading', { size, k });
      tableList.setAttribute('aria-label', t('shaw.tableHeading', { size, k }));
      tableList.replaceChildren(...Array.from({ length: size }, (_, r) => h('li', { class: `rb-chip${r === at ? ' current' : ''}` },
        h('span', { class: 'rb-chip-top' }, String(r)), h('span', { class: 'rb-chip-value' }, `w${subscript(r - k)}`))));

      out.index.set(String(at), at);
      out.clipped.set(signed(at - k), at - k);
      out.distance.set(signed(j - i), j - i);
      out.rows.set(String(size), size);
      controls.k.set(k);
      controls.i.set(i);
      controls.j.set(j);
    }
    return { controls: Object.values(controls).map((c) => c.el), readouts: Object.values(out), figure, render };
  }

  // [TRANSFORMER-XL] -------------------------------------------------------------------------------
  function xlPanel() {
    const controls = {
      xi: slider({ name: 'xi', label: t('xl.i'), min: 0, max: XL_LEN - 1, value: values.xi, onInput: (v) => set({ xi: v }) }),
      xj: slider({ name: 'xj', label: t('xl.j'), min: 0, max: XL_LEN - 1, value: values.xj, onInput: (v) => set({ xj: v }) }),
      seed: slider({ name: 'seed', label: t('xl.seed'), min: 0, max: 99, value: values.seed, onInput: (v) => set({ seed: v }) }),
    };
    const TERMS = ['a', 'b', 'c', 'd'];
    const out = {
      a: readout('xl-a', t('xl.termA')),
      b: readout('xl-b', t('xl.termB')),
      c: readout('xl-c', t('xl.termC')),
      d: readout('xl-d', t('xl.termD')),
      score: readout('xl-score', t('xl.score')),
      distance: readout('xl-distance', t('xl.distance')),
    };
    const formula = h('div', { class: 'formula rb-formula rb-xl-formula' });
    const now = h('div', { class: 'formula rb-formula rb-xl-now' });

    const barsFig = h('figure', { class: 'rb-fig rb-xl-bars' }, h('figcaption', {}, t('xl.barsCaption')));
    const waterfall = new Waterfall(barsFig, { format: f2 });
    const plotFig = h('figure', { class: 'rb-fig rb-xl-plot' }, h('figcaption', {}, t('xl.plotCaption', { last: XL_LEN - 1 })));
    const plot = new LinePlot(plotFig, {
      xLabel: t('xl.plotX'), yLabel: t('xl.plotY'), label: '', format: (v) => m.fixed(v, Number.isInteger(v) ? 0 : 1),
      cursorY: f2, keysHint: m.t('page.plotKeys'),
    });
    const figure = h('div', { class: 'rb-method rb-xl' }, formula, now, h('div', { class: 'rb-figs rb-stack' }, barsFig, plotFig),
      h('p', { class: 'rb-panel-note' }, t('xl.note', { d: XL_DIM, base: XL_BASE })));

    const letter = (x) => mtext(`(${x})`);
    // Two halves that share a line on wide screens and wrap on a phone; the first one's label
    // speaks the whole formula, the second half is hidden from screen readers.
    const second = math('', mo('+'),
      mrow(mi('u'), mo('·'), sub('k', mi('j'))), letter('c'), mo('+'),
      mrow(mi('v'), mo('·'), sub('W', mi('R')), sub('R', mrow(mi('i'), mo('−'), mi('j')))), letter('d'));
    second.removeAttribute('aria-label');
    second.setAttribute('aria-hidden', 'true');
    formula.append(math(t('xl.formulaLabel'),
      sub('A', mrow(mi('i'), mo(','), mi('j'))), mo('='),
      mrow(sub('q', mi('i')), mo('·'), sub('k', mi('j'))), letter('a'), mo('+'),
      mrow(sub('q', mi('i')), mo('·'), sub('W', mi('R')), sub('R', mrow(mi('i'), mo('−'), mi('j')))), letter('b')), second);

    function render() {
      const { xi, xj, seed } = values;
      const opts = { seed, base: XL_BASE };
      const one = core.transformerXlTerms(xi, xj, XL_DIM, opts);
      const terms = [one.contentContent, one.contentPosition, one.globalContent, one.globalPosition];
      const row = core.transformerXlRow(xi, XL_LEN, XL_DIM, opts);  // [(a), (b), (c), (d)] per key

      now.replaceChildren(math(t('xl.formulaNowLabel', { i: xi, j: xj, score: f2(one.score) }),
        sub('A', mrow(mn(String(xi)), mo(','), mn(String(xj)))), mo('='),
        ...terms.flatMap((v, n) => [...(n ? [mo('+')] : []), v < 0 ? fence(mn(f2(v))) : mn(f2(v))]),
        mo('='), mn(f2(one.score))));

      waterfall.draw({
        rows: TERMS.map((name, n) => ({ label: t(`xl.short${name.toUpperCase()}`), value: terms[n], cls: `t${name}` })),
        total: { label: t('xl.shortScore'), value: one.score, cls: 'tsum' },
      });
      waterfall.svg.setAttribute('aria-label', t('xl.barsAlt', {
        i: xi, j: xj, a: f2(terms[0]), b: f2(terms[1]), c: f2(terms[2]), d: f2(terms[3]), score: f2(one.score),
      }));

      const x = Float64Array.from({ length: XL_LEN }, (_, c) => c);
      const column = (n) => Float64Array.from({ length: XL_LEN }, (_, c) => row[4 * c + n]);
      const sum = Float64Array.from({ length: XL_LEN }, (_, c) => row[4 * c] + row[4 * c + 1] + row[4 * c + 2] + row[4 * c + 3]);
      const all = [...row, ...sum];
      const lo = Math.floor(Math.min(...all) * 2) / 2 - 0.5;
      const hi = Math.ceil(Math.max(...all) * 2) / 2 + 0.5;
      plot.draw({
        xDomain: [0, XL_LEN - 1], yDomain: [lo, hi],
        vlines: [{ x: xi, cls: 'n', label: t('xl.plotDiagonal') }],
        series: [
          { x, y: sum, cls: 'a', points: true, label: t('xl.shortScore') },
          ...TERMS.map((name, n) => ({ x, y: column(n), cls: `t${name}`, label: t(`xl.short${name.toUpperCase()}`) })),
        ],
        markers: [{ x: xj, y: sum[xj], cls: 'a' }],
      });
      plot.svg.setAttribute('aria-label', t('xl.plotAlt', { last: XL_LEN - 1, i: xi, j: xj, score: f2(sum[xj]), lo: f2(Math.min(...sum)), hi: f2(Math.max(...sum)) }));

      TERMS.forEach((name, n) => out[name].set(f2(terms[n]), terms[n]));
      out.score.set(f2(one.score), one.score);
      out.distance.set(signed(xi - xj), xi - xj);
      controls.xi.set(xi);
      controls.xj.set(xj);
      controls.seed.set(seed);
    }
    return { controls: Object.values(controls).map((c) => c.el), readouts: Object.values(out), figure, render };
  }

  // [T5] -------------------------------------------------------------------------------------------
  function t5Panel() {
    const controls = {
      len: slider({ name: 'len', label: t('t5.len'), min: T5_LEN.min, max: T5_LEN.max, step: T5_LEN.step, value: values.len, onInput: (v) => setT5({ len: v }) }),
      nb: slider({ name: 'nb', label: t('t5.nb'), min: 4, max: 128, step: 2, value: values.nb, onInput: (v) => setT5({ nb: v }) }),
      maxd: slider({ name: 'maxd', label: t('t5.maxd'), min: 2, max: 1024, value: values.maxd, onInput: (v) => setT5({ maxd: v }) }),
      bidir: toggle({ name: 'bidir', label: t('t5.bidir'), checked: values.bidir, onChange: (v) => setT5({ bidir: v }) }),
      ti: slider({ name: 'ti', label: t('t5.i'), min: 0, max: values.len - 1, value: values.ti, onInput: (v) => setT5({ ti: v }) }),
      tj: slider({ name: 'tj', label: t('t5.j'), min: 0, max: values.len - 1, value: values.tj, onInput: (v) => setT5({ tj: v }) }),
      trained: toggle({ name: 'trained', label: t('t5.trainedToggle'), checked: values.trained, onChange: (v) => set({ trained: v }) }),
    };
    const trained = trainedBiasPanel({ m, core, platform: train, stepId: id });
    const preset = button({ name: 'preset', label: t('t5.preset'), onClick: () => setT5({ ...T5_PRESET }) });
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
    const hover = h('p', { class: 'hover-readout', 'aria-live': 'polite' }, t('t5.hoverHint'));
    const legendEl = h('div', { class: 'legend rb-t5-legend' });
    const legendCaption = h('p', { class: 'rb-legend-caption' });
    let state = null;  // what the core computed for the current len / nb / maxd / bidir
    const heatmap = new Heatmap(canvas, {
      onCell: (c) => {
        hover.textContent = c ? t('t5.hover', { i: c.row, j: c.col, offset: signed(c.col - c.row), bucket: state.bucketAt(c.col - c.row) }) : t('t5.hoverHint');
      },
      onSelect: (c) => setT5({ ti: c.row, tj: c.col }),
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
    const figure = h('div', { class: 'rb-method rb-t5' }, formula, now, h('div', { class: 'rb-figs rb-stack' }, mapFig, plotFig),
      h('p', { class: 'rb-panel-note' }, t('t5.note')), trained.el);

    function setT5(patch) {
      set({ ...patch, ...t5Consistent({ ...values, ...patch }) });
    }

    function compute() {
      const { len, nb, maxd, bidir } = values;
      const key = `${len}/${nb}/${maxd}/${bidir}`;
      if (state?.key === key) return state;
      // Offsets key − query from −reach to +reach: every pair of the sequence, and far enough
      // past maxd to see that the last bucket never ends.
      const reach = Math.max(len - 1, maxd + 1);
      const rel = Int32Array.from({ length: 2 * reach + 1 }, (_, n) => n - reach);
      const buckets = core.t5Bucket(rel, { bidirectional: bidir, numBuckets: nb, maxDistance: maxd });
      const bucketAt = (r) => buckets[r + reach];
      const side = perSide(nb, bidir);
      // Colour: the bucket within its direction, negative for keys before the query.
      const shade = Float32Array.from(rel, (r, n) => (bidir && r > 0 ? buckets[n] - side : -buckets[n]));
      const cells = new Float32Array(len * len);
      // Row q is the stretch of offsets −q .. len − 1 − q.
      for (let q = 0; q < len; q++) cells.set(shade.subarray(reach - q, reach - q + len), q * len);
      const used = new Set();
      for (let r = -(len - 1); r <= len - 1; r++) used.add(bucketAt(r));
      state = { key, reach, rel, buckets, bucketAt, side, cells, used: used.size };
      heatmap.limit = side - 1;
      heatmap.draw(cells, len, len);
      drawLegend(side);
      return state;
    }

    // Bucket numbers in order along the bar, each in the colour the map gives it.
    function drawLegend(side) {
      const { nb, bidir } = values;
      const bar = h('canvas', { class: 'legend-bar', 'aria-hidden': 'true', width: nb, height: 1 });
      const ctx = bar.getContext('2d');
      for (let b = 0; b < nb; b++) {
        ctx.fillStyle = divergingCss(bidir && b >= side ? b - side : -b, side - 1);
        ctx.fillRect(b, 0, 1, 1);
      }
      const labels = h('div', { class: 'legend-labels' }, h('span', {}, '0'), h('span', {}, String(nb / 2)), h('span', {}, String(nb - 1)));
      legendEl.replaceChildren(bar, labels);
      legendCaption.textContent = t(bidir ? 't5.legendBidir' : 't5.legendCausal', { before: side - 1, side, last: nb - 1 });
    }

    function render() {
      const { len, nb, maxd, bidir, ti, tj } = values;
      // The selection goes in before a redraw of the map, so a change of settings paints once.
      const redraw = state?.key !== `${len}/${nb}/${maxd}/${bidir}`;
      if (redraw) heatmap.selected = { row: ti, col: tj };
      const s = compute();
      const rp = tj - ti;
      const bucket = s.bucketAt(rp);
      const side = s.side;
      const exact = Math.floor(side / 2);
      const after = bidir && rp > 0;
      const n = bidir ? Math.abs(rp) : Math.max(-rp, 0);
      const inSide = after ? bucket - side : bucket;
      if (!redraw) heatmap.select({ row: ti, col: tj });
      canvas.setAttribute('aria-label', t('t5.mapAlt', {
        len, nb, maxd, mode: t(bidir ? 't5.modeBidir' : 't5.modeCausal'), i: ti, j: tj, bucket, used: s.used,
      }));

      formula.replaceChildren(t5Formula());
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
      const sameSide = (r) => (bidir ? Math.sign(r) === Math.sign(rp) || (rp === 0 && r === 0) : (rp > 0 ? r > 0 : r <= 0));
      let range;
      if (!bidir && rp > 0) range = t('t5.rangeFuture');
      else {
        let lo = rp;
        let hi = rp;
        while (lo - 1 >= -s.reach && sameSide(lo - 1) && s.bucketAt(lo - 1) === bucket) lo--;
        while (hi + 1 <= s.reach && sameSide(hi + 1) && s.bucketAt(hi + 1) === bucket) hi++;
        const [near, far] = [Math.abs(rp < 0 ? hi : lo), Math.abs(rp < 0 ? lo : hi)];
        const open = Math.abs(rp < 0 ? lo : hi) === s.reach;
        range = open ? t('t5.rangeOpen', { from: near }) : near === far ? String(near) : t('t5.rangeSpan', { from: near, to: far });
      }
      const region = !bidir && rp > 0 ? 'regionFuture' : inSide === side - 1 && n >= exact ? 'regionLast' : n < exact ? 'regionExact' : 'regionLog';

      const xs = Float64Array.from({ length: len }, (_, d) => d);
      const before = Float64Array.from(xs, (d) => s.bucketAt(-d));
      const later = Float64Array.from(xs, (d) => s.bucketAt(d));
      plot.draw({
        xDomain: [0, len - 1], yDomain: [0, nb],
        vlines: [
          { x: exact, cls: 'c', label: t('t5.plotExact') },
          ...(maxd <= len - 1 ? [{ x: maxd, cls: 'n', label: t('t5.plotMaxd') }] : []),
        ],
        series: [
          // Dots up to 128 distances; beyond, they would merge into a line and cost ~1 ms per 100.
          { x: xs, y: before, cls: 'a', points: len <= 128, cursor: true, label: t('t5.plotBefore') },
          { x: xs, y: later, cls: 'b', label: t(bidir ? 't5.plotAfter' : 't5.plotAfterCausal') },
        ],
        markers: [{ x: Math.abs(rp), y: bucket, cls: rp > 0 ? 'b' : 'a' }],
      });
      plot.svg.setAttribute('aria-label', t('t5.plotAlt', {
        len, exact, last: side - 1, from: firstAt(before, side - 1), mode: t(bidir ? 't5.modeBidir' : 't5.modeCausal'),
      }));

      out.bucket.set(String(bucket), bucket);
      out.offset.set(signed(rp), rp);
      out.region.set(t(`t5.${region}`));
      out.range.set(range);
      out.used.set(t('t5.usedOf', { used: s.used, nb }), s.used);
      for (const [name, c] of Object.entries(controls)) c.set(values[name]);
      controls.ti.input.max = String(len - 1);
      controls.tj.input.max = String(len - 1);
      controls.ti.set(ti);
      controls.tj.set(tj);
      trained.show(values.trained);
    }

    // The first distance (x) at which a staircase reaches `level`, or "none".
    function firstAt(ys, level) {
      const at = ys.findIndex((y) => y === level);
      return at < 0 ? t('t5.never') : String(at);
    }

    return { controls: [...Object.values(controls).map((c) => c.el), preset], readouts: Object.values(out), figure, render, state: () => compute() };
  }

  // The T5 formula, per direction: N buckets, the first N/2 one distance each, then log-spaced.
  function t5Formula() {
    const N = () => mi('N');
    const half = () => msub(mi('n'), mtext('exact'));
    const row = (...cells) => mm('mtr', {}, ...cells.map((c) => mm('mtd', {}, c)));
    return math(t('t5.formulaLabel'),
      mi('bucket'), mo('\u2061'), fence(mi('n')), mo('='), mo('{'),
      mm('mtable', { columnalign: 'left', displaystyle: 'true' },
        row(mi('n'), mrow(mtext(t('t5.if')), mspace(), mi('n'), mo('<'), half())),
        row(mrow(mi('min'), mo('\u2061'), fence(N(), mo('−'), mn('1'), mo(','), half(), mo('+'), mo('⌊'),
          mfrac(mrow(mi('ln'), mo('\u2061'), fence(mi('n'), mo('/'), half())), mrow(mi('ln'), mo('\u2061'), fence(mi('D'), mo('/'), half()))),
          mo('·'), fence(N(), mo('−'), half()), mo('⌋'))), mtext(t('t5.otherwise')))));
  }

  // [SWITCHING] ------------------------------------------------------------------------------------
  let shown = null;
  function showMethod(method) {
    if (shown === method) return;
    shown = method;
    const p = panels[method];
    slots.controls.replaceChildren(...p.controls);
    slots.figure.replaceChildren(p.figure);
    readoutsRow.replaceChildren(...p.readouts.map((r) => r.el));
    for (const [name, tab] of tabs) {
      const on = name === method;
      tab.setAttribute('aria-selected', String(on));
      tab.tabIndex = on ? 0 : -1;
    }
    workbench.setAttribute('aria-labelledby', tabs.get(method).id);
  }

  function render() {
    showMethod(values.method);
    panels[values.method].render();
  }

  const set = setter(render);  // patch the values, redraw (timed), write the URL

  // Every figure in the document once (Save PNG buttons), then only the current scheme's.
  slots.figure.replaceChildren(...METHODS.map((name) => panels[name].figure));
  for (const name of METHODS) panels[name].render();
  queueMicrotask(() => {
    shown = null;
    render();
  });
  paragraphs(slots.notes, m, 'relative-bias.notes');
  slots.notes.append(costTable());

  function costTable() {
    const cols = ['scheme', 'learned', 'work', 'cache'];
    const rows = ['shaw', 'xl', 't5', 'rope', 'alibi'];
    return h('div', { class: 'rb-cost-wrap' }, h('table', { class: 'rb-cost' },
      h('caption', {}, t('cost.caption')),
      h('thead', {}, h('tr', {}, cols.map((c) => h('th', { scope: 'col' }, t(`cost.head.${c}`))))),
      h('tbody', {}, rows.map((r) => h('tr', {},
        h('th', { scope: 'row' }, t(`cost.${r}.scheme`)),
        cols.slice(1).map((c) => h('td', {}, t(`cost.${r}.${c}`))))))));
  }

  return {
    tables: () => {
      const { k, xi, xj, seed } = values;
      const index = core.shawIndex(SHAW_LEN, SHAW_LEN, k);
      const row = core.transformerXlRow(xi, XL_LEN, XL_DIM, { seed, base: XL_BASE });
      const inputs = core.transformerXlInputs(xi, xj, XL_DIM, { seed, base: XL_BASE });
      const s = panels.t5.state();
      return [
        {
          name: 'shaw-index', label: t('csv.shaw'),
          header: ['i\\j', ...Array.from({ length: SHAW_LEN }, (_, c) => c)],
          rows: Array.from({ length: SHAW_LEN }, (_, r) => [r, ...index.subarray(r * SHAW_LEN, (r + 1) * SHAW_LEN)]),
        },
        {
          name: 'xl-terms', label: t('csv.xlTerms'),
          header: ['i', 'j', 'a_content_content', 'b_content_position', 'c_global_content', 'd_global_position'],
          rows: Array.from({ length: XL_LEN }, (_, c) => [xi, c, ...row.subarray(4 * c, 4 * c + 4)]),
        },
        {
          name: 'xl-inputs', label: t('csv.xlInputs'),
          header: ['dim', `q_${xi}`, `k_${xj}`, 'u', 'v', `R_${xi - xj}`, ...Array.from({ length: XL_DIM }, (_, c) => `W_R[dim][${c}]`)],
          rows: Array.from({ length: XL_DIM }, (_, c) => [c, inputs.query[c], inputs.key[c], inputs.u[c], inputs.v[c], inputs.r[c],
            ...inputs.wr.subarray(c * XL_DIM, (c + 1) * XL_DIM)]),
        },
        {
          name: 't5-buckets', label: t('csv.t5'),
          header: ['key_minus_query', 'bucket'],
          rows: Array.from(s.rel, (r, n) => [r, s.buckets[n]]),
        },
      ];
    },
  };
}

const mspace = () => mm('mspace', { width: '0.6em' });
const SUBSCRIPT = { '-': '₋', 0: '₀', 1: '₁', 2: '₂', 3: '₃', 4: '₄', 5: '₅', 6: '₆', 7: '₇', 8: '₈', 9: '₉' };
const subscript = (v) => String(v).split('').map((c) => SUBSCRIPT[c]).join('');

// [WATERFALL] ------------------------------------------------------------------------------------
// The four terms as a waterfall: each bar starts where the previous one ended, the last bar is the
// sum from zero. Drawn as wide as its box (redrawn on resize), so its text keeps its size on phones.
const ROW = 34;
const PAD = { top: 10, bottom: 26 };

class Waterfall {
  constructor(container, { format }) {
    this.format = format;
    this.svg = s('svg', { class: 'bars rb-waterfall', role: 'img', 'aria-label': '' });
    container.append(this.svg);
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
        s('text', { x: 4, y: y + ROW / 2 + 4, class: 'rb-wf-label' }, r.label),
        s('rect', { x: x0, y: y + 6, width: Math.max(1, Math.abs(x(b) - x(a))), height: ROW - 12, class: `bar ${r.cls}` }),
        s('text', { x: W - 4, y: y + ROW / 2 + 4, 'text-anchor': 'end', class: 'rb-wf-value' }, this.format(r.value)),
      );
      // A thin connector from the end of this bar to the start of the next one.
      if (n < d.rows.length - 1) parts.push(s('line', { x1: x(b), x2: x(b), y1: y + ROW - 6, y2: y + ROW + 6, class: 'rb-wf-link' }));
    });
    const base = PAD.top + all.length * ROW;
    parts.unshift(
      s('line', { x1: x(0), x2: x(0), y1: PAD.top, y2: base, class: 'zero' }),
      s('line', { x1: left, x2: right, y1: PAD.top + d.rows.length * ROW, y2: PAD.top + d.rows.length * ROW, class: 'rb-wf-rule' }),
      s('text', { x: x(0), y: base + 16, 'text-anchor': 'middle', class: 'tick' }, '0'),
    );
    this.svg.replaceChildren(...parts);
  }
}
