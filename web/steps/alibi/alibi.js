// ALiBi (Press, Smith & Lewis 2021): no position vectors at all; each head subtracts m·(i − j)
// from the score of query i against key j. The slopes, the bias and the softmax weights come from
// model.js (the core's, DOM-free); this file draws and formats them. The query is the last position of a
// sequence of adjustable length, which crosses the paper's training length of 1024.
import { h, s } from '../../kit/dom.js';
import { patch } from '../../kit/svg-patch.js';
import { Heatmap, legend } from '../../kit/heatmap.js';
import { addExportOverlay, svgOverlay } from '../../kit/export.js';
import { LogPlot } from '../../kit/logplot.js';
import { math, mathPieces, mi, mn, mo, mrow, msub, msup, mfrac } from '../../kit/math.js';
import { choice, paramSlider } from '../../kit/controls.js';
import { quietReadoutRow, readout, readoutRow } from '../../kit/readout.js';
import { paragraphs, stepFrame } from '../../kit/step.js';
import { powerOfTen } from '../../kit/scripts.js';
import { registerFigure } from '../../kit/figures.js';
import { keptPoints } from '../../kit/simplify.js';
import { pointerHint } from '../../kit/pointer.js';
import { HEAD_COUNTS, LEN_STEP, MAX_LEN, TRAIN, WINDOW, alibiModel } from './model.js';

export const id = 'alibi';
const BIAS_LIMIT = 4;                   // colour scale of the bias: e^−4 ≈ 2 % of the weight at distance 0
const P_MIN = 1e-8;                     // the log plot's floor; smaller weights are left out
const X_DOMAIN = [0, MAX_LEN - 1];
const DRAW_TOLERANCE = 0.05;            // how far (in the plot's drawing units) a curve's path may stray from its points

export const params = {
  heads: { type: 'enum', values: HEAD_COUNTS, default: 8 },
  head: { type: 'int', min: 1, max: (v) => v.heads, default: 1 },
  len: { type: 'int', min: LEN_STEP, max: MAX_LEN, step: LEN_STEP, default: TRAIN },
  dist: { type: 'int', min: 0, max: (v) => v.len - 1, default: 3 },
};

/** Keeps `overlay` (absolutely placed at the top left of the canvas's parent) the canvas's size. */
function fitOver(canvas, overlay) {
  new ResizeObserver(([entry]) => {
    overlay.style.width = `${entry.contentRect.width}px`;
    overlay.style.height = `${entry.contentRect.height}px`;
  }).observe(canvas);
}


