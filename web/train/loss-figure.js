// The loss curves: one per family (the mean over its seeds), training step against the batch's
// cross-entropy on a logarithmic axis (kit/logplot.js). Live while a set trains.
import { h } from '../kit/dom.js';
import { LogPlot } from '../kit/logplot.js';
import { ticks } from '../kit/lineplot.js';
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
  return {
    el: figure,
    plot,
    /** curves: [{ family, steps, values }] (values > 0); total: the steps of a full run. */
    draw(curves, total) {
      const all = curves.flatMap((c) => c.values).filter((v) => v > 0);
      const lo = all.length ? Math.min(...all) : 0.1;
      const hi = all.length ? Math.max(...all) : 10;
      const yDomain = [10 ** Math.floor(Math.log10(lo)), 10 ** Math.ceil(Math.log10(hi) + 1e-9)];
      plot.draw({
        xDomain: [0, total], yDomain, xTicks: ticks(0, total, narrow ? 4 : 6),
        series: curves.map((c) => ({ x: c.steps, y: c.values.map((v) => Math.max(v, yDomain[0])), cls: familyClass(c.family), label: familyName(m, c.family) })),
      });
      const last = curves.map((c) => `${familyName(m, c.family)} ${m.fixed(c.values.at(-1) ?? NaN, 3)}`).join(m.listSep + ' ');
      plot.svg.setAttribute('aria-label', curves.length
        ? m.t('train.lossAlt', { total: m.fixed(total, 0), last })
        : m.t('train.lossAltEmpty'));
    },
  };
}
