// Step 7: embedding plus position, worked by hand. One token embedding e (d = 4, the seed's
// [0.51, −0.22, 0.88, 0.14]) plus the sinusoidal code of its position from core.sinusoidal
// (d = 4, base 10000) gives the vector the first layer reads, x = e + PE(pos), element by
// element. A second position gives x′ = e + PE(pos′): the same token, another input vector;
// the readout is the distance |x − x′|. A small schematic says where the addition happens
// (once, at the input) and where RoPE acts instead (inside every attention layer). Two norm
// cards and a small table compare the lengths of embedding and code, here and at d = 512, where
// ‖PE‖ = √(d/2) = 16 meets an embedding of length about 1 unless it is scaled by √d. Every
// number comes from ./model.js; this file formats and draws.
import { h, mm } from '../../kit/dom.js';
import { VectorBars } from '../../kit/bars.js';
import { math, mi, mn, mo, mrow, msub } from '../../kit/math.js';
import { paramSlider } from '../../kit/controls.js';
import { quietReadoutRow, readout, readoutRow } from '../../kit/readout.js';
import { paragraphs, stepFrame } from '../../kit/step.js';
import { D, EMBEDDING, MAX_POS, WIDE, embeddingPlusPositionModel } from './model.js';

export const id = 'embedding-plus-position';
const LIMIT = 2;                               // |e + PE| < 0.88 + 1 on every dimension

export const params = {
  pos: { type: 'int', min: 0, max: MAX_POS, default: 0 },
  other: { type: 'int', min: 0, max: MAX_POS, default: 5 },
};

const vec = (sym, sub) => (sub ? msub(mi(sym), sub) : mi(sym));
const call = (name, ...arg) => mrow(mi(name), mo('('), ...arg, mo(')'));
// Column vectors as a bracketed table (CSS draws the brackets: stretchy glyphs need a math font).
const column = (cells) => mm('mtable', { class: 'bracketed' }, ...cells.map((c) => mm('mtr', {}, mm('mtd', {}, c))));

