// Step: relative position as a learned term of the attention score. Three schemes behind three
// tabs (URL: method=shaw|xl|t5), each a panel with its own controls, figures, readouts and CSV
// (web/steps/relative-bias/{shaw,xl,t5}.js):
//   Shaw et al. 2018   clip(j − i, −k, k) indexes 2k + 1 learned vectors: core.shawIndex
//   Transformer-XL     the score's four terms for seeded example vectors: core.transformerXlTerms/Row
//   T5                 log-spaced buckets of key − query, one learned scalar each: core.t5Bucket
// (through model.js, which computes every number the panels show).
// Each panel's depth (its worked formula, its note, a second figure) opens in the Go deeper fold,
// above the cost note (per-head tables, work per score, the KV cache) the three share.
//
// Only the current scheme's controls, figure and readouts are in the document: the page-wide
// tests operate every control and focus every plot they find. All three figures are built at
// mount, so the page's Save PNG buttons are added to each; the two others are taken out right
// after (a microtask: app.js adds the buttons synchronously after mount() returns).
import { h } from '../../kit/dom.js';
import { readoutRow } from '../../kit/readout.js';
import { stackOnPhone } from '../../kit/stacktable.js';
import { paragraphs, stepFrame } from '../../kit/step.js';
import { tabStrip } from '../../kit/tabs.js';
import { SHAW_LEN, T5_LEN, XL_LEN, exactCount, relativeBiasModel } from './model.js';
import { shawPanel } from './shaw.js';
import { t5Panel } from './t5.js';
import { xlPanel } from './xl.js';

export const id = 'relative-bias';
const METHODS = ['shaw', 'xl', 't5'];

export const params = {
  method: { type: 'enum', values: METHODS, default: 'shaw' },
  k: { type: 'int', min: 0, max: SHAW_LEN - 1, default: 3 },
  i: { type: 'int', min: 0, max: SHAW_LEN - 1, default: 9 },
  j: { type: 'int', min: 0, max: SHAW_LEN - 1, default: 4 },
  xi: { type: 'int', min: 0, max: XL_LEN - 1, default: 12 },
  xj: { type: 'int', min: 0, max: XL_LEN - 1, default: 7 },
  seed: { type: 'int', min: 0, max: 99, default: 0 },
  len: { type: 'int', ...T5_LEN, default: 128 },
  nb: { type: 'int', min: 4, max: 128, step: 2, default: 32 },  // even: half per direction
  bidir: { type: 'bool', default: true },
  // Above the exact range: the core rejects maxd <= exact (its log would be 0 or negative).
  maxd: { type: 'int', min: (v) => exactCount(v.nb, v.bidir) + 1, max: 1024, default: 128 },
  ti: { type: 'int', min: 0, max: (v) => v.len - 1, default: 60 },
  tj: { type: 'int', min: 0, max: (v) => v.len - 1, default: 40 },
  // The train step's trained T5 biases beside the buckets (their data loads when switched on).
  trained: { type: 'bool', default: false },
};

export function mount(root, { core, m, values, setter, index, total, train }) {
  const slots = stepFrame(root, m, { id, index, total, downloads: 'deeper' });
  const t = (key, vars) => m.t(`relative-bias.${key}`, vars);

  // [TABS] ---------------------------------------------------------------------------------------
  const workbench = root.querySelector('.workbench');
  workbench.id = `${id}-panel`;
  const tabs = tabStrip({
    names: METHODS, panel: workbench, label: t('tabsLabel'), idPrefix: `${id}-tab`,
    className: 'rb-tabs', tabClass: 'rb-tab', dataKey: 'method',
    content: (name) => [h('span', { class: 'rb-tab-name' }, t(`tab.${name}`)), h('span', { class: 'rb-tab-year' }, t(`tab.${name}Year`))],
    onSelect: (name) => set({ method: name }),
  });
  workbench.before(tabs.el);

  const readoutsRow = readoutRow();
  slots.readouts.append(readoutsRow);
  const panelDeeper = h('div', { class: 'rb-deeper' });  // the current scheme's part of the fold

  // A panel's controls call set() only after mount has defined it below.
  const model = relativeBiasModel(core);  // the numbers (model.js); the panels draw them
  const context = { core, model, m, params, values, set: (patch) => set(patch), t, train };
  const panels = { shaw: shawPanel(context), xl: xlPanel(context), t5: t5Panel(context) };

  // [SWITCHING] ------------------------------------------------------------------------------------
  let shown = null;
  function showMethod(method) {
    if (shown === method) return;
    shown = method;
    const p = panels[method];
    slots.controls.replaceChildren(...p.controls);
    slots.figure.replaceChildren(p.figure);
    readoutsRow.replaceChildren(...p.readouts.map((r) => r.el));
    panelDeeper.replaceChildren(...p.deeper);
    tabs.select(method);
  }

  function render() {
    showMethod(values.method);
    panels[values.method].render();
  }

  const set = setter(render);  // patch the values, redraw (timed), write the URL

  // Every figure in the document once (Save PNG buttons), then only the current scheme's.
  slots.figure.replaceChildren(...METHODS.map((name) => panels[name].figure));
  panelDeeper.replaceChildren(...METHODS.flatMap((name) => panels[name].deeper));
  for (const name of METHODS) panels[name].render();
  queueMicrotask(() => {
    shown = null;
    render();
  });
  paragraphs(slots.notes, m, 'relative-bias.notes');
  // The fold: the three schemes' history, the current scheme's depth, then what they cost.
  const [history, ...cost] = m.paras('relative-bias.deeper');
  slots.deeper.append(h('p', {}, history), panelDeeper, ...cost.map((p) => h('p', {}, p)), costTable(t));

  return { tables: () => METHODS.flatMap((name) => panels[name].tables()) };
}

/** What each scheme learns, the work per score and what the KV cache holds. */
function costTable(t) {
  const cols = ['scheme', 'learned', 'work', 'cache'];
  const rows = ['shaw', 'xl', 't5', 'rope', 'alibi'];
  return h('div', { class: 'rb-cost-wrap table-scroller' }, stackOnPhone(h('table', { class: 'rb-cost' },
    h('caption', {}, t('cost.caption')),
    h('thead', {}, h('tr', {}, cols.map((c) => h('th', { scope: 'col' }, t(`cost.head.${c}`))))),
    h('tbody', {}, rows.map((r) => h('tr', {},
      h('th', { scope: 'row' }, t(`cost.${r}.scheme`)),
      cols.slice(1).map((c) => h('td', {}, t(`cost.${r}.${c}`)))))))));
}
