// Step 15: which positional encoding to use. Four questions (choice controls) go through a
// small pure function, recommend() (model.js), that returns a method and the rule that picked it;
// the step shows the recommendation with its reasons, a table comparing the families (the pick's
// row marked), and a plot of what the pick does with the distance between a query and a key
// (model.js, from the core), with the training length marked.
import { h } from '../../kit/dom.js';
import { LinePlot } from '../../kit/lineplot.js';
import { tickLabel } from '../../kit/ticks.js';
import { choice } from '../../kit/controls.js';
import { readout, readoutRow } from '../../kit/readout.js';
import { stackOnPhone } from '../../kit/stacktable.js';
import { paragraphs, stepFrame } from '../../kit/step.js';
import { FAMILIES, FAR, QUESTIONS, TRAIN, familyOf, recommend, signals as allSignals } from './model.js';

export const id = 'choose';

export const params = {
  data: { type: 'enum', values: QUESTIONS.data, default: 'text' },
  model: { type: 'enum', values: QUESTIONS.model, default: 'decoder' },
  length: { type: 'enum', values: QUESTIONS.length, default: 'fixed' },
  want: { type: 'enum', values: QUESTIONS.want, default: 'llm' },
};

const rowKey = (f) => (f === 'vision' ? 'choose.table.vision' : `families.${f}`);
const COLUMNS = ['where', 'extrapolation', 'params', 'usedBy'];

export function mount(root, { core, m, values, setter, index, total }) {
  const slots = stepFrame(root, m, { id, index, total, downloads: 'deeper' });

  const controls = Object.fromEntries(Object.entries(QUESTIONS).map(([name, options]) => [name, choice({
    name, label: m.t(`choose.q.${name}`), value: values[name],
    options: options.map((o) => ({ value: o, label: m.t(`choose.a.${name}.${o}`) })),
    onChange: (v) => set({ [name]: v }),
  })]));
  slots.controls.classList.add('choose-questions');
  slots.controls.append(...Object.values(controls).map((c) => c.el));

  // The answer: the method, the rule that chose it, the reasons.
  const answer = h('div', { class: 'choose-answer' });
  // The plot of the pick's position signal against distance.
  const plotFig = h('figure', { class: 'choose-plot' });
  const plotCaption = h('figcaption', {});
  plotFig.append(plotCaption);
  const plot = new LinePlot(plotFig, {
    xLabel: m.t('choose.plotX'), yLabel: '', label: '',
    format: tickLabel(m),
    cursorY: (v) => m.fixed(v, 2),
    keysHint: m.t('page.plotKeys'),
  });
  const plotNote = h('p', { class: 'choose-plot-note' });
  plotFig.append(plotNote);
  const table = comparisonTable(m);
  // Figure first: the pick and what it does with distance. The table of every family (the pick
  // marked) is depth: in the fold, after the paragraph that reads it.
  slots.figure.append(h('div', { class: 'choose-grid' }, answer, plotFig));

  const out = { method: readout('method', m.t('choose.method')) };
  slots.readouts.append(readoutRow(out.method));
  paragraphs(slots.notes, m, 'choose.notes');
  paragraphs(slots.deeper, m, 'choose.deeper');
  slots.deeper.append(table.wrap);

  // What the plot shows for every method, computed once here rather than on a click.
  const signals = allSignals(core);
  let shown = null;           // for the CSV export

  function render() {
    const { method, rule } = recommend(values);
    const name = m.t(`choose.name.${method}`);
    answer.replaceChildren(
      h('p', { class: 'choose-kicker' }, m.t('choose.pick')),
      h('p', { class: 'choose-name', 'data-method': method }, name),
      h('p', { class: 'choose-rule' }, m.t(`choose.rule.${rule}`)),
      ...m.paras(`choose.why.${method}`).map((p) => h('p', {}, p)),
    );

    const sig = signals.get(method);
    // The numbers the legend, the description and the note quote, formatted.
    const extra = { ...sig.vars, ...(sig.vars?.spread !== undefined && { spread: m.fixed(sig.vars.spread, 2) }) };
    shown = { method, sig };
    plotCaption.textContent = m.t(`choose.plotCaption.${method}`);
    plot.yLabel.textContent = m.t(`choose.plotY.${sig.y}`);
    plot.labels.y = plot.yLabel.textContent;
    plot.xLabel.textContent = m.t(method === 'vision' ? 'choose.plotXVision' : 'choose.plotX');
    plot.labels.x = plot.xLabel.textContent;
    plot.draw({
      xDomain: [0, FAR], yDomain: sig.yDomain,
      series: sig.series.map((s) => ({ ...s, label: m.t(`choose.legend.${s.key}`, extra) })),
      vlines: [{ x: TRAIN, cls: 'n', label: m.t('choose.trained', { n: TRAIN }) }],
    });
    const first = sig.series[0];
    const at = (k) => m.fixed(first.y[Math.min(k, first.y.length - 1)], 2);
    plot.svg.setAttribute('aria-label', m.t(`choose.plotAlt.${method}`, {
      far: FAR, train: TRAIN, last: TRAIN - 1, y0: at(0), y8: at(8), yTrain: at(TRAIN - 1), yFar: at(FAR), ...extra,
    }));
    plotNote.textContent = m.t(`choose.plotNote.${method}`, { n: TRAIN, far: FAR, train: TRAIN, ...extra });

    table.mark(familyOf(method));
    out.method.set(name, method);
    for (const [k, c] of Object.entries(controls)) c.set(values[k]);
  }

  const set = setter(render);  // patch the values, redraw (timed), write the URL

  render();
  return {
    tables: () => [{
      name: 'signal', label: m.t('choose.csvSignal'),
      header: ['distance', ...shown.sig.series.map((s) => s.key)],
      rows: Array.from({ length: FAR + 1 }, (_, k) => [k, ...shown.sig.series.map((s) => (k < s.y.length ? s.y[k] : ''))]),
    }],
  };
}

/** The comparison table; mark(family) highlights the recommended row. */
function comparisonTable(m) {
  const rows = new Map();
  const body = h('tbody', {}, FAMILIES.map((f) => {
    const badge = h('span', { class: 'choose-badge', hidden: true }, m.t('choose.table.picked'));
    const tr = h('tr', { 'data-family': f },
      h('th', { scope: 'row' }, m.t(rowKey(f)), badge),
      COLUMNS.map((c) => h('td', {}, m.t(`${rowKey(f)}.${c}`))));
    rows.set(f, { tr, badge });
    return tr;
  }));
  const wrap = h('div', { class: 'choose-table-wrap table-scroller' },
    stackOnPhone(h('table', { class: 'compare-table choose-table' },
      h('caption', {}, m.t('choose.table.caption')),
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col' }, m.t('choose.table.family')),
        COLUMNS.map((c) => h('th', { scope: 'col' }, m.t(`choose.table.${c}`))))),
      body)));
  return {
    wrap,
    mark(family) {
      for (const [f, { tr, badge }] of rows) {
        tr.classList.toggle('picked', f === family);
        badge.hidden = f !== family;
      }
    },
  };
}
