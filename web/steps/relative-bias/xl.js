// Step "relative-bias", the Transformer-XL panel: the score's four terms for seeded example
// vectors (model.js) as a waterfall and against every key.
import { h } from '../../kit/dom.js';
import { paramSlider } from '../../kit/controls.js';
import { signed } from '../../kit/format.js';
import { LinePlot } from '../../kit/lineplot.js';
import { tickLabel } from '../../kit/ticks.js';
import { math, mi, mn, mo, mrow, mtext } from '../../kit/math.js';
import { readout, readoutRow } from '../../kit/readout.js';
import { Waterfall } from '../../kit/waterfall.js';
import { fence, sub } from './shared.js';
import { XL_BASE, XL_DIM, XL_LEN } from './model.js';

export function xlPanel({ model, m, params, values, set, t }) {
  const f2 = (v) => m.fixed(v, 2);
  const controls = {
    xi: paramSlider(params, 'xi', { label: t('xl.i'), values, onInput: (v) => set({ xi: v }) }),
    xj: paramSlider(params, 'xj', { label: t('xl.j'), values, onInput: (v) => set({ xj: v }) }),
    seed: paramSlider(params, 'seed', { label: t('xl.seed'), values, onInput: (v) => set({ seed: v }) }),
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
  const waterfall = new Waterfall(barsFig, { format: f2, className: 'rb-waterfall' });
  const plotFig = h('figure', { class: 'rb-fig rb-xl-plot' }, h('figcaption', {}, t('xl.plotCaption', { last: XL_LEN - 1 })));
  const plot = new LinePlot(plotFig, {
    xLabel: t('xl.plotX'), yLabel: t('xl.plotY'), label: '', format: tickLabel(m),
    cursorY: f2, keysHint: m.t('page.plotKeys'),
  });
  // The formula and the four terms as a waterfall; the same sum with the current numbers, the
  // terms' cards (the waterfall's numbers), the terms against every key and the note: depth.
  const figure = h('div', { class: 'rb-method rb-xl' }, formula, h('div', { class: 'rb-figs rb-stack' }, barsFig));
  const deeper = [now, readoutRow(...TERMS.map((name) => out[name])), h('div', { class: 'rb-figs rb-stack' }, plotFig),
    h('p', { class: 'rb-panel-note' }, t('xl.note', { d: XL_DIM, base: XL_BASE }))];

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
    const x = model.xl(values);
    const { terms, sum, lo, hi } = x;
    const one = { score: x.score };

    // Two halves, as the formula above: on a phone the sum of four signed terms was 339 px in 323.
    const term = (v) => (v < 0 ? fence(mn(f2(v))) : mn(f2(v)));
    const rest = math('', mo('+'), term(terms[2]), mo('+'), term(terms[3]), mo('='), mn(f2(one.score)));
    rest.removeAttribute('aria-label');
    rest.setAttribute('aria-hidden', 'true');
    now.replaceChildren(math(t('xl.formulaNowLabel', { i: xi, j: xj, score: f2(one.score) }),
      sub('A', mrow(mn(String(xi)), mo(','), mn(String(xj)))), mo('='), term(terms[0]), mo('+'), term(terms[1])), rest);

    waterfall.draw({
      rows: TERMS.map((name, n) => ({ label: t(`xl.short${name.toUpperCase()}`), value: terms[n], cls: `t${name}` })),
      total: { label: t('xl.shortScore'), value: one.score, cls: 'tsum' },
    });
    waterfall.svg.setAttribute('aria-label', t('xl.barsAlt', {
      i: xi, j: xj, a: f2(terms[0]), b: f2(terms[1]), c: f2(terms[2]), d: f2(terms[3]), score: f2(one.score),
    }));

    const keys = Float64Array.from({ length: XL_LEN }, (_, c) => c);
    plot.draw({
      xDomain: [0, XL_LEN - 1], yDomain: [lo, hi],
      vlines: [{ x: xi, cls: 'n', label: t('xl.plotDiagonal') }],
      series: [
        { x: keys, y: sum, cls: 'a', points: true, label: t('xl.shortScore') },
        ...TERMS.map((name, n) => ({ x: keys, y: x.columns[n], cls: `t${name}`, label: t(`xl.short${name.toUpperCase()}`) })),
      ],
      markers: [{ x: xj, y: sum[xj], cls: 'a' }],
    });
    plot.svg.setAttribute('aria-label', t('xl.plotAlt', { last: XL_LEN - 1, i: xi, j: xj, score: f2(sum[xj]), lo: f2(Math.min(...sum)), hi: f2(Math.max(...sum)) }));

    TERMS.forEach((name, n) => out[name].set(f2(terms[n]), terms[n]));
    out.score.set(f2(one.score), one.score);
    out.distance.set(signed(x.distance), x.distance);
    controls.xi.set(xi);
    controls.xj.set(xj);
    controls.seed.set(seed);
  }
  /** The CSVs: the four terms against every key, and the example vectors they come from. */
  const tables = () => {
    const { xi, xj } = values;
    const { row } = model.xl(values);
    const inputs = model.xlInputs(values);
    return [
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
    ];
  };
  return { controls: Object.values(controls).map((c) => c.el), readouts: [out.score, out.distance], figure, deeper, render, tables };
}
