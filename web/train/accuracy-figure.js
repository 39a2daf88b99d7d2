// Accuracy against test length: one curve per family (the mean over seeds) inside a band from
// the lowest to the highest seed, the longest training length marked. Exact match or per token.
// The keyboard cursor walks the family chosen for a closer look (its points carry class 'a').
import { h } from '../kit/dom.js';
import { LinePlot } from '../kit/lineplot.js';
import { tickLabel } from '../kit/ticks.js';
import { accuracyByLength, familiesWithRuns, learned, longestTraining } from './aggregate.js';
import { familyClass, familyName } from './families.js';

export function accuracyFigure(m) {
  const caption = h('figcaption', {});
  const figure = h('figure', { class: 'train-fig train-accuracy' }, caption);
  const plot = new LinePlot(figure, {
    xLabel: m.t('train.accX'), yLabel: m.t('train.accY'), label: '',
    format: tickLabel(m), cursorY: (v) => m.fixed(v, 1), keysHint: m.t('page.plotKeys'),
  });
  return {
    el: figure,
    plot,
    /** Works out the curves of `set` for `metric` now (for idle time), for a later draw. */
    prepare(set, metric) {
      for (const f of familiesWithRuns(set)) accuracyByLength(set, f, metric);
    },
    /** The set's curves for `metric`; `focus` is the family the cursor walks. */
    draw(set, { metric, focus }) {
      const families = familiesWithRuns(set);
      const longest = longestTraining(set.config);
      const curves = families.map((f) => ({ family: f, ...accuracyByLength(set, f, metric) }));
      const pct = (a) => a.map((v) => 100 * v);
      const cursor = families.includes(focus) ? focus : families[0];
      const maxLength = Math.max(...set.config.testLengths);
      caption.textContent = m.t(metric === 'exact' ? 'train.accCaptionExact' : 'train.accCaptionTokens');
      plot.draw({
        xDomain: [Math.min(...set.config.testLengths), maxLength], yDomain: [0, 100],
        // A family that did not learn the task is drawn faint, without its band, and named so.
        bands: curves.filter((c) => learned(set, c.family)).map((c) => ({ x: c.lengths, lo: pct(c.min), hi: pct(c.max), cls: familyClass(c.family) })),
        series: curves.map((c) => ({
          x: c.lengths, y: pct(c.mean), points: true, cursor: c.family === cursor,
          cls: `${familyClass(c.family)}${c.family === cursor ? ' a' : ''}${learned(set, c.family) ? '' : ' unlearned'}`,
          label: learned(set, c.family) ? familyName(m, c.family) : m.t('train.unlearnedLabel', { family: familyName(m, c.family) }),
        })),
        // Half-way up, left of its line: within the trained lengths the curves run near 100 %, and
        // past them they fall through the middle.
        vlines: [{ x: longest, cls: 'n', label: m.t('train.accTrained', { n: longest }), labelY: 50, anchor: 'end' }],
      });
      const at = (c, n) => c.mean[c.lengths.indexOf(n)];
      const twice = set.config.testLengths.includes(2 * longest) ? 2 * longest : maxLength;
      plot.svg.setAttribute('aria-label', m.t('train.accAlt', {
        metric: m.t(metric === 'exact' ? 'train.metricExact' : 'train.metricTokens'),
        longest, max: maxLength, cursor: familyName(m, cursor), twice,
        values: curves.map((c) => `${familyName(m, c.family)} ${m.fixed(100 * at(c, longest), 0)} → ${m.fixed(100 * at(c, twice), 0)}`).join(m.listSep + ' '),
      }));
      return curves;
    },
  };
}
