// Step 5: RoPE as 2D rotations. d = 8, four pairs, q = k = (0.6, 0.4) in every pair
// (interleaved layout: pair i is dimensions 2i, 2i+1). Sliders set the query position m and
// the key position n; the core rotates both (pe.ropeApply) and scores them (pe.attention).
// One diagram per pair shows q′ and k′; the cards give the score and the signed offset n − m
// (the score sees the sign; only this toy's q = k makes it symmetric); the identity that makes
// the score relative is set as display formulas between the paragraphs. In the fold, a line
// plot shows that shifting both leaves q′·k′ alone, and pair 0's arithmetic. Every number comes
// from ./model.js; this file formats and draws.
// (The table that scores the same q and k under Hugging Face's rotate_half pairing is in the code
// step, web/steps/code/pairing.js.)
import { h, mm } from '../../kit/dom.js';
import { inlineMath, math, mathPieces, mi, mn, mo, mrow, msub, msup, primed } from '../../kit/math.js';
import { button, paramSlider } from '../../kit/controls.js';
import { LinePlot } from '../../kit/lineplot.js';
import { tickLabel } from '../../kit/ticks.js';
import { readout, readoutRow } from '../../kit/readout.js';
import { drawRotation, rotationDiagram, rotationGrid } from '../../kit/rotation.js';
import { glueFormulas, paragraph, paragraphs, richText, stepFrame } from '../../kit/step.js';
import { K, PAIRS, POSITIONS, Q, canShift, ropeModel } from './model.js';

export const id = 'rope';
const IDENTITY_AFTER = 1;  // the identity's formulas follow this paragraph of the notes

export const params = {
  qpos: { type: 'int', min: 0, max: POSITIONS - 1, default: 3 },
  kpos: { type: 'int', min: 0, max: POSITIONS - 1, default: 7 },
};

