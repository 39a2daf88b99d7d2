// The loss curves: one per family (the mean over its seeds), training step against the batch's
// cross-entropy on a logarithmic axis (kit/logplot.js). Live while a set trains.
import { h } from '../kit/dom.js';
import { LogPlot } from '../kit/logplot.js';
import { ticks } from '../kit/ticks.js';
import { familyClass, familyName } from './families.js';

export function lossFigure(m) {
  const figure = h('figure', { class: 'train-fig train-loss' }, h('figcaption', {}, m.t('train.lossCaption')));
  // A phone gets a narrower drawing, so its labels stay readable when it shrinks to the screen.
  const narrow = globalThis.matchMedia?.('(max-width: 560px)').matches;
  const plot = new LogPlot(figure, {
    label: m.t('train.lossAltEmpty'), xLabel: m.t('train.lossX'), yLabel: m.t('train.lossY'),
    width: narrow ? 380 : 640, height: narrow ? 320 : 260,
    formatX: (v) => m.fixed(v, 0), formatY: (v) => m.fixed(v, v < 1 ? Math.ceil(-Math.log10(v)) : 0),
  });
  // The drawing of each kept set (its grid, curves, legend and text), put back when the set is
  // shown again instead of drawing its hundreds of points anew.
  const drawings = new WeakMap();  // set → { version, xd, yd, margin, grid, plot, legend, label }

  function drawCurves(curves, total) {
    let lo = Infinity;
    let hi = -Infinity;
    for (const c of curves) {
      for (const v of c.values) {
        if (v > 0 && v < lo) lo = v;
        if (v > 0 && v > hi) hi = v;
      }
    }
    if (hi < lo) [lo, hi] = [0.1, 10];  // no positive value
    const yDomain = [10 ** Math.floor(Math.log10(lo)), 10 ** Math.ceil(Math.log10(hi) + 1e-9)];
    plot.draw({
      xDomain: [0, total], yDomain, xTicks: ticks(0, total, narrow ? 4 : 6),
      series: curves.map((c) => ({ x: c.steps, y: c.values.map((v) => Math.max(v, yDomain[0])), cls: familyClass(c.family), label: familyName(m, c.family) })),
    });
    const last = curves.map((c) => `${familyName(m, c.family)} ${m.fixed(c.values.at(-1) ?? NaN, 3)}`).join(m.listSep + ' ');
    plot.svg.setAttribute('aria-label', curves.length
      ? m.t('train.lossAlt', { total: m.fixed(total, 0), last })
      : m.t('train.lossAltEmpty'));
  }

  return {
    el: figure,
    plot,
    /**
     * curves: [{ family, steps, values }] (values > 0); total: the steps of a full run. With
     * `kept` ({ set, version }: the curves are the set's as of that version), the drawing is kept
     * for the set and put back while the version is the same; live curves pass none.
     */
    draw(curves, total, kept = null) {
      const was = kept && drawings.get(kept.set);
      if (was && was.version === kept.version) {
        plot.xd = was.xd;
        plot.yd = was.yd;
        plot.margin = was.margin;
        plot.placeTitles();
        plot.grid.replaceChildren(...was.grid);
        plot.plot.replaceChildren(...was.plot);
        plot.legend.replaceChildren(...was.legend);
        plot.svg.setAttribute('aria-label', was.label);
        return;
      }
      if (kept) plot.resetMargin();  // a kept drawing must not depend on the one before it
      drawCurves(curves, total);
      if (kept) {
        // Copies: the plot's next drawing reuses and rewrites the nodes on screen (kit/svg-patch.js's
        // patch), so nodes kept as they are would show that drawing when put back.
        const copies = (el) => [...el.childNodes].map((n) => n.cloneNode(true));
        drawings.set(kept.set, {
          version: kept.version, xd: plot.xd, yd: plot.yd, margin: plot.margin, grid: copies(plot.grid), plot: copies(plot.plot),
          legend: copies(plot.legend), label: plot.svg.getAttribute('aria-label'),
        });
      }
    },
  };
}
