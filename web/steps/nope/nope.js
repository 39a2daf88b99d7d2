// Step 14: no positional encoding at all (NoPE). A sequence of identical tokens, so every score
// is the same; the attention weights come from core.attention with or without the causal mask
// (model.js computes every number; this file formats and draws).
// With the mask, row i spreads its weight evenly over the i + 1 tokens it may see, so the share
// of token 0 is 1/(i + 1) and a later layer can read i back from it. Without the mask every row
// is the same. The weaknesses: the gap 1/(i + 1) − 1/(i + 2) between neighbours shrinks, and
// reordering the earlier tokens (a second, small sentence of distinct words) changes nothing.
import { h } from '../../kit/dom.js';
import { LinePlot } from '../../kit/lineplot.js';
import { tickLabel } from '../../kit/ticks.js';
import { MatrixTable } from '../../kit/matrix.js';
import { math, mfrac, mi, mn, mo, mrow } from '../../kit/math.js';
import { paramSlider, toggle } from '../../kit/controls.js';
import { quietReadoutRow, readout, readoutRow } from '../../kit/readout.js';
import { paragraphs, stepFrame } from '../../kit/step.js';

import { MAX_LEN, QUERY, nopeModel } from './model.js';

export const id = 'nope';

export const params = {
  len: { type: 'int', min: 2, max: MAX_LEN, default: 6 },
  query: { type: 'int', min: 0, max: (v) => v.len - 1, default: 3 },
  causal: { type: 'bool', default: true },
  shuffle: { type: 'bool', default: false },
};

