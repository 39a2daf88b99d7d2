// The table: accuracy of each family at 1×, 1.5×, 2× and 4× the longest training length, the
// mean over the seeds that learned the task (aggregate.js) with the lowest and highest in
// brackets; a family that did not learn it in some or all seeds says so by its name. Each cell keeps its exact shares
// in data-mean, data-min and data-max (for the tests and the CSV).
import { h } from '../kit/dom.js';
import { accuracyTable, fitCount, MULTIPLES } from './aggregate.js';
import { familyName } from './families.js';

export function accuracyTableView(m) {
  const table = h('table', { class: 'train-table' });
  const wrap = h('div', { class: 'train-table-wrap table-scroller' }, table);
  const pct = (v) => m.t('train.percent', { value: m.fixed(100 * v, 0) });
  // The table of each set and metric, built once and kept (until the set gains runs): going back
  // to a task puts its rows back instead of building them again.
  const built = new WeakMap();  // set → { count, tables: Map(metric → { rows, parts }) }
  return {
    el: wrap,
    table,
    /** Before a set is on screen (the reference run still loading, or missing): why, in the table. */
    empty(text) {
      table.replaceChildren(h('caption', {}, m.t('train.tableCaptionExact')),
        h('tbody', {}, h('tr', {}, h('td', { class: 'train-table-empty' }, text))));
    },
    draw(set, metric) {
      const { rows, parts } = tableOf(set, metric);
      table.replaceChildren(...parts);
      return rows;
    },
    /** Builds the table of `set` and `metric` now (for idle time), for a later draw to show. */
    prepare(set, metric) {
      tableOf(set, metric);
    },
  };

  function tableOf(set, metric) {
    let k = built.get(set);
    if (!k || k.count !== set.runs.length) built.set(set, k = { count: set.runs.length, tables: new Map() });
    if (!k.tables.has(metric)) k.tables.set(metric, build(set, accuracyTable(set, metric), metric));
    return k.tables.get(metric);
  }

  /** { rows, parts }: the caption, head and body of the table of `rows`. */
  function build(set, rows, metric) {
    const lengths = rows[0]?.cells.map((c) => c.length) ?? [];
    const parts = [
      h('caption', {}, m.t(metric === 'exact' ? 'train.tableCaptionExact' : 'train.tableCaptionTokens')),
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col' }, m.t('train.tableFamily')),
        MULTIPLES.map((k, i) => h('th', { scope: 'col' },
          h('span', { class: 'train-th-multiple' }, m.t('train.tableMultiple', { multiple: m.fixed(k, Number.isInteger(k) ? 0 : 1) })), ' ',
          h('span', { class: 'train-th-length' }, m.t('train.tableLength', { length: lengths[i] ?? '' })))))),
      h('tbody', {}, rows.map((row) => {
        const { fit, of } = fitCount(set, row.family);
        return h('tr', { 'data-family': row.family, 'data-fit': fit, 'data-of': of, class: fit ? null : 'unlearned' },
        h('th', { scope: 'row' }, familyName(m, row.family),
          // A family that did not learn the task in every seed: how many did (the cells are over those).
          fit === 0 ? h('span', { class: 'train-fix-note' }, ` ${m.t('train.didNotLearn')}`)
            : fit < of ? h('span', { class: 'train-fix-note' }, ` ${m.t('train.learnedIn', { fit, of })}`) : null),
        row.cells.map((c) => (c.n
          ? h('td', { 'data-length': c.length, 'data-mean': c.mean, 'data-min': c.min, 'data-max': c.max, 'data-seeds': c.n },
            h('span', { class: 'train-cell-mean' }, pct(c.mean)),
            c.n > 1 ? h('span', { class: 'train-cell-range' }, ` ${m.t('train.range', { min: m.fixed(100 * c.min, 0), max: m.fixed(100 * c.max, 0) })}`) : null)
          : h('td', { 'data-length': c.length }, '—'))));
      })),
    ];
    return { rows, parts };
  }
}