export function mount(root, { core, m, values, setter, index, total }) {
  const slots = stepFrame(root, m, { id, index, total, downloads: 'deeper' });
  const model = ropeModel(core);
  const { theta, scores } = model;

  // Controls: the two positions and the shift buttons (name="shift").
  const controls = {
    qpos: paramSlider(params, 'qpos', { label: m.t('rope.qpos'), values, onInput: (v) => set({ qpos: v }) }),
    kpos: paramSlider(params, 'kpos', { label: m.t('rope.kpos'), values, onInput: (v) => set({ kpos: v }) }),
  };
  // The visible "−1" / "+1" is the button's name (speech input users say what they see); the
  // sentence saying what it does is its description.
  const describedBy = [];
  const shiftButton = (by, label, description) => {
    const b = button({ name: 'shift', label, onClick: () => shift(by) });
    const hint = h('span', { id: `rope-shift-${by < 0 ? 'down' : 'up'}-hint`, class: 'sr-only' }, description);
    describedBy.push(hint);
    b.value = String(by);
    b.setAttribute('aria-describedby', hint.id);
    b.classList.add('rope-shift');
    return b;
  };
  const shiftDown = shiftButton(-1, m.t('rope.shiftDown'), m.t('rope.shiftDownLabel'));
  const shiftUp = shiftButton(1, m.t('rope.shiftUp'), m.t('rope.shiftUpLabel'));
  const shiftGroup = h('div', { class: 'control rope-shifts', role: 'group', 'aria-label': m.t('rope.shift') },
    h('span', { class: 'control-label', 'aria-hidden': 'true' }, m.t('rope.shift')), shiftDown, shiftUp, describedBy);
  slots.controls.append(controls.qpos.el, controls.kpos.el, shiftGroup);

  // Figure first: the score and the offset right under the sliders, then the four pair diagrams
  // and their legend (which says what Δ in their titles is). The plot of every shift at once and
  // pair 0's arithmetic are depth: in the fold.
  slots.figure.before(slots.readouts);
  const pair0 = {
    arith: h('div', { class: 'rope-arith' }),
    turns: h('p', { class: 'rope-turns' }),
  };

  const grid = rotationGrid({ label: m.t('rope.diagramsLabel') });
  const diagramLegend = h('div', { class: 'plot-legend rope-legend' });
  slots.figure.append(h('figure', { class: 'rope-figure' }, grid, diagramLegend));

  const plotBox = h('div', { class: 'rope-plot' });
  const plotFigure = h('figure', { class: 'rope-figure' },
    h('h3', { class: 'rope-heading' }, m.t('rope.plotHeading')),
    plotBox,
    h('figcaption', { class: 'rope-caption' }, m.t('rope.plotCaption')));
  const plot = new LinePlot(plotBox, {
    xLabel: m.t('rope.plotX'),
    yLabel: m.t('rope.plotY'),
    label: '',
    format: tickLabel(m),
    cursorX: (v) => m.fixed(v, 0),
    cursorY: (v) => m.fixed(v, 2),
    keysHint: m.t('page.plotKeys'),
  });

  const out = {
    // The symbols keep their case under the cards' upper-case labels (q′ is not Q).
    qk: readout('qk', h('span', {}, m.t('rope.qk'), ' ', h('span', { class: 'rope-sym' }, m.t('rope.qkSymbol')))),
    offset: readout('offset', h('span', {}, m.t('rope.offset'), ' ', h('span', { class: 'rope-sym' }, m.t('rope.offsetSymbol')))),
  };
  slots.readouts.append(readoutRow(out.qk, out.offset));
  // The paragraphs, with the identity as display formulas after the one that leads to it. The
  // angles per position are the core's θᵢ.
  // With d = 8, θᵢ = 10^(−i): i decimals show each exactly (1, 0.1, 0.01, 0.001).
  const perPosition = Object.fromEntries(Array.from(theta, (t, i) => [`t${i}`, m.fixed(t, i)]));
  const inline = {
    offset: () => inlineMath('n minus m', mi('n'), mo('−'), mi('m')),
    euler: () => inlineMath('e to the i alpha', msup(mi('e'), mrow(mi('i'), mi('α')))),
  };
  m.paras('rope.notes', perPosition).forEach((text, n) => {
    slots.notes.append(paragraph(text, inline));
    if (n === IDENTITY_AFTER) slots.notes.append(h('div', { class: 'formula rope-formulas' }, identityFormulas(m)));
  });
  slots.deeper.append(
    h('p', { class: 'rope-caption' }, m.t('rope.caption')),
    plotFigure,
    h('div', { class: 'rope-pair0' }, h('h3', { class: 'rope-heading' }, m.t('rope.pair0Heading')), pair0.arith, pair0.turns,
      h('div', { class: 'formula rope-formulas rope-rotation' }, rotationFormula(m))));
  paragraphs(slots.deeper, m, 'rope.deeper', {}, inline);

  function render() {
    const { qpos, kpos } = values;
    // offset: the signed n − m, as steps 4 and 6 write it
    const { q, k, qk, offset, pairs, both, qOnly } = model.readout({ qpos, kpos });
    const f2 = (v) => m.fixed(v, 2);

    // Pair 0, as arithmetic with the current numbers. The turns line is three phrases: each is
    // kept whole when the line wraps ("3.00 rad · k / turns" read as a product).
    pair0.arith.replaceChildren(...arithmeticRow('q', Q, qpos, q, 'q0'), ...arithmeticRow('k', K, kpos, k, 'k0'));
    const turns = m.t('rope.turns', { m: qpos, n: kpos, a: f2(pairs[0].qAngle), b: f2(pairs[0].kAngle), offset: m.fixed(offset, 0) });
    pair0.turns.replaceChildren(...turns.split(/\s+·\s+/).flatMap((phrase, i) =>
      [...(i ? [h('span', { class: 'rope-turns-sep' }, ' · ')] : []), h('span', { class: 'rope-turns-phrase' }, glueFormulas(phrase))]));

    // One rotation diagram per pair, each drawn into its own picture (made once).
    if (!grid.childElementCount) {
      grid.append(...Array.from({ length: PAIRS }, (_, i) => {
        const svg = rotationDiagram();
        svg.dataset.pair = String(i);
        return svg;
      }));
    }
    [...grid.children].forEach((svg, i) => {
      const { q: qi, k: ki, qAngle, kAngle, delta } = pairs[i];  // delta: the turn from q′ to k′, unwound
      drawRotation(svg, {
        q: qi, k: ki, original: [Q[2 * i], Q[2 * i + 1]], names: { q: m.t('rope.qLabel'), k: m.t('rope.kLabel') }, sweep: delta,
        title: m.t('rope.pairTitle', { i, delta: m.fixed(delta, 3) }),
        label: m.t('rope.pairAlt', {
          i, theta: m.fixed(theta[i], 3), a: m.fixed(qAngle, 3), b: m.fixed(kAngle, 3),
          qx: f2(qi[0]), qy: f2(qi[1]), kx: f2(ki[0]), ky: f2(ki[1]), delta: m.fixed(delta, 3),
        }),
      });
    });
    diagramLegend.replaceChildren(
      legendItem('a', m.t('rope.legendQ', { m: qpos })),
      legendItem('b', m.t('rope.legendK', { n: kpos })),
      // The turn (n − m)·θᵢ as one MathML box: as text it broke after "(n −" on a phone.
      legendItem('rope-arc', ...richText(m.t('rope.legendArc'), {
        turn: () => inlineMath('(n minus m) theta i', mo('('), mi('n'), mo('−'), mi('m'), mo(')'), mo('·'), msub(mi('θ'), mi('i'))),
      })),
      legendItem('rope-ghost', m.t('rope.legendGhost')),
    );

    // The shift plot: the diagonal through (m, n) against the row of n fixed.
    plot.draw({
      xDomain: [-0.6, POSITIONS - 0.4],  // a little margin; ticks at 0, 5, 10, 15
      yDomain: [0, 2.25],
      series: [
        { ...both, cls: 'a', points: true, label: m.t('rope.seriesBoth', { offset: m.fixed(offset, 0) }) },
        { ...qOnly, cls: 'b', label: m.t('rope.seriesQOnly', { n: kpos }) },
      ],
      markers: [{ x: qpos, y: qk, cls: 'a' }],
    });
    plot.svg.setAttribute('aria-label', m.t('rope.plotAlt', { offset: m.fixed(offset, 0), qk: f2(qk), n: kpos, m: qpos }));

    out.qk.set(f2(qk), qk);
    out.offset.set(m.fixed(offset, 0), offset);
    controls.qpos.set(qpos);
    controls.kpos.set(kpos);
    shiftDown.setAttribute('aria-disabled', String(!canShift(qpos, kpos, -1)));
    shiftUp.setAttribute('aria-disabled', String(!canShift(qpos, kpos, 1)));
  }

  /**
   * One row of pair 0's arithmetic, q = [x, y] → R(pos·θ₀) →  q′ = [x′, y′], as two formulas
   * that wrap on a phone; the rotated numbers are tagged as readouts.
   */
  function arithmeticRow(name, input, pos, rotated, tag) {
    const num = (v, readoutName) => mm('mn', readoutName ? { 'data-readout': readoutName, 'data-value': String(v) } : {}, m.fixed(v, 2));
    const vec = (x, y) => mrow(mo('['), x, mo(m.listSep), y, mo(']'));
    const f2 = (v) => m.fixed(v, 2);
    return [
      math(m.t('rope.arithIn', { name, x: f2(input[0]), y: f2(input[1]), pos }),
        mi(name), mo('='), vec(num(input[0]), num(input[1])),
        mo('→'), mi('R'), mo('('), mn(String(pos)), mo('·'), msub(mi('θ'), mn('0')), mo(')'), mo('→')),
      math(m.t('rope.arithOut', { name, x: f2(rotated[0]), y: f2(rotated[1]) }),
        primed(name), mo('='), vec(num(rotated[0], `${tag}x`), num(rotated[1], `${tag}y`))),
    ];
  }

  function shift(by) {
    const { qpos, kpos } = values;
    if (!canShift(qpos, kpos, by)) return;
    set({ qpos: qpos + by, kpos: kpos + by });
  }

  const set = setter(render);  // patch the values, redraw (timed), write the URL

  render();
  return {
    tables: () => [
      {
        name: 'scores', label: m.t('rope.csvScores'),
        header: ['m\\n', ...Array.from({ length: POSITIONS }, (_, n) => n)],
        rows: Array.from({ length: POSITIONS }, (_, r) => [r, ...scores.subarray(r * POSITIONS, (r + 1) * POSITIONS)]),
      },
      {
        name: 'theta', label: m.t('rope.csvTheta'),
        header: ['pair', 'theta'],
        rows: Array.from(theta, (t, i) => [i, t]),
      },
    ],
  };
}