export function mount(root, { core, m, values, setter, index, total }) {
  const slots = stepFrame(root, m, { id, index, total, downloads: 'deeper' });
  const model = nopeModel(core);

  const controls = {
    len: paramSlider(params, 'len', { label: m.t('nope.len'), values, onInput: (v) => set({ len: v }) }),
    query: paramSlider(params, 'query', { label: m.t('nope.query'), values, onInput: (v) => set({ query: v }) }),
    causal: toggle({ name: 'causal', label: m.t('nope.causal'), checked: values.causal, onChange: (v) => set({ causal: v }) }),
  };
  slots.controls.append(controls.len.el, controls.query.el, controls.causal.el);

  // The weight of token 0 in row i, and the formula with the current numbers.
  const formula = h('div', { class: 'formula nope-formula' });
  const matrixBox = h('div', { class: 'nope-matrix' });
  const matrix = new MatrixTable(matrixBox, { label: '', prefix: 'w', corner: m.t('nope.corner') });
  const matrixNote = h('p', { class: 'nope-note' });
  const plotFig = h('figure', { class: 'nope-plot' }, h('figcaption', {}, m.t('nope.plotCaption')));
  const plot = new LinePlot(plotFig, {
    xLabel: m.t('nope.plotX'), yLabel: m.t('nope.plotY'), label: '',
    format: tickLabel(m),
    cursorY: (v) => m.fixed(v, 3),
    keysHint: m.t('page.plotKeys'),
  });
  // Figure first: the formula and the weights of identical tokens, with the share of token 0
  // and the position read back from it. The plot of every row (the clue weakening), the
  // reordering test and the other cards are depth, beside their paragraphs in the fold.
  slots.figure.append(formula,
    h('div', { class: 'nope-grid' },
      h('div', { class: 'nope-panel' }, h('h3', {}, m.t('nope.matrixTitle')),
        h('div', { class: 'nope-matrix-wrap' }, matrixBox), matrixNote)));

  const out = {
    share: readout('share', m.t('nope.share')),
    decoded: readout('decoded', m.t('nope.decoded')),
    gap: readout('gap', m.t('nope.gap')),
    rows: readout('rows', m.t('nope.rows')),
    change: readout('change', m.t('nope.change')),
  };

  // The reordering test: its own toggle, the words in order, their weights and the output.
  const shuffle = toggle({ name: 'shuffle', label: m.t('nope.shuffle'), checked: values.shuffle, onChange: (v) => set({ shuffle: v }) });
  const wordTable = h('table', { class: 'nope-words' });
  const outputLine = h('p', { class: 'nope-output' });
  const shuffleBox = h('div', { class: 'nope-shuffle' },
    h('h3', {}, m.t('nope.shuffleTitle')),
    h('p', { class: 'nope-note' }, m.t('nope.shuffleIntro')),
    h('div', { class: 'controls' }, shuffle.el),
    h('div', { class: 'nope-words-wrap' }, wordTable), outputLine);
  // Distinct rows in the live row: it answers the length slider and the mask toggle above the
  // map, where share and position (of query i) stay put; in the fold it left them unspoken.
  slots.readouts.append(readoutRow(out.share, out.decoded, out.rows));
  paragraphs(slots.notes, m, 'nope.notes');
  const [maskOff, weaker, bag, ...research] = m.paras('nope.deeper').map((p) => h('p', {}, p));
  slots.deeper.append(maskOff, weaker, h('div', { class: 'nope-panel' }, plotFig), quietReadoutRow(out.gap),
    bag, shuffleBox, quietReadoutRow(out.change), ...research);

  const word = (k) => m.t(`nope.word${k}`);
  const { plain, mixed, change } = model;

  let shown = null;  // the weights on screen (also for the CSV export)
  let drawnShuffle = null;

  function render() {
    const { len, causal } = values;
    const i = values.query;
    const f = (v, d = 2) => m.fixed(v, d);
    // The weights depend on the length and the mask only: computed and drawn when those change.
    const fresh = !shown || shown.len !== len || shown.causal !== causal;
    const st = model.state(values);
    shown = st;
    const { w: shownW, rowCount, shares, gaps, share, gap, decoded } = st;

    formula.replaceChildren(math(
      m.t(causal ? 'nope.formulaCausal' : 'nope.formulaFull', { i, len, share: f(share, 3) }),
      mi('w'), mo('('), mi('i'), mo('→'), mn('0'), mo(')'), mo('='),
      causal ? mfrac(mn('1'), mrow(mi('i'), mo('+'), mn('1'))) : mfrac(mn('1'), mi('n')),
      mo('='), mfrac(mn('1'), mn(String(causal ? i + 1 : len))), mo('='), mn(f(share, 3)),
    ));

    if (fresh) {
      const names = Array.from({ length: len }, (_, k) => String(k));
      matrix.draw({
        rows: names, cols: names, values: shownW, limit: 1,
        text: (v) => (v === 0 ? '·' : f(v)),
        describe: (r, c, v) => m.t(v === 0 ? 'nope.cellMasked' : 'nope.cell', { r, c, value: f(v) }),
      });
      matrix.setLabel(m.t(causal ? 'nope.matrixAltCausal' : 'nope.matrixAltFull', { len, last: len - 1, uniform: f(1 / len) }));
      matrixNote.textContent = m.t(causal ? 'nope.noteCausal' : 'nope.noteFull');
    }
    matrixBox.querySelectorAll('tbody tr').forEach((tr, r) => tr.classList.toggle('current', r === i));

    // The plot: token 0's share in every row, and the gap to the next row.
    const xs = Float64Array.from({ length: len }, (_, r) => r);
    plot.draw({
      xDomain: [-0.4, len - 1 + 0.4], yDomain: [0, 1],
      series: [
        { x: xs, y: shares, cls: 'a', points: true, label: m.t('nope.legendShare') },
        { x: xs, y: gaps, cls: 'b', points: true, label: m.t('nope.legendGap') },
      ],
      markers: [{ x: i, y: share, cls: 'a' }],
      vlines: [{ x: i, cls: 'n' }],
    });
    plot.svg.setAttribute('aria-label', m.t(causal ? 'nope.plotAltCausal' : 'nope.plotAltFull', {
      len, last: len - 1, i, share: f(share, 3), gap: f(gap, 3), end: f(shares[len - 1], 3), uniform: f(1 / len, 3),
    }));

    // The reordering test: redrawn when its toggle flips.
    if (values.shuffle !== drawnShuffle) {
      drawnShuffle = values.shuffle;
      const result = values.shuffle ? mixed : plain;
      const { order } = result;
      wordTable.replaceChildren(
        h('caption', {}, m.t('nope.wordsCaption', { query: word(QUERY) })),
        h('thead', {}, h('tr', {},
          h('th', { scope: 'col' }, m.t('nope.colPos')), h('th', { scope: 'col' }, m.t('nope.colWord')),
          h('th', { scope: 'col' }, m.t('nope.colWeight')))),
        h('tbody', {}, order.map((wd, p) => h('tr', { class: p === QUERY ? 'query' : '' },
          h('td', {}, String(p)), h('th', { scope: 'row' }, word(wd)), h('td', {}, f(result.row[p], 3))))),
      );
      outputLine.textContent = m.t('nope.output', {
        query: word(QUERY), a: f(result.output[0], 3), b: f(result.output[1], 3), change: f(change, 3),
      });
    }

    out.share.set(f(share, 3), share);
    out.decoded.set(f(decoded, 0), decoded);
    out.gap.set(f(gap, 3), gap);
    out.rows.set(m.fixed(rowCount, 0), rowCount);
    out.change.set(f(change, 3), change);
    controls.len.set(len);
    controls.query.set(i);
    controls.causal.set(causal);
    shuffle.set(values.shuffle);
  }

  const set = setter(render);  // patch the values, redraw (timed), write the URL

  render();
  return {
    tables: () => [
      {
        name: 'weights', label: m.t('nope.csvWeights'),
        header: ['query\\key', ...Array.from({ length: shown.len }, (_, c) => c)],
        rows: Array.from({ length: shown.len }, (_, r) => [r, ...shown.w.subarray(r * shown.len, (r + 1) * shown.len)]),
      },
      {
        name: 'reorder', label: m.t('nope.csvReorder'),
        header: ['order', 'weights of the query row', 'output_0', 'output_1'],
        rows: [
          ['original', Array.from(plain.row).join(' '), plain.output[0], plain.output[1]],
          ['earlier words reversed', Array.from(mixed.row).join(' '), mixed.output[0], mixed.output[1]],
        ],
      },
    ],
  };
}
