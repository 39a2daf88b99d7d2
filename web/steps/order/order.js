// Step 1: why order matters. Three 2D token embeddings, three orders of the same words. The
// 3×3 matrix of Q·Kᵀ (Q = K = the rows, no scaling) comes from pe.attention (./model.js holds
// every number; this file formats and draws them); without positions
// the three orders give the same nine numbers, only permuted. The toggle adds the d = 2
// sinusoidal code of each position (pe.sinusoidal(3, 2) = [sin p, cos p]) to the rows first,
// and the three matrices stop being permutations of each other.
import { h, mm } from '../../kit/dom.js';
import { legend } from '../../kit/colourbar.js';
import { inlineMath, math, mi, mn, mo, msqrt, msub } from '../../kit/math.js';
import { MatrixTable } from '../../kit/matrix.js';
import { ValueStrips } from '../../kit/strips.js';
import { VectorPlane } from '../../kit/vectorplane.js';
import { choice, toggle } from '../../kit/controls.js';
import { readout, readoutRow } from '../../kit/readout.js';
import { paragraphs, stepFrame } from '../../kit/step.js';
import { D, SAME, SENTENCES, TOKENS, orderModel } from './model.js';

export const id = 'order';

export const params = {
  sentence: { type: 'int', min: 0, max: SENTENCES.length - 1, default: 0 },
  pe: { type: 'bool', default: false },
};