export function mount(root, { core, m, values, setter, index, total }) {
  const slots = stepFrame(root, m, { id, index, total, downloads: 'deeper' });
  const model = alibiModel(core);

  // Controls.
  const controls = {
    heads: choice({
      name: 'heads', label: m.t('alibi.heads'), value: values.heads,
      options: HEAD_COUNTS.map((n) => ({ value: n, label: m.t(`alibi.heads.${n}`) })),
      onChange: (n) => set({ heads: Number(n) }),
    }),
    head: paramSlider(params, 'head', { label: m.t('alibi.head'), values, onInput: (v) => set({ head: v }) }),
    len: paramSlider(params, 'len', { label: m.t('alibi.len'), values, format: (v) => m.fixed(v, 0), onInput: (v) => set({ len: v }) }),
    dist: paramSlider(params, 'dist', { label: m.t('alibi.dist'), values, onInput: (v) => set({ dist: v }) }),
  };
  const lenTicks = h('datalist', { id: 'alibi-len-ticks' }, h('option', { value: String(TRAIN) }));
  controls.len.input.setAttribute('list', lenTicks.id);
  controls.len.el.append(lenTicks);
  slots.controls.append(controls.heads.el, controls.head.el, controls.len.el, controls.dist.el);

  const formula = h('div', { class: 'formula alibi-formulas' });

  // Figure 1: the slopes, one bar per head, on a log₂ scale.
  const slopeFig = h('figure', { class: 'alibi-fig alibi-slopes' }, h('figcaption', {}, m.t('alibi.slopesCaption')));
  const slopeSvg = s('svg', { class: 'bars alibi-bars', role: 'img', viewBox: '0 0 640 230' });
  const slopeLegend = h('div', { class: 'plot-legend' },
    h('span', { class: 'legend-item a' }, h('span', { class: 'swatch', 'aria-hidden': 'true' }), m.t('alibi.slopesChosen')),
    h('span', { class: 'legend-item other' }, h('span', { class: 'swatch', 'aria-hidden': 'true' }), m.t('alibi.slopesOthers')));
  slopeFig.append(slopeSvg, slopeLegend);
  registerFigure(slopeSvg, { holder: slopeFig });
  slopeSvg.addEventListener('click', (e) => {
    const bar = e.target.closest?.('[data-head]');
    if (bar) set({ head: Number(bar.dataset.head) });
  });

  // Figure 2: the corner of the bias matrix next to the last query.
  const keys = h('span', { id: 'alibi-keys', class: 'sr-only' }, m.t('alibi.mapKeys'));
  const canvas = h('canvas', { class: 'heatmap', 'aria-describedby': keys.id });
  const mask = s('svg', { class: 'alibi-mask', viewBox: `0 0 ${WINDOW} ${WINDOW}`, preserveAspectRatio: 'none', 'aria-hidden': 'true' });
  let stairs = `M1,0 L${WINDOW},0 L${WINDOW},${WINDOW - 1}`;
  for (let r = WINDOW - 1; r >= 1; r--) stairs += ` L${r},${r} L${r},${r - 1}`;
  // Hatching in drawing units (one unit per cell): a pale ground crossed by diagonal lines.
  mask.append(
    s('defs', {}, s('pattern', { id: 'alibi-hatch', patternUnits: 'userSpaceOnUse', width: 0.5, height: 0.5, patternTransform: 'rotate(45)' },
      s('rect', { width: 0.5, height: 0.5, class: 'alibi-hatch-ground' }),
      s('line', { x1: 0, y1: 0, x2: 0, y2: 0.5, class: 'alibi-hatch-line' }))),
    s('path', { d: `${stairs} Z`, class: 'alibi-masked', fill: 'url(#alibi-hatch)' }));
  fitOver(canvas, mask);
  addExportOverlay(canvas, svgOverlay(mask));  // Save PNG keeps the hatched mask
  const axisX = h('span', { class: 'axis axis-x' });
  const axisY = h('span', { class: 'axis axis-y' });
  // The visible hint says "tap" on a touch screen; the map's description keeps the keys.
  const hint = pointerHint(m, 'alibi.mapHint');
  const hover = h('p', { class: 'hover-readout', 'aria-live': 'polite' }, hint);
  const legendEl = h('div', { class: 'legend' });
  const mapFig = h('figure', { class: 'alibi-fig alibi-map' },
    h('figcaption', {}, m.t('alibi.mapCaption', { window: WINDOW })),
    h('div', { class: 'heatmap-frame' }, axisX, axisY, h('div', { class: 'alibi-canvas' }, canvas, mask), keys),
    legendEl,
    h('p', { class: 'alibi-map-key' }, h('span', { class: 'alibi-mask-swatch', 'aria-hidden': 'true' }), m.t('alibi.maskKey')),
    hover);
  // Biases below the bar's end take its colour: the low mark says "or less".
  legend(legendEl, BIAS_LIMIT, [`≤ −${m.fixed(BIAS_LIMIT, 0)}`, m.fixed(0, 0), `+${m.fixed(BIAS_LIMIT, 0)}`]);
  let corner = null;  // { first, values } of the drawn corner
  const heatmap = new Heatmap(canvas, {
    limit: BIAS_LIMIT,
    onCell: (c) => {
      if (!c) { hover.textContent = hint; return; }
      const i = corner.first + c.row;
      const j = corner.first + c.col;
      hover.textContent = c.col > c.row
        ? m.t('alibi.hoverMasked', { i, j })
        : m.t('alibi.hover', { i, j, value: m.fixed(c.value || 0, 3) });
    },
    onSelect: (c) => { if (c.col <= c.row) set({ dist: c.row - c.col }); },
  });

  // Figure 3: the softmax weights of the last query against the distance back to the key.
  const plotFig = h('figure', { class: 'alibi-fig alibi-plot' }, h('figcaption', {}, m.t('alibi.plotCaption')));
  // A narrower drawing on phones, so its text stays readable when it shrinks to the screen.
  const phone = globalThis.matchMedia?.('(max-width: 560px)').matches;
  const plot = new LogPlot(plotFig, {
    label: '', width: phone ? 420 : 640, height: phone ? 380 : 320,
    xLabel: m.t('alibi.plotX'), yLabel: m.t('alibi.plotY'),
    formatX: (v) => m.fixed(v, 0),
    formatY: (v) => (v === 1 ? '1' : powerOfTen(Math.round(Math.log10(v)))),
  });
  const plotNote = h('p', { class: 'alibi-plot-note' });
  plotFig.append(plotNote);

  // Figure first: the formula and the weights the bias leaves. The bias matrix's corner (with
  // the pair's positions) and every head's slope, beside the paragraph on how the slopes are
  // chosen, are depth.
  slots.figure.append(formula, h('div', { class: 'alibi-figs' }, plotFig));

  const out = {
    slope: readout('slope', m.t('alibi.slope')),
    i: readout('i', m.t('alibi.i')),
    j: readout('j', m.t('alibi.j')),
    bias: readout('bias', m.t('alibi.bias')),
    prob: readout('prob', m.t('alibi.prob')),
    far: readout('far', m.t('alibi.far', { train: TRAIN - 1 })),
  };
  slots.readouts.append(readoutRow(out.slope, out.bias, out.prob, out.far));
  paragraphs(slots.notes, m, 'alibi.notes');
  const [recipe, ...rest] = m.paras('alibi.deeper');
  slots.deeper.append(h('div', { class: 'alibi-figs' }, mapFig), quietReadoutRow(out.i, out.j),
    h('p', {}, recipe), slopeFig, ...rest.map((p) => h('p', {}, p)));

  let current = null;  // for the CSV export

  function render() {
    const { heads, head, len, dist } = values;
    const state = model.state(values);
    const { all, slope, i, j, bias, prob, b, p, far } = state;
    current = { heads, head, slope, len, bias, prob, all };

    // Formula (built once: nothing in it depends on the values), then the same with the current numbers.
    if (!formula.firstChild) {
      const mh = () => msub(mi('m'), mi('h'));
      formula.append(h('div', {},
        // The score and the slope wrap between them on a narrow phone (320 px).
        mathPieces(m.t('alibi.formulaLabel'),
          [msub(mi('s'), mrow(mi('i'), mi('j'))), mo('='),
            mfrac(mrow(msub(mi('q'), mi('i')), mo('·'), msub(mi('k'), mi('j'))), mrow(mo('√'), mi('d'))),
            mo('−'), mh(), mo('·'), mrow(mo('('), mi('i'), mo('−'), mi('j'), mo(')')), mo(',')],
          [mh(), mo('='), msup(mn('2'), mrow(mo('−'), mn('8'), mi('h'), mo('/'), mi('n')))]), ' ', h('span', { class: 'alibi-pow2' }, m.t('alibi.formulaPow2'))), h('div'));
    }
    formula.lastChild.replaceChildren(
      math(m.t('alibi.formulaNowLabel', { slope: m.fixed(slope, 5), i, j, bias: m.fixed(b, 3) }),
        mo('−'), mn(m.fixed(slope, 5)), mo('·'), mrow(mo('('), mn(String(i)), mo('−'), mn(String(j)), mo(')')),
        mo('='), mn(m.fixed(b, 3))));

    drawSlopes(all, head);
    slopeSvg.setAttribute('aria-label', m.t('alibi.slopesAlt', {
      heads, head, slope: m.fixed(slope, 5), max: m.fixed(Math.max(...all), 5), min: m.fixed(Math.min(...all), 5),
    }));

    corner = model.corner(len, slope);
    const { first } = corner;
    heatmap.draw(corner.values, WINDOW, WINDOW);
    heatmap.select(dist < WINDOW ? { row: WINDOW - 1, col: WINDOW - 1 - dist } : null);
    axisX.textContent = m.t('alibi.axisKeys', { from: first, to: i });
    axisY.textContent = m.t('alibi.axisQueries', { from: first, to: i });
    canvas.setAttribute('aria-label', m.t('alibi.mapAlt', {
      window: WINDOW, from: first, to: i, head, step: m.fixed(slope, 4), edge: m.fixed(-slope * (WINDOW - 1), 2),
    }));

    drawPlot(state, head, len, dist);
    out.slope.set(m.fixed(slope, 5), slope);
    out.i.set(String(i), i);
    out.j.set(String(j), j);
    out.bias.set(m.fixed(b, 3), b);
    out.prob.set(m.fixed(p, 4), p);
    out.far.set(m.fixed(far, 4), far);

    controls.heads.set(heads);
    controls.head.set(head);
    controls.len.set(len);
    controls.dist.set(dist);
  }

  // Slopes on a log₂ axis from 1 (top) down to 2^−9 (the baseline the bars stand on). Drawn
  // again only when the heads or the chosen head change (up to 112 bars).
  let slopesDrawn = null;
  function drawSlopes(all, head) {
    if (slopesDrawn?.all === all && slopesDrawn.head === head) return;
    slopesDrawn = { all, head };
    const W = 640;
    const H = 230;
    // On a phone the tick labels are set larger (alibi.css): "1/256" needs a wider margin, and the
    // top label "1", set across its line, more room below the drawing's top edge.
    const pad = { left: phone ? 88 : 44, right: 8, top: phone ? 18 : 10, bottom: 34 };
    const n = all.length;
    const y = (v) => pad.top + (-Math.log2(v) / 9) * (H - pad.top - pad.bottom);
    const slot = (W - pad.left - pad.right) / n;
    const parts = [];
    for (let k = 0; k <= 8; k += 2) {
      parts.push(
        ['line', { x1: pad.left, x2: W - pad.right, y1: y(2 ** -k), y2: y(2 ** -k), class: 'tick-line' }],
        ['text', { x: pad.left - 6, y: y(2 ** -k) + (phone ? 8 : 4), 'text-anchor': 'end', class: 'tick' }, k === 0 ? '1' : `1/${2 ** k}`],
      );
    }
    const every = n <= 12 ? 1 : n <= 32 ? 4 : 16;
    // Bars first, then labels: when the head count changes, patch keeps the bars there are and
    // adds or removes the rest; interleaved, a new bar would land on an old label and both would
    // be rebuilt.
    const labels = [];
    all.forEach((v, k) => {
      const x0 = pad.left + k * slot;
      const chosen = k + 1 === head;
      parts.push(['rect', {
        x: x0 + slot * 0.12, width: Math.max(1, slot * 0.76), y: y(v), height: y(2 ** -9) - y(v),
        class: `bar ${chosen ? 'a chosen' : 'other'}`, 'data-head': k + 1,
      }]);
      if ((k + 1) % every === 0 || k === 0) {
        // The last head's number ends at the drawing's edge rather than past it ("112").
        const edge = x0 + slot / 2 > W - 40;
        labels.push(['text', { x: edge ? W - 2 : x0 + slot / 2, y: H - 10, 'text-anchor': edge ? 'end' : 'middle', class: 'tick' }, String(k + 1)]);
      }
    });
    parts.push(...labels, ['line', { x1: pad.left, x2: W - pad.right, y1: y(2 ** -9), y2: y(2 ** -9), class: 'zero' }]);
    patch(slopeSvg, parts);  // the bars kept, moved and recoloured: fewer new nodes (update time measured the same)
  }

  function drawPlot({ all, slope, prob, steep, shallow }, head, len, dist) {
    // The steepest and the shallowest head beside the chosen one.
    // Every distance above the floor, then only the points the line needs: the weights fall as
    // e^(−slope·d), a straight line on the log axis, so a curve of up to 2,048 points keeps only
    // its two ends (kit/simplify.js). The tolerance is in the drawing's units, with scales taken
    // from the whole drawing rather than the smaller plotting area inside its margins, so the
    // path strays by less than that.
    const unitsX = plot.w / (X_DOMAIN[1] - X_DOMAIN[0]);
    const unitsY = plot.h / -Math.log10(P_MIN);
    const curveOf = (v) => {
      const row = model.row(v, len);
      row.curve ??= curve(row.prob);
      return row.curve;
    };
    const curve = (p) => {
      const d = [];
      const logs = [];
      for (let k = 0; k < len; k++) {
        const w = p[len - 1 - k];
        if (w < P_MIN) break;  // the weights only fall with distance
        d.push(k);
        logs.push(Math.log10(w));
      }
      const keep = keptPoints(d.map((k) => k * unitsX), logs.map((l) => l * unitsY), DRAW_TOLERANCE);
      return { x: keep.map((k) => d[k]), y: keep.map((k) => p[len - 1 - d[k]]) };
    };
    const series = [
      { ...curveOf(slope), cls: 'a', label: m.t('alibi.plotChosen', { head, slope: m.fixed(slope, 4) }) },
      { ...curveOf(all[steep - 1]), cls: 'b', label: m.t('alibi.plotSteep', { head: steep, slope: m.fixed(all[steep - 1], 4) }) },
      { ...curveOf(all[shallow - 1]), cls: 'c', label: m.t('alibi.plotShallow', { head: shallow, slope: m.fixed(all[shallow - 1], 4) }) },
    ];
    const p = prob[len - 1 - dist];
    plot.draw({
      xDomain: X_DOMAIN,
      yDomain: [P_MIN, 1],
      xTicks: phone ? [0, 1024, 2048] : [0, 512, 1024, 1536, 2048],
      series,
      markers: p >= P_MIN ? [{ x: dist, y: p, cls: 'a' }] : [],
    });
    // The distances a model trained on TRAIN tokens never saw, and the length read now.
    const x0 = plot.x(TRAIN - 1);
    const top = plot.y(1);
    const bottom = plot.y(P_MIN);
    plot.plot.prepend(s('rect', { x: x0, y: top, width: plot.x(X_DOMAIN[1]) - x0, height: bottom - top, class: 'alibi-beyond' }));
    plot.plot.append(
      s('line', { x1: x0, x2: x0, y1: top, y2: bottom, class: 'vline train' }),
      s('text', { x: plot.x(X_DOMAIN[1]) - 4, y: top + 14, 'text-anchor': 'end', class: 'vline-label train' }, m.t('alibi.plotTrain', { train: TRAIN })),
      s('line', { x1: plot.x(len - 1), x2: plot.x(len - 1), y1: top + 22, y2: bottom, class: 'vline len' }),
    );
    plotNote.textContent = m.t('alibi.plotNote', { floor: '10⁻⁸', len: m.fixed(len, 0) });
    plot.svg.setAttribute('aria-label', m.t('alibi.plotAlt', {
      len, last: len - 1, train: TRAIN, head, slope: m.fixed(slope, 4),
      near: m.fixed(prob[len - 1], 3), steep, shallow,
      nearSteep: m.fixed(series[1].y[0], 3), nearShallow: m.fixed(series[2].y[0], 5),
    }));
  }

  const set = setter(render);  // patch the values, redraw (timed), write the URL

  render();
  return {
    tables: () => [
      {
        name: 'slopes', label: m.t('alibi.csvSlopes'),
        header: ['head', 'slope'],
        rows: Array.from(current.all, (v, k) => [k + 1, v]),
      },
      {
        name: 'row', label: m.t('alibi.csvRow'),
        header: ['key_j', 'distance', 'bias', 'probability'],
        rows: Array.from({ length: current.len }, (_, jj) => [jj, current.len - 1 - jj, current.bias[jj] || 0, current.prob[jj]]),
      },
    ],
  };
}