function legendItem(cls, ...text) {
  // The words (and a formula among them) in one box: as flex items of the entry they stood in
  // columns on a phone.
  return h('span', { class: `legend-item ${cls}` }, h('span', { class: 'swatch', 'aria-hidden': 'true' }), h('span', {}, ...text));
}

const sub = (base, i) => msub(mi(base), mi(i));
const paren = (...c) => mrow(mo('('), ...c, mo(')'));
const rot = (...angle) => mrow(mi('R'), paren(...angle));

/**
 * Why the score sees only the offset: a rotation's transpose turns back, R(a)ᵀR(b) = R(b − a),
 * and so (R(mθᵢ)qᵢ)·(R(nθᵢ)kᵢ) = qᵢ·(R((n − m)θᵢ)kᵢ). The second line in two pieces, which wrap
 * before "=" on a phone.
 */
function identityFormulas(m) {
  const T = mm('mi', { mathvariant: 'normal' }, 'T');
  return [
    math(m.t('rope.transposeLabel'), msup(rot(mi('a')), T), rot(mi('b')), mo('='), rot(mi('b'), mo('−'), mi('a'))),
    mathPieces(m.t('rope.identityLabel'),
      [paren(rot(mi('m'), sub('θ', 'i')), sub('q', 'i')), mo('·'), paren(rot(mi('n'), sub('θ', 'i')), sub('k', 'i'))],
      [mo('='), sub('q', 'i'), mo('·'), paren(rot(paren(mi('n'), mo('−'), mi('m')), sub('θ', 'i')), sub('k', 'i'))]),
  ];
}

/** What R(α) does to one pair (x, y): in two pieces that wrap before the pair on a phone. */
function rotationFormula(m) {
  return mathPieces(m.t('rope.rotationLabel'),
    [rot(mi('α')), paren(mi('x'), mo(','), mi('y')), mo('=')],
    [paren(mi('x'), mi('cos'), mi('α'), mo('−'), mi('y'), mi('sin'), mi('α'), mo(','), mi('x'), mi('sin'), mi('α'), mo('+'), mi('y'), mi('cos'), mi('α'))]);
}