export function mount(root, { core, m, values, setter, index, total }) {
  const slots = stepFrame(root, m, { id, index, total, downloads: 'deeper' });
  const model = embeddingPlusPositionModel(core);

  const controls = {
    pos: paramSlider(params, 'pos', { label: m.t('embedding-plus-position.pos'), values, onInput: (v) => set({ pos: v }) }),
    other: paramSlider(params, 'other', { label: m.t('embedding-plus-position.other'), values, onInput: (v) => set({ other: v }) }),
  };
  slots.controls.append(controls.pos.el, controls.other.el);

  // The formulas: the sum (over the table), and what PE(pos) holds for d = 4 (in the fold).
  const slow = () => mrow(mi('pos'), mo('/'), mn('100'));
  const sumFormula = h('div', { class: 'formula epp-formulas' },
    h('div', {}, math(m.t('embedding-plus-position.formulaSum'),
      vec('x'), mo('='), vec('e'), mo('+'), call('PE', mi('pos')))));
  const peFormula = h('div', { class: 'formula epp-formulas' },
    h('div', {}, math(m.t('embedding-plus-position.formulaPe'),
      call('PE', mi('pos')), mo('='),
      column([call('sin', mi('pos')), call('cos', mi('pos')), call('sin', slow()), call('cos', slow())]))));

  // The three vectors aligned, element by element, and the second input beside them.
  const grid = h('table', { class: 'epp-table' });
  const gridWrap = h('div', { class: 'epp-table-wrap table-scroller' }, grid);

  // Figure 1: e, PE(pos) and their sum as bars; figure 2: the inputs at the two positions.
  const sumFig = h('figure', { class: 'epp-fig epp-sum' }, h('figcaption', {}, m.t('embedding-plus-position.sumCaption')));
  const sumBars = new VectorBars(sumFig, { label: '' });
  sumFig.append(h('p', { class: 'epp-axis' }, m.t('embedding-plus-position.axis')));
  const pairFig = h('figure', { class: 'epp-fig epp-pair' }, h('figcaption', {}, m.t('embedding-plus-position.pairCaption')));
  const pairBars = new VectorBars(pairFig, { label: '' });
  pairFig.append(h('p', { class: 'epp-axis' }, m.t('embedding-plus-position.axis')));

  // Lengths at the original model's width: the code's norm against an embedding's at init.
  const wideCells = {
    pe: h('td', { 'data-readout': 'norm-pe-512' }),
    e: h('td', { 'data-readout': 'norm-e-512' }),
    scaled: h('td', { 'data-readout': 'norm-scaled-512' }),
  };
  const wideCaption = h('caption', {});
  const wide = h('div', { class: 'epp-table-wrap table-scroller' }, h('table', { class: 'epp-norms' }, wideCaption,
    h('tbody', {}, ['pe', 'e', 'scaled'].map((k) => h('tr', {},
      h('th', { scope: 'row' }, m.t(`embedding-plus-position.norm.${k}`, { d: WIDE })), wideCells[k])))));

  const out = {
    x: Array.from({ length: D }, (_, d) => readout(`x${d}`, m.t('embedding-plus-position.element', { d }))),
    distance: readout('distance', m.t('embedding-plus-position.distance')),
    normE: readout('norm-e', m.t('embedding-plus-position.normE')),
    normPe: readout('norm-pe', m.t('embedding-plus-position.normPe')),
  };
  // Figure first: the sum, the table that works it element by element, the bars of it, and how
  // far apart the token's two inputs lie. The elements of x repeat the table's column: depth.
  slots.figure.append(sumFormula, gridWrap, sumFig);
  slots.readouts.append(readoutRow(out.distance));
  paragraphs(slots.notes, m, 'embedding-plus-position.notes');
  // The fold, each figure beside the paragraph that reads it: the fast and slow pairs, the two
  // inputs, the lengths (here and at d = 512), where in the network the sum happens.
  const [pairs, lengths, where] = m.paras('embedding-plus-position.deeper');
  slots.deeper.append(
    peFormula, h('p', {}, pairs),
    quietReadoutRow(...out.x), h('div', { class: 'epp-figs' }, pairFig),
    quietReadoutRow(out.normE, out.normPe), h('p', {}, lengths), wide,
    h('p', {}, where), whereItHappens(m));

  let shown = null;  // the vectors on screen, for the CSV export

  function render() {
    const { pos, other } = values;
    const { p, q, x, y, distance, normE: nE, normPe: nPe, wide: wideValues } = model.readout({ pos, other });
    shown = { pos, other, p, q, x, y };
    const f = (v) => m.fixed(v, 2);
    const list = (v) => `[${v.map(f).join(`${m.listSep} `)}]`;

    const th = (text, cls) => h('th', { scope: 'col', class: cls }, text);
    grid.replaceChildren(
      h('caption', {}, m.t('embedding-plus-position.tableCaption', { pos, other })),
      h('thead', {}, h('tr', {},
        th(m.t('embedding-plus-position.colDim')),
        th(m.t('embedding-plus-position.colE'), 'e'),
        h('th', { class: 'op', 'aria-hidden': 'true' }, '+'),
        th(m.t('embedding-plus-position.colPe', { pos }), 'pe'),
        h('th', { class: 'op', 'aria-hidden': 'true' }, '='),
        th(m.t('embedding-plus-position.colX', { pos }), 'x'),
        th(m.t('embedding-plus-position.colX2', { other }), 'x2'),
        th(m.t('embedding-plus-position.colDiff'), 'diff'))),
      h('tbody', {}, EMBEDDING.map((e, d) => h('tr', {},
        h('th', { scope: 'row' }, m.t(`embedding-plus-position.dim${d}`)),
        h('td', { class: 'e' }, f(e)),
        h('td', { class: 'op', 'aria-hidden': 'true' }, '+'),
        h('td', { class: 'pe' }, f(p[d])),
        h('td', { class: 'op', 'aria-hidden': 'true' }, '='),
        h('td', { class: 'x' }, f(x[d])),
        h('td', { class: 'x2' }, f(y[d])),
        h('td', { class: 'diff' }, f(x[d] - y[d]))))),
    );

    sumBars.draw([
      { values: EMBEDDING, cls: 'c', label: m.t('embedding-plus-position.legendE') },
      { values: p, cls: 'b', label: m.t('embedding-plus-position.legendPe', { pos }) },
      { values: x, cls: 'a', label: m.t('embedding-plus-position.legendX', { pos }) },
    ], LIMIT);
    sumBars.svg.setAttribute('aria-label', m.t('embedding-plus-position.sumAlt', { pos, e: list(EMBEDDING), pe: list(p), x: list(x) }));
    pairBars.draw([
      { values: x, cls: 'a', label: m.t('embedding-plus-position.legendX', { pos }) },
      { values: y, cls: 'b', label: m.t('embedding-plus-position.legendX2', { other }) },
    ], LIMIT);
    pairBars.svg.setAttribute('aria-label', m.t(pos === other ? 'embedding-plus-position.pairAltSame' : 'embedding-plus-position.pairAlt', {
      pos, other, x: list(x), y: list(y), distance: f(distance),
    }));

    x.forEach((v, d) => out.x[d].set(f(v), v));
    out.distance.set(f(distance), distance);
    out.normE.set(f(nE), nE);
    out.normPe.set(f(nPe), nPe);
    for (const [k, cell] of Object.entries(wideCells)) {
      cell.textContent = f(wideValues[k]);
      cell.dataset.value = String(wideValues[k]);
    }
    wideCaption.textContent = m.t('embedding-plus-position.normCaption', { d: WIDE, pos });
    controls.pos.set(pos);
    controls.other.set(other);
  }

  const set = setter(render);  // patch the values, redraw (timed), write the URL

  render();
  return {
    tables: () => [{
      name: 'vectors', label: m.t('embedding-plus-position.csvVectors'),
      header: ['dim', 'e', `PE(${shown.pos})`, `x=e+PE(${shown.pos})`, `PE(${shown.other})`, `x'=e+PE(${shown.other})`],
      rows: EMBEDDING.map((e, d) => [d, e, shown.p[d], shown.x[d], shown.q[d], shown.y[d]]),
    }],
  };
}

/** Where the position enters: once before layer 1 (sinusoidal, learned) or in every layer (RoPE). */
function whereItHappens(m) {
  const box = (text, cls = '') => h('li', { class: 'epp-step' }, h('span', { class: `epp-box ${cls}` }, text));
  const flow = (name, label, items) => h('div', { class: `epp-flow ${name}` },
    h('p', { class: 'epp-flow-title' }, label),
    h('ol', { class: 'epp-chain' }, items));
  const k = (key) => m.t(`embedding-plus-position.flow.${key}`);
  return h('figure', { class: 'epp-where' },
    h('figcaption', {}, k('caption')),
    flow('absolute', k('absolute'), [
      box(k('tokens')), box(k('embed')), box(k('addPe'), 'mark'), box(k('layer1')), box(k('layer2')), box(k('dots'), 'dots'), box(k('layerN')),
    ]),
    flow('rotary', k('rope'), [
      box(k('tokens')), box(k('embed')), box(k('layer1Rope'), 'mark'), box(k('layer2Rope'), 'mark'), box(k('dots'), 'dots'), box(k('layerNRope'), 'mark'),
    ]));
}
