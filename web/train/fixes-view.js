// Plain against each fix (randomised positions, scalable softmax) for every family of the
// reference run on screen: a table whose cells are bars, exact match at twice the longest
// training length over the seeds that learned the task, with the lowest and highest seed and how
// many seeds learned it; then the sentences saying which fix moved which family, in most seeds
// (aggregate.js fixEffects). Every number is the set's; nothing here states a result.
import { h } from '../kit/dom.js';
import { accuracyAt, fitCount, familiesWithRuns, fixEffects, lengthAt, longestTraining } from './aggregate.js';
import { familyList, familyName, listFormat } from './families.js';

export const FIXES = ['random', 'ssmax'];
const MULTIPLE = 2;
const MOVE = 0.2;  // a fix "moved" a family when a seed's score changed by at least 20 points

export function fixesView(m, t) {
  const table = h('table', { class: 'train-table train-fixes-table' });
  // The sentences go on the step's first screen, the bars in its fold.
  const sentences = h('div', { class: 'train-summary train-fixes-summary' });
  const el = h('section', { class: 'train-fixes', 'aria-labelledby': 'train-fixes-title' },
    h('h3', { class: 'train-section-title', id: 'train-fixes-title' }, t('fixesTitle')),
    h('p', { class: 'train-fixes-note' }, t('fixesNote')),
    h('div', { class: 'train-table-wrap table-scroller' }, table));
  const pct = (v) => m.fixed(100 * v, 0);
  const built = new WeakMap();  // set → [table parts, sentences]

  function cell(set, family, length) {
    const { fit, of } = fitCount(set, family);
    const a = accuracyAt(set, family, length, 'exact');
    if (!fit || !a) {
      return h('td', { class: 'train-fix-cell unlearned', 'data-fit': fit, 'data-of': of },
        h('span', { class: 'train-fix-note' }, t('didNotLearn')));
    }
    // Widths through the CSSOM: the page's Content Security Policy refuses style attributes.
    const range = h('span', { class: 'train-fix-range' });
    range.style.left = `${100 * a.min}%`;
    range.style.width = `${100 * (a.max - a.min)}%`;
    const mean = h('span', { class: 'train-fix-mean' });
    mean.style.width = `${100 * a.mean}%`;
    const bar = h('span', { class: 'train-fix-bar', 'aria-hidden': 'true' }, mean, range);
    return h('td', { class: 'train-fix-cell', 'data-mean': a.mean, 'data-min': a.min, 'data-max': a.max, 'data-fit': fit, 'data-of': of },
      bar,
      h('span', { class: 'train-cell-mean' }, t('percent', { value: pct(a.mean) })),
      // A break allowed after the dash (a zero-width space): on a phone "(100–100)" may take two lines.
      a.n > 1 ? h('span', { class: 'train-cell-range' }, ` ${t('range', { min: pct(a.min), max: `\u200b${pct(a.max)}` })}`) : null,
      fit < of ? h('span', { class: 'train-fix-note' }, ` ${t('learnedIn', { fit, of })}`) : null);
  }

  function build(set) {
    const fixes = FIXES.filter((f) => set.fixes?.[f]);
    const length = lengthAt(set.config, MULTIPLE);
    const columns = [set, ...fixes.map((f) => set.fixes[f])];
    const parts = [
      h('caption', {}, t('fixesCaption', { length, longest: longestTraining(set.config) })),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('tableFamily')),
        ['plain', ...fixes].map((f) => h('th', { scope: 'col', 'data-fix': f }, t(`fix.${f}`))))),
      h('tbody', {}, familiesWithRuns(set).map((family) => h('tr', { 'data-family': family },
        h('th', { scope: 'row' }, familyName(m, family)),
        columns.map((s) => cell(s, family, length))))),
    ];
    const list = (items) => familyList(m, items, t('nobody'));
    const moves = (items) => listFormat(m).format(items.map((x) => t('fixMove', {
      family: familyName(m, x.family), from: pct(x.from), to: pct(x.to), seeds: x.seeds, of: x.of,
    })));
    const paras = [];
    for (const fix of fixes) {
      const e = fixEffects(set, set.fixes[fix], MULTIPLE, { by: MOVE });
      const name = t(`fix.${fix}`);
      if (e.up.length) paras.push(t('fixUp', { fix: name, length, list: moves(e.up) }));
      if (e.down.length) paras.push(t('fixDown', { fix: name, length, list: moves(e.down) }));
      if (!e.up.length && !e.down.length) paras.push(t('fixNoMove', { fix: name, length }));
      if (e.unfit.length) paras.push(t('fixUnfit', { fix: name, list: list(e.unfit) }));
    }
    // A fix the reference run did not reach for this task is named, not left out silently.
    const absent = FIXES.filter((f) => !set.fixes?.[f]);
    if (absent.length) paras.push(t('fixesNotReached', { list: listFormat(m).format(absent.map((f) => t(`fix.${f}`))) }));
    return [parts, [h('h4', {}, t('fixesSummaryTitle')), ...paras.map((p) => h('p', {}, p))]];
  }

  return {
    el,
    sentences,
    /** Shows `set`'s fixes; a set without any (the reader's, or a task run plain only) hides the section. */
    draw(set) {
      const show = Boolean(set && set.source === 'reference');
      el.hidden = sentences.hidden = !show;
      if (!show) return;
      if (!built.has(set)) built.set(set, build(set));
      const [parts, paras] = built.get(set);
      table.replaceChildren(...parts);
      sentences.replaceChildren(...paras);
    },
    prepare(set) {
      if (set?.source === 'reference' && !built.has(set)) built.set(set, build(set));
    },
  };
}