export function mount(root, { core, m, values, setter, index, total }) {
  const slots = stepFrame(root, m, { id, index, total, downloads: 'deeper' });
  const model = orderModel(core);
  const word = (t) => m.t(`order.word.${t}`);
  const sentenceName = (k) => m.t(`order.sentence${k}`);
  const vec = (v) => m.t('order.vector', { a: m.fixed(v[0], 2), b: m.fixed(v[1], 2) });
  // The same text in parts, so that a phone can stand the vector up as a column (order.css): the
  // table with positions then fits 320 px. The brackets and separator come from the catalog.
  const [open, sep, close] = m.t('order.vector', { a: '\u0001', b: '\u0001' }).split('\u0001');
  const vecCell = (v, cls = '') => h('td', { class: cls }, h('span', { class: 'vec' },
    h('span', { class: 'vec-mark' }, open), h('span', { class: 'vec-x' }, m.fixed(v[0], 2)),
    h('span', { class: 'vec-mark' }, sep), h('span', { class: 'vec-y' }, m.fixed(v[1], 2)),
    h('span', { class: 'vec-mark' }, close)));

  // Controls ------------------------------------------------------------------------------
  const controls = {
    sentence: choice({
      name: 'sentence', label: m.t('order.sentence'), value: values.sentence,
      options: SENTENCES.map((_, k) => ({ value: k, label: sentenceName(k) })),
      onChange: (v) => set({ sentence: Number(v) }),
    }),
    pe: toggle({ name: 'pe', label: m.t('order.pe'), checked: values.pe, onChange: (v) => set({ pe: v }) }),
  };
  // What the toggle does, in one line beside it (and as its description), not far below.
  const peHint = h('p', { class: 'control-hint', id: 'order-pe-hint' }, m.t('order.peHint'));
  controls.pe.el.querySelector('input').setAttribute('aria-describedby', peHint.id);
  slots.controls.append(controls.sentence.el, h('div', { class: 'order-pe' }, controls.pe.el, peHint));

  // Left: the tokens as arrows, and the rows that go into attention --------------------------
  const planeBox = h('div', { class: 'order-plane' });
  const plane = new VectorPlane(planeBox, {
    label: '', xLabel: m.t('order.planeX'), yLabel: m.t('order.planeY'), x: [-0.2, 2], y: [-0.5, 2],
    format: (v) => m.fixed(v, 1),
  });
  const planeLegend = h('div', { class: 'plot-legend plane-legend' },
    h('span', { class: 'legend-item' }, h('span', { class: 'line-swatch solid', 'aria-hidden': 'true' }), m.t('order.legendEmbedding')),
    h('span', { class: 'legend-item pe-only' }, h('span', { class: 'line-swatch dashed', 'aria-hidden': 'true' }), m.t('order.legendPe')),
    h('span', { class: 'legend-item pe-only' }, h('span', { class: 'dot-swatch', 'aria-hidden': 'true' }), m.t('order.legendSum')));
  planeBox.append(planeLegend);
  const inputs = h('table', { class: 'order-inputs', 'aria-label': m.t('order.inputsLabel') });

  // Right: the score matrix ----------------------------------------------------------------
  const formula = h('div', { class: 'formula order-formula' });
  const matrixBox = h('div', { class: 'order-matrix' });
  const matrix = new MatrixTable(matrixBox, { label: '', prefix: 'attn', corner: m.t('order.corner') });
  const colourLegend = h('div', { class: 'legend order-legend' });
  const legendCaption = h('p', { class: 'legend-caption' });
  const badge = h('p', { class: 'order-badge', 'data-readout': 'same' });

  // Below: the sorted scores of every order on one number line ---------------------------
  const stripsBox = h('div', { class: 'order-strips' });
  const strips = new ValueStrips(stripsBox, { label: '', xLabel: m.t('order.stripsX'), format: (v) => m.fixed(v, 1) });

  const out = {
    sentence: readout('sentence', m.t('order.readSentence'), { phrase: true }),
    meaning: readout('meaning', m.t('order.readMeaning'), { phrase: true }),
    change: readout('change', m.t('order.readChange'), { phrase: true }),
  };
  // Figure first: the scores, and the cards that read them right under the matrix (beside it on
  // a wide screen). The tokens (as arrows, and as the rows attention gets) and the sorted strips
  // are depth: in the fold. The caption is not live: the readouts row announces each change.
  const caption = h('p', { class: 'order-caption' });
  slots.figure.append(
    h('div', { class: 'order-grid' },
      h('div', { class: 'order-panel' }, h('h3', {}, m.t('order.scoresTitle')), formula, matrixBox,
        h('div', { class: 'order-legend-row' }, colourLegend, legendCaption), badge),
      h('div', { class: 'order-panel order-read' }, readoutRow(out.sentence, out.meaning, out.change), caption)),
  );
  slots.readouts.remove();
  paragraphs(slots.notes, m, 'order.notes');
  slots.deeper.append(
    h('div', { class: 'order-deeper-grid' },
      h('div', { class: 'order-panel' }, h('h3', {}, m.t('order.tokensTitle')), planeBox,
        h('div', { class: 'order-inputs-wrap', tabindex: '0', role: 'region', 'aria-label': m.t('order.inputsLabel') }, inputs)),
      h('div', { class: 'order-panel' }, h('h3', {}, m.t('order.stripsTitle')), stripsBox,
        h('p', { class: 'order-hint' }, m.t('order.stripsHint')))));
  // 1/√d as MathML: in a sentence, "1/√d" broke and read as raw text.
  paragraphs(slots.deeper, m, 'order.deeper', {}, {
    scale: () => inlineMath('1 over the square root of d', mn('1'), mo('/'), msqrt(mi('d'))),
  });

  let shown = null;  // the matrix on screen, for the CSV export
  // What depends only on the PE toggle (formula, colour legend) is rebuilt when it flips.
  let drawnPe = null;

  function render() {
    const { sentence, pe } = values;
    const peChanged = pe !== drawnPe;
    drawnPe = pe;
    const order = SENTENCES[sentence];
    const { xs, all, current, sortedAll, change, allSame, lo, hi, limit } = model.compute({ sentence, pe });

    // Formula: the score, and what a row is.
    const x = (i) => msub(mi('x'), mi(i));
    if (peChanged) formula.replaceChildren(
      math(m.t('order.formulaScore'), msub(mi('S'), mm('mi', { mathvariant: 'italic' }, 'ij')), mo('='), x('i'), mo('·'), x('j')),
      ...(pe
        ? [
          math(m.t('order.formulaRowPe'), x('i'), mo('='), mi('e'), mo('('), msub(mi('w'), mi('i')), mo(')'), mo('+'), mi('PE'), mo('('), mi('i'), mo(')')),
          math(m.t('order.formulaPe'), mi('PE'), mo('('), mi('i'), mo(')'), mo('='),
            mo('['), mi('sin'), mo('('), mi('i'), mo(')'), mo(','), mi('cos'), mo('('), mi('i'), mo(')'), mo(']')),
        ]
        : [math(m.t('order.formulaRow'), x('i'), mo('='), mi('e'), mo('('), msub(mi('w'), mi('i')), mo(')'))]),
    );

    // The plane: each embedding as an arrow; with PE, the shift to the row attention sees.
    const arrows = [];
    const dots = [];
    const labels = [];
    order.forEach((t, p) => {
      const { emb, cls } = TOKENS[t];
      const row = [xs[sentence][p * D], xs[sentence][p * D + 1]];
      arrows.push({ from: [0, 0], to: emb, cls, faint: pe });
      labels.push({ at: emb, text: word(t), cls, ...(t === 'bites' ? { dx: 0, dy: -10, anchor: 'middle' } : {}) });
      if (pe) {
        arrows.push({ from: emb, to: row, cls, dashed: true });
        dots.push({ at: row, cls });
        const right = row[0] > 1.2;
        labels.push({ at: row, text: m.t('order.planeSum', { word: word(t), pos: p }), cls: `${cls} sum`,
          dx: right ? -8 : 8, dy: right ? 16 : -6, anchor: right ? 'end' : 'start' });
      }
    });
    plane.draw({ arrows, dots, labels });
    planeLegend.classList.toggle('with-pe', pe);
    plane.setLabel(m.t(pe ? 'order.planeAltPe' : 'order.planeAlt', {
      list: order.map((t, p) => m.t('order.planeAltItem', { word: word(t), pos: p, emb: vec(TOKENS[t].emb), row: vec([xs[sentence][p * D], xs[sentence][p * D + 1]]) })).join('; '),
    }));

    // The rows table: position, token, embedding, PE and their sum.
    const peCells = (cells) => (pe ? cells : []);
    // A phone shows the three vector columns by the formula's symbols (e(w), + PE(p), = x) and
    // keeps their names for screen readers (order.css): the names made the table too wide.
    const vecHead = (key, symbol) => h('th', { scope: 'col' },
      h('span', { class: 'col-name' }, m.t(key)), h('span', { class: 'col-symbol', 'aria-hidden': 'true' }, symbol));
    inputs.classList.toggle('with-pe', pe);
    inputs.replaceChildren(
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col' }, m.t('order.colPos')), h('th', { scope: 'col' }, m.t('order.colToken')),
        vecHead('order.colEmb', 'e(w)'),
        peCells([vecHead('order.colPe', '+ PE(p)'), vecHead('order.colRow', '= x')]))),
      h('tbody', {}, order.map((t, p) => h('tr', {},
        h('td', {}, String(p)),
        h('th', { scope: 'row', class: `token ${TOKENS[t].cls}` }, word(t)),
        vecCell(TOKENS[t].emb),
        peCells([
          vecCell(model.pe(p)),
          vecCell([xs[sentence][p * D], xs[sentence][p * D + 1]], 'row-sum'),
        ])))),
    );

    // The matrix, rows and columns in the sentence's order.
    const names = order.map(word);
    shown = { names, values: current };
    matrix.draw({
      rows: names, cols: names, values: current, limit,
      text: (v) => m.fixed(v, 2),
      captions: (i, j) => m.t('order.pair', { a: names[i], b: names[j] }),
      describe: (i, j, v) => m.t('order.cellTitle', { a: names[i], i, b: names[j], j, value: m.fixed(v, 2) }),
    });
    matrix.setLabel(m.t('order.matrixAlt', { sentence: sentenceName(sentence), limit }));
    if (peChanged) {
      legend(colourLegend, limit);
      legendCaption.textContent = m.t('order.legendCaption');
    }
    badge.textContent = m.t(allSame ? 'order.badgeSame' : 'order.badgeDiffer');
    badge.dataset.value = allSame ? '1' : '0';
    badge.classList.toggle('differ', !allSame);

    // The strips: every order's nine scores on one axis.
    const domain = [Math.min(0, Math.floor(lo * 2) / 2), Math.ceil(hi * 2) / 2];
    strips.draw({
      domain, same: SAME,
      rows: all.map((a, k) => ({ values: a, cls: 'order-row', label: sentenceName(k), current: k === sentence })),
    });
    strips.setLabel(m.t(allSame ? 'order.stripsAltSame' : 'order.stripsAltDiffer', {
      list: sortedAll.map((a, k) => `${sentenceName(k)}: ${a.map((v) => m.fixed(v, 2)).join(`${m.listSep} `)}`).join('. '),
    }));

    // Readouts and the caption.
    out.sentence.set(sentenceName(sentence), sentence);
    out.meaning.set(m.t(`order.meaning${sentence}`), sentence);
    out.change.set(change <= SAME ? m.t('order.changeSame') : m.t('order.changeBy', { gap: m.fixed(change, 2) }), change);
    caption.textContent = `${m.t(`order.caption${sentence}`)} ${m.t(pe ? 'order.captionPe' : 'order.captionNoPe')}`;
    controls.sentence.set(sentence);
    controls.pe.set(pe);
  }

  const set = setter(render);  // patch the values, redraw (timed), write the URL

  render();
  return {
    tables: () => [{
      name: 'scores', label: m.t('order.csvScores'),
      header: ['', ...shown.names],
      rows: shown.names.map((name, r) => [name, ...shown.values.subarray(r * 3, r * 3 + 3)]),
    }],
  };
}
