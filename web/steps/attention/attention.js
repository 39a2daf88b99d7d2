// Attention, family by family: one live heatmap of softmax attention over one seeded token
// sequence, for every family of the registry (web/families.js), with a second family and a
// difference view. Everything comes from core.familyAttention (through attention/model.js), which computes only
// what is drawn: at most 256 query rows (every (n/256)-th query), each row's keys summed into at
// most 256 column bins, plus the exact score and probability row of the chosen query i (the
// readouts and the line plot). The model (contents, biases, stand-ins) is documented in
// core/family_attention.hpp.
import { h } from '../../kit/dom.js';
import { Heatmap } from '../../kit/heatmap.js';
import { LinePlot } from '../../kit/lineplot.js';
import { roundedTop, tickLabel } from '../../kit/ticks.js';
import { math, mi, mn, mo, mrow, msub } from '../../kit/math.js';
import { choice, paramSlider, toggle } from '../../kit/controls.js';
import { readout, readoutRow } from '../../kit/readout.js';
import { paragraphs, stepFrame } from '../../kit/step.js';
import { FAMILIES, familyName as nameOf, familyPerHead } from '../../families.js';
import { ZERO, cellPixels, cssWord, digitsFor, drawLegend } from './colours.js';
import { mspace, scoreFormula } from './formula.js';
import { FILL_FROM, mapStore } from './maps.js';
import { HEADS, LENGTHS, attentionModel, grid } from './model.js';
import { whenIdle } from '../../kit/idle.js';
import { pointerHint } from '../../kit/pointer.js';

export const id = 'attention';
// Links made before the step took the registry's names say 'relative' for T5: they still open it.
const OLD_NAMES = { relative: 't5' };
const POINTS_UP_TO = 128;  // the line plot marks every key with a dot up to this length

export const params = {
  family: { type: 'enum', values: FAMILIES, default: 'rope', aliases: OLD_NAMES },
  versus: { type: 'enum', values: FAMILIES, default: 'none', aliases: OLD_NAMES },
  view: { type: 'enum', values: ['single', 'difference'], default: 'single' },
  n: { type: 'enum', values: LENGTHS, default: 128 },
  causal: { type: 'bool', default: true },
  head: { type: 'int', min: 0, max: HEADS - 1, default: 3 },
  i: { type: 'int', min: 0, max: (v) => v.n - 1, default: 100 },
  j: { type: 'int', min: 0, max: (v) => v.n - 1, default: 92 },
};

