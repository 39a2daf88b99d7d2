// FIRE's trained bias against distance: for one query, the bias every head of every layer adds to
// the score of a key d positions back, b(i, i − d) = f(ψ(d) / ψ(max(L, i))), ψ(x) = ln(1 + |c|·x)
// (core/families/fire.hpp, worked out again here from the trained tensors, in float64). Two
// queries: the last position of the longest training sequence and of one twice as long; the
// longest distance seen in training is marked.
import { h } from '../kit/dom.js';
import { LinePlot } from '../kit/lineplot.js';
import { tickLabel } from '../kit/ticks.js';

const WIDTH = 32;  // the MLP's hidden width (fire.hpp kWidth)
const EPS = 1e-6;

/**
 * The bias of each head of one layer for query position i and key i − d, d = 0..i:
 * [{ head, x: d, y }]. layer: { 'in.weight', 'in.bias', 'out.weight', c, threshold } tensors
 * ({ rows, cols, values }); L0: the threshold's scale (a quarter of the positions training uses).
 */
export function fireCurves(layer, i, L0) {
  const wIn = layer['in.weight'].values;
  const bIn = layer['in.bias'].values;
  const wOut = layer['out.weight'].values;
  const heads = layer['out.weight'].cols;
  const c = Math.abs(layer.c.values[0]);
  const L = Math.abs(layer.threshold.values[0] * L0);
  const psiQ = Math.log1p(c * Math.max(L, i));
  const out = Array.from({ length: heads }, (_, head) => ({ head, x: [], y: [] }));
  for (let d = 0; d <= i; d++) {
    const x = Math.log1p(c * d) / (psiQ + EPS);
    const b = new Float64Array(heads);
    for (let w = 0; w < WIDTH; w++) {
      const pre = wIn[w] * x + bIn[w];
      if (pre <= 0) continue;
      for (let hd = 0; hd < heads; hd++) b[hd] += pre * wOut[w * heads + hd];
    }
    for (let hd = 0; hd < heads; hd++) {
      out[hd].x.push(d);
      out[hd].y.push(b[hd]);
    }
  }
  return out;
}

const CLASSES = ['a', 'b', 'c', 'head-3', 'head-4', 'head-5', 'head-6', 'head-7'];

/** text: { x, y, series(layer, head, query), trained, alt(vars) } — the caller's catalog. */
export function fireFigure(m, text) {
  const caption = h('figcaption', {});
  const figure = h('figure', { class: 'train-fig train-fire' }, caption);
  const plot = new LinePlot(figure, {
    xLabel: text.x, yLabel: text.y, label: '', format: tickLabel(m), cursorY: (v) => m.fixed(v, 3), keysHint: m.t('page.plotKeys'),
  });
  return {
    el: figure,
    /** layers: FIRE's tensors per layer; queries: [near, far] query positions; L0; trainedDistance; captionText. */
    draw(layers, { queries, L0, trainedDistance, captionText }) {
      const curves = [];
      layers.forEach((layer, l) => queries.forEach((q, k) => {
        for (const c of fireCurves(layer, q, L0)) curves.push({ ...c, layer: l, query: q, far: k > 0 });
      }));
      const ys = curves.flatMap((c) => c.y);
      const lo = Math.min(0, ...ys);
      const hi = Math.max(0, ...ys);
      const pad = (hi - lo) * 0.08 || 0.1;
      const heads = curves.filter((c) => c.layer === 0 && !c.far).length;
      plot.draw({
        xDomain: [0, Math.max(...queries)], yDomain: [lo - pad, hi + pad],
        series: curves.map((c, k) => ({
          x: c.x, y: c.y, cls: `head ${CLASSES[(c.layer * heads + c.head) % CLASSES.length]}${c.far ? ' far' : ''}`,
          points: k === 0, cursor: k === 0, label: text.series(c.layer + 1, c.head + 1, c.query),
        })),
        vlines: [{ x: trainedDistance, cls: 'n', label: text.trained }],
      });
      caption.textContent = captionText;
      plot.svg.setAttribute('aria-label', text.alt({
        curves: curves.length, max: Math.max(...queries), trained: trainedDistance,
        ends: curves.map((c) => `${text.series(c.layer + 1, c.head + 1, c.query)}: ${m.fixed(c.y[0], 2)} → ${m.fixed(c.y.at(-1), 2)}`).join(m.listSep + ' '),
      }));
      return curves;
    },
  };
}