export function mount(root, { core, m, values, setter, index, total }) {
  const slots = stepFrame(root, m, { id, index, total, downloads: 'deeper' });
  const familyName = (f) => nameOf(m, f);
  const model = attentionModel(core);

  const controls = {
    family: choice({
      name: 'family', label: m.t('attention.family'), value: values.family,
      options: FAMILIES.map((f) => ({ value: f, label: familyName(f) })), onChange: (v) => set({ family: v }),
    }),
    versus: choice({
      name: 'versus', label: m.t('attention.versus'), value: values.versus,
      options: FAMILIES.map((f) => ({ value: f, label: familyName(f) })), onChange: (v) => set({ versus: v }),
    }),
    view: choice({
      name: 'view', label: m.t('attention.view'), value: values.view,
      options: [{ value: 'single', label: m.t('attention.viewSingle') }, { value: 'difference', label: m.t('attention.viewDiff') }],
      onChange: (v) => set({ view: v }),
    }),
    n: choice({
      name: 'n', label: m.t('attention.n'), value: values.n,
      options: LENGTHS.map((n) => ({ value: n, label: m.fixed(n, 0) })), onChange: (v) => set({ n: v }),
    }),
    causal: toggle({ name: 'causal', label: m.t('attention.causal'), checked: values.causal, onChange: (v) => set({ causal: v }) }),
    head: paramSlider(params, 'head', {
      label: m.t('attention.head'), values, format: (h) => `1/${2 ** (h + 1)}`, onInput: (v) => set({ head: v }),
    }),
    i: paramSlider(params, 'i', { label: m.t('attention.i'), values, onInput: (v) => set({ i: v }) }),
    j: paramSlider(params, 'j', { label: m.t('attention.j'), values, onInput: (v) => set({ j: v }) }),
  };
  // The family, the length and the mask first, then the map they change; the comparison with a
  // second family, ALiBi's head and the query and key under the map, over the plot of query i's
  // row and the cards they drive. Above the map, all eight took ~750 px of a phone's screen.
  slots.controls.append(
    h('div', { class: 'attention-choices' }, controls.family.el, controls.n.el),
    controls.causal.el,
  );
  const moreControls = h('div', { class: 'controls attention-more' },
    h('div', { class: 'attention-choices' }, controls.versus.el, controls.view.el),
    controls.head.el, controls.i.el, controls.j.el);

  // Formula of family A, then the same score with the current numbers.
  const formula = h('div', { class: 'formula attention-formula' });

  // Heatmap: queries down, key bins across; its legend; the hover line.
  const keys = h('span', { id: 'attention-keys', class: 'sr-only' }, m.t('attention.hoverHint'));
  const canvas = h('canvas', { class: 'heatmap attention-map', 'aria-describedby': keys.id });
  // The visible hint says "tap" on a touch screen; the map's description keeps the keys.
  const hint = pointerHint(m, 'attention.hoverHint');
  const hover = h('p', { class: 'hover-readout', 'aria-live': 'polite' }, hint);
  const legendEl = h('div', { class: 'legend attention-legend' });
  const mapCaption = h('figcaption', {});
  const mapFigure = h('figure', { class: 'attention-fig attention-heat' },
    mapCaption,
    h('div', { class: 'heatmap-frame' },
      h('span', { class: 'axis axis-x' }, m.t('attention.axisKeys')),
      h('span', { class: 'axis axis-y' }, m.t('attention.axisQueries')),
      canvas, keys),
    legendEl, hover);

  let drawn = null;  // { rows, edges, cells, limit } of the map on show (while a new one fills, the one before), for the hover line and clicks
  const heatmap = new Heatmap(canvas, {
    limit: 1,
    onCell: (c) => {
      if (!c || !drawn) {
        hover.textContent = hint;
        return;
      }
      const lo = drawn.edges[c.col];
      const hi = drawn.edges[c.col + 1] - 1;
      const v = drawn.cells[c.row * (drawn.edges.length - 1) + c.col];
      const value = m.fixed(v, Math.max(4, digitsFor(Math.abs(v))));
      hover.textContent = lo === hi
        ? m.t('attention.hover', { i: drawn.rows[c.row], j: lo, value })
        : m.t('attention.hoverBin', { i: drawn.rows[c.row], lo, hi, value });
    },
    onSelect: (c) => {
      if (!drawn) return;
      set({ i: drawn.rows[c.row], j: drawn.edges[c.col] });
    },
  });

  // The exact row of query i.
  const plotFigure = h('figure', { class: 'attention-fig attention-row' });
  const plotCaption = h('figcaption', {});
  plotFigure.append(plotCaption);
  const plot = new LinePlot(plotFigure, {
    xLabel: m.t('attention.plotX'), yLabel: m.t('attention.plotY'), label: '',
    format: tickLabel(m),
    cursorX: (v) => m.fixed(v, 0),
    cursorY: (v) => m.fixed(v, 4),
    keysHint: m.t('page.plotKeys'),
  });

  slots.figure.append(formula, h('div', { class: 'attention-figs' }, mapFigure, moreControls, plotFigure));

  const out = {
    score: readout('score', m.t('attention.score')),
    prob: readout('prob', m.t('attention.prob')),
    probB: readout('probB', m.t('attention.probB')),
    diff: readout('diff', m.t('attention.diff')),
    top: readout('top', m.t('attention.top')),
  };
  slots.readouts.append(readoutRow(out.score, out.prob, out.probB, out.diff, out.top));
  paragraphs(slots.notes, m, 'attention.notes');
  paragraphs(slots.deeper, m, 'attention.deeper');
  // A family may say more about itself in the fold (families.<name>.attention).
  for (const f of FAMILIES) if (m.has(`families.${f}.attention`)) paragraphs(slots.deeper, m, `families.${f}.attention`);

  let last = null;  // the core results of the last render, for the CSV tables
  let formulaShown = null;  // the family (and ALiBi's head) of the score formula on screen
  // What the heatmap shows: { key, entry, cells, pixels, limit, g, causal, diffView }. entry: the
  // kept map shown, or null for A − B; pixels: the colours showMap drew (a theme change repaints
  // from a fresh array).
  let map = null;
  const NO_ROWS = new Int32Array(0);
  // The maps, their arrays and the fill of long maps (attention/maps.js).
  const maps = mapStore({
    values,
    run: (...args) => run(...args),
    maskColour: () => maskColour(),
    shown: () => map,
    busy: (on) => {
      if (on) root.dataset.busy = 'true';
      else root.removeAttribute('data-busy');
      canvas.classList.toggle('stale', on);
    },
  });
  const mapKey = maps.key;
  const prefetch = maps.prefetch;

  // One core call (attention/model.js): the drawn rows binned into the columns (or none:
  // rows = []), and the exact row of query i.
  const run = (family, g, n, rows, causal = values.causal) => model.run(family, g, n, rows, { i: values.i, head: values.head, causal });

  let rowsBefore = new Map();  // the last render's core results, by `${mapKey}|${i}` (render's rowsNow)

  /**
   * Shows a map and records it as `map`: A's kept cells, or A − B in the difference view, with
   * its caption and its text alternative, which describe the map on show.
   */
  function showMap(key, { family, versus, n, causal, diffView, g }, aEntry, bEntry) {
    let shown = aEntry;
    if (diffView) {
      shown = { cells: model.difference(aEntry.cells, bEntry.cells, maps.take(Float32Array, aEntry.cells.length)) };
    }
    const { cells, limit, pixels } = maps.coloured(shown, g, causal);
    const R = g.rows.length;
    const C = g.edges.length - 1;
    const before = map;
    map = { key, entry: diffView ? null : shown, cells, pixels, limit, g, causal, diffView };
    // The map replaced: its arrays go back unless the cache still holds them.
    if (before && !(before.entry && maps.holds(before.entry))) maps.give(before.cells, before.pixels);
    drawn = { rows: g.rows, edges: g.edges, cells, limit };
    canvas.dataset.limit = String(limit);
    canvas.dataset.cols = String(C);
    heatmap.draw(cells, R, C, pixels);
    drawLegend(legendEl, limit, diffView, m);
    selectCell();

    const per = n / C;
    const names = { a: familyName(family), b: familyName(versus) };
    const maskText = causal ? m.t('attention.maskOn') : m.t('attention.maskOff');
    const nText = m.fixed(n, 0);
    mapCaption.textContent = diffView
      ? m.t('attention.mapCaptionDiff', { a: names.a, b: names.b, n: nText })
      : m.t('attention.mapCaption', { a: names.a, n: nText });
    const limitText = m.fixed(limit, digitsFor(limit));
    const drawnText = per === 1 ? m.t('attention.gridExact', { n: nText }) : m.t('attention.gridBinned', { rows: R, cols: C, per });
    canvas.setAttribute('aria-label', diffView
      ? m.t('attention.altDiff', { a: names.a, b: names.b, n: nText, mask: maskText, grid: drawnText, limit: limitText })
      : m.t('attention.alt', { a: names.a, n: nText, mask: maskText, grid: drawnText, limit: limitText }));
  }

  /** Outlines cell (i, j) of the map on show, in its own grid. */
  function selectCell() {
    if (!map) return;
    const { rows, edges } = map.g;
    const n = edges[edges.length - 1];
    heatmap.select({ row: Math.floor((Math.min(values.i, n - 1) * rows.length) / n), col: Math.floor((Math.min(values.j, n - 1) * (edges.length - 1)) / n) });
  }

  function render() {
    const n = values.n;
    const { i, j, family, versus, causal } = values;
    const diffView = values.view === 'difference';
    const g = grid(n);

    // The map depends on neither i nor j, and a family's cells not on the other family: when
    // only they change, the kept cells are used, and the core is asked for query i's row alone
    // (when i changed) or not at all (rowsNow). The head changes the map only through ALiBi.
    const withHead = familyPerHead(family) || (diffView && familyPerHead(versus));
    const key = [family, diffView ? versus : '', n, causal, withHead ? values.head : ''].join();
    const fresh = map?.key !== key;
    // A map neither kept nor cheap is filled over the next frames (fillMaps).
    const fillsLater = n >= FILL_FROM;
    // Query i's exact rows by map key and i, kept from the last render. A core call depends on
    // nothing else (the contents are seeded, and of the families only ALiBi reads the head, which
    // its key holds), so a change that leaves a family's key and i alone (j, B, the view) reuses
    // its row instead of asking the core again (two rows of 2,048 keys cost milliseconds).
    const rowsNow = new Map();
    const cellsOf = (f, wanted) => {
      const k = mapKey(f);
      const kept = maps.get(k);
      const full = wanted && !kept && !fillsLater;
      const rowKey = `${k}|${i}`;
      const r = (!full && (rowsNow.get(rowKey) ?? rowsBefore.get(rowKey))) || run(f, g, n, full ? g.rows : NO_ROWS);
      rowsNow.set(rowKey, r);
      if (!wanted || (!kept && fillsLater)) return r;
      const entry = maps.keep(k, kept ?? { cells: r.cells });
      return { ...r, entry };
    };
    const a = cellsOf(family, fresh);
    // B's row of query i always feeds its readouts; its cells only the difference view.
    const b = cellsOf(versus, fresh && diffView);
    rowsBefore = rowsNow;
    maps.stopUnless(key);
    if (fresh && !maps.filling()) {
      const spec = { family, versus, n, causal, diffView, g };
      if (a.entry && (!diffView || b.entry)) {
        showMap(key, spec, a.entry, b.entry);
      } else {
        maps.fill(key, diffView ? [family, versus] : [family], () => {
          showMap(key, spec, maps.get(mapKey(family, causal)), diffView ? maps.get(mapKey(versus, causal)) : null);
        });
      }
    }
    selectCell();
    last = { a, b, n };

    const names = { a: familyName(family), b: familyName(versus) };
    const maskText = causal ? m.t('attention.maskOn') : m.t('attention.maskOff');
    const nText = m.fixed(n, 0);

    // The exact row of query i.
    const r = model.readouts(a, b, j, diffView);
    const { top, yMax } = r;
    const xs = g.keys;
    const series = [{ x: xs, y: a.probs, cls: 'a', points: n <= POINTS_UP_TO, cursor: true, joinFlat: true, perColumn: true, label: m.t('attention.plotA', { a: names.a, i }) }];
    if (diffView) series.push({ x: xs, y: b.probs, cls: 'b', joinFlat: true, perColumn: true, label: m.t('attention.plotB', { b: names.b, i }) });
    plot.draw({
      xDomain: [0, n - 1],
      yDomain: [0, roundedTop(yMax * 1.12) || 1],
      vlines: [{ x: i, cls: 'n', label: m.t('attention.plotQuery', { i }) }],
      series,
      markers: [{ x: j, y: r.prob, cls: 'a' }],
    });
    plotCaption.textContent = m.t('attention.plotCaption', { i, n: nText });
    const pA = r.prob;
    const sA = r.score;
    const pText = m.fixed(pA, 4);
    plot.svg.setAttribute('aria-label', m.t('attention.plotAlt', {
      a: names.a, i, last: n - 1, top, topP: m.fixed(a.probs[top], 4), j, p: pText, mask: maskText,
    }) + (diffView ? ` ${m.t('attention.plotAltB', { b: names.b, topB: r.topB, p: m.fixed(r.probB, 4) })}` : ''));

    // Readouts.
    const sText = sA === -Infinity ? '−∞' : m.fixed(sA, 3).replace(/^-/, '−');
    out.score.set(sText, sA);
    out.prob.set(pText, pA);
    out.top.set(String(top), top);
    out.probB.set(m.fixed(r.probB, 4), r.probB);
    out.diff.set(m.fixed(r.diff, 4).replace(/^-/, '−'), r.diff);

    // The family's score formula changes with the family (and ALiBi's with the head) only: it is
    // built again then, while the line with this query's numbers is built on every change.
    const now = math(
      m.t('attention.nowLabel', { i, j, score: sText, p: pText }),
      msub(mi('s'), mrow(mn(String(i)), mo(','), mn(String(j)))), mo('='), mn(sText), mo(','),
      mspace(), msub(mi('p'), mrow(mn(String(i)), mo(','), mn(String(j)))), mo('='), mn(pText),
    );
    const formulaKey = `${family}|${familyPerHead(family) ? values.head : ''}`;
    if (formulaKey !== formulaShown) {
      formula.replaceChildren(scoreFormula(family, m, model.slope(values.head)), now);
      formulaShown = formulaKey;
    } else {
      formula.lastChild.replaceWith(now);
    }

    controls.family.set(family);
    controls.versus.set(versus);
    controls.view.set(values.view);
    controls.n.set(n);
    controls.causal.set(causal);
    controls.head.set(values.head);
    // ALiBi's head only means something while A or B is ALiBi.
    controls.head.el.hidden = values.family !== 'alibi' && values.versus !== 'alibi';
    controls.i.set(i);
    controls.j.set(j);
    if (!maps.filling()) prefetch();
  }

  const set = setter(render);  // patch the values, redraw (timed), write the URL

  // The masked cells take the theme's --masked colour (dark in the dark theme, where the scale's
  // near-white zero would glare), read once per theme; printing uses the light one.
  let masked = null;
  let printing = false;
  const maskColour = () => {
    if (printing) return ZERO;
    masked ??= cssWord(getComputedStyle(canvas).getPropertyValue('--masked')) ?? ZERO;
    return masked;
  };
  const repaint = () => {
    masked = null;
    if (!map) return;
    const { cells, limit, g, causal } = map;
    heatmap.draw(cells, g.rows.length, g.edges.length - 1, cellPixels(cells, limit, g, causal, maskColour()));
  };  // (kept maps recolour themselves when next shown: their mask word differs)
  new MutationObserver(repaint).observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  globalThis.matchMedia?.('(prefers-color-scheme: dark)').addEventListener?.('change', repaint);
  addEventListener('beforeprint', () => { printing = true; repaint(); });
  addEventListener('afterprint', () => { printing = false; repaint(); });

  render();
  // The rows of the longest length, drawn while the page is idle (attention/contents.js).
  whenIdle(() => model.contents.reach(LENGTHS.at(-1), true), { fallback: 200 });
  return {
    tables: () => {
      const { a, b, n } = last;
      // The cells of the map on show (while a new one fills, the one before it; none before the
      // first is drawn), in its grid. cells: A's probabilities, or A − B in the difference view.
      const { g, cells, diffView } = map ?? { g: { rows: [], edges: [0] }, cells: new Float32Array(0), diffView: values.view === 'difference' };
      const C = g.edges.length - 1;
      const binName = (c) => (g.edges[c + 1] - g.edges[c] === 1 ? `k${g.edges[c]}` : `k${g.edges[c]}-${g.edges[c + 1] - 1}`);
      const rowHeader = ['key', 'score A', 'probability A', 'score B', 'probability B'];
      return [
        {
          name: 'cells', label: m.t(diffView ? 'attention.csvCellsDiff' : 'attention.csvCells'),
          header: ['query', ...Array.from({ length: C }, (_, c) => binName(c))],
          rows: Array.from(g.rows, (q, r) => [q, ...cells.subarray(r * C, (r + 1) * C)]),
        },
        {
          name: 'row', label: m.t('attention.csvRow', { i: values.i }),
          header: rowHeader,
          rows: Array.from({ length: n }, (_, k) => [k, a.scores[k], a.probs[k], b.scores[k], b.probs[k]]),
        },
      ];
    },
  };
}
