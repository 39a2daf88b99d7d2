// Step 4: relative distance. PE(m)·PE(n) from core.sinusoidalDot against the offset n − m for
// the current m and for m = 0 and m = 19, which fall on one curve; the identity that makes it so
// as display formulas between the paragraphs. In the fold: the two rows of core.sinusoidal(20, 16)
// as grouped bars, and the eight sin/cos pairs' shares of their dot product.
// The notation is the explainer's: positions m and n, pair i with frequency ωᵢ. The URL keeps
// the step's first names for the two positions, i and j (?i=3&j=8), so old links still open.
// Every number comes from ./model.js; this file formats and draws.
import { h, mm } from '../../kit/dom.js';
import { VectorBars } from '../../kit/bars.js';
import { LinePlot } from '../../kit/lineplot.js';
import { tickLabel } from '../../kit/ticks.js';
import { inlineMath, math, mathPieces, mi, mn, mo, mrow, msub, msup } from '../../kit/math.js';
import { button, paramSlider } from '../../kit/controls.js';
import { readout, readoutRow } from '../../kit/readout.js';
import { glueFormulas, paragraph, richText, stepFrame } from '../../kit/step.js';
import { BASE, D, PAIRS, POSITIONS, REFERENCES, canShift as fits, relativeModel } from './model.js';

export const id = 'relative';
const ROTATION_NOTE = 1;                // the rotation formula follows this paragraph of the fold
const IDENTITY_NOTE = 0;                // the identity's formulas follow this paragraph of the notes

export const params = {
  i: { type: 'int', min: 0, max: POSITIONS - 1, default: 3 },
  j: { type: 'int', min: 0, max: POSITIONS - 1, default: 8 },
};

// MathML pieces the kit does not have.
const sum = () => mm('munderover', {}, mo('∑'), mrow(mi('i'), mo('='), mn('0')), mn(String(PAIRS - 1)));
const omega = (sub = mi('i')) => msub(mi('ω'), sub);
const pe = (arg) => mrow(mi('PE'), mo('('), arg, mo(')'));
// Brackets are drawn by CSS on the table (class 'bracketed'): stretchy glyphs need a math font
// that not every system has.
const matrix = (...rows) => mm('mtable', { class: 'bracketed' }, ...rows.map((r) => mm('mtr', {}, ...r.map((c) => mm('mtd', {}, c)))));
const column = (...cells) => matrix(...cells.map((c) => [c]));
const fn = (name, ...arg) => mrow(mi(name), mo('\u2061'), mo('('), ...arg, mo(')'));

export function mount(root, { core, m, values, setter, index, total }) {
  const slots = stepFrame(root, m, { id, index, total, downloads: 'deeper' });
  const model = relativeModel(core);
  const { table, row, gram } = model;

  const controls = {
    i: paramSlider(params, 'i', { label: m.t('relative.i'), values, onInput: (v) => set({ i: v }) }),
    j: paramSlider(params, 'j', { label: m.t('relative.j'), values, onInput: (v) => set({ j: v }) }),
  };
  // Both positions one step together. At the edge the button is marked aria-disabled rather
  // than disabled, so keyboard focus stays on it.
  const canShift = (by) => fits(values.i, values.j, by);
  const shift = (by) => {
    const b = button({
      name: 'shift', label: m.t(by < 0 ? 'relative.shiftDown' : 'relative.shiftUp'),
      onClick: () => { if (canShift(by)) set({ i: values.i + by, j: values.j + by }); },
    });
    b.value = String(by);
    return b;
  };
  const shiftDown = shift(-1);
  const shiftUp = shift(1);
  slots.controls.append(controls.i.el, controls.j.el,
    h('div', { class: 'shift-both', role: 'group', 'aria-label': m.t('relative.shiftGroup') }, shiftDown, shiftUp));

  // Formulas: the cosine of a difference for one pair, and summed, the identity (in the notes);
  // the frequencies and the same sum with the current positions (in the fold). Each wraps
  // between its pieces on a phone.
  // The signed offset n − m (key minus query), as steps 5 and 6 write it.
  const diff = () => mrow(mo('('), mi('n'), mo('−'), mi('m'), mo(')'));
  const angle = (p) => mrow(omega(), mi(p));
  const identity = [
    mathPieces(m.t('relative.pairLabel'),
      [fn('sin', angle('m')), fn('sin', angle('n'))],
      [mo('+'), fn('cos', angle('m')), fn('cos', angle('n'))],
      [mo('='), fn('cos', omega(), diff())]),
    math(m.t('relative.formulaLabel'),
      pe(mi('m')), mo('·'), pe(mi('n')), mo('='), sum(), fn('cos', omega(), diff())),
  ];
  const frequency = math(
    m.t('relative.omegaLabel', { base: BASE, d: D }),
    omega(), mo('='), msup(mn(String(BASE)), mrow(mo('−'), mn('2'), mi('i'), mo('/'), mn(String(D)))),
  );
  const current = h('div', { class: 'relative-now' });

  // Figure 1: the two vectors.
  const vecFig = h('figure', { class: 'relative-fig relative-vectors' });
  vecFig.append(h('figcaption', {}, m.t('relative.barsCaption')));
  const vecBars = new VectorBars(vecFig, { label: '' });
  vecFig.append(h('p', { class: 'relative-axis' }, m.t('relative.barsAxis')));

  // Figure 2: each pair's share of the dot product.
  const pairFig = h('figure', { class: 'relative-fig relative-pairs' });
  // Formulas inside the sentences (kit/step.js), each one unbreakable box.
  const inline = {
    offset: () => inlineMath('n minus m', mi('n'), mo('−'), mi('m')),
    distance: () => inlineMath('the absolute value of n minus m', mo('|'), mi('n'), mo('−'), mi('m'), mo('|')),
    pairTerm: () => inlineMath('cosine of omega i times (n minus m)', fn('cos', omega(), diff())),
    sinPk: () => inlineMath('sine of omega (p plus k)', fn('sin', mi('ω'), mrow(mo('('), mi('p'), mo('+'), mi('k'), mo(')')))),
    cosPk: () => inlineMath('cosine of omega (p plus k)', fn('cos', mi('ω'), mrow(mo('('), mi('p'), mo('+'), mi('k'), mo(')')))),
    sinP: () => inlineMath('sine of omega p', fn('sin', mi('ω'), mi('p'))),
    cosP: () => inlineMath('cosine of omega p', fn('cos', mi('ω'), mi('p'))),
    scoreTerms: () => inlineMath('(e plus p m) transposed, times W q transposed W k, times (e prime plus p n)',
      msup(mrow(mo('('), mi('e'), mo('+'), msub(mi('p'), mi('m')), mo(')')), mi('T')),
      mm('msubsup', {}, mi('W'), mi('q'), mi('T')), msub(mi('W'), mi('k')),
      mo('('), mi('e'), mo('′'), mo('+'), msub(mi('p'), mi('n')), mo(')')),
  };
  pairFig.append(h('figcaption', {}, ...richText(m.t('relative.pairsCaption'), inline)));
  const pairBars = new VectorBars(pairFig, { label: '' });
  pairFig.append(h('p', { class: 'relative-axis' }, m.t('relative.pairsAxis')));

  // Figure 3: the dot product against the offset, its title above it.
  const plotFig = h('figure', { class: 'relative-fig relative-curve' }, h('figcaption', {}, glueFormulas(m.t('relative.plotCaption', { d: D }))));
  const plot = new LinePlot(plotFig, {
    xLabel: m.t('relative.plotX'), yLabel: m.t('relative.plotY'), label: '',
    format: tickLabel(m),
    cursorY: (v) => m.fixed(v, 2),
    keysHint: m.t('page.plotKeys'),
  });

  // Figure first: three m, one curve, and its cards; the paragraphs under it say the identity,
  // set as display formulas. The identity with the current numbers and the two bar charts it
  // explains (the vectors, each pair's share) are depth: in the fold.
  slots.figure.append(plotFig);

  const out = {
    dot: readout('dot', m.t('relative.dot')),
    distance: readout('distance', m.t('relative.distance')),
  };
  slots.readouts.append(readoutRow(out.dot, out.distance));

  // The peak, PE(m)·PE(m) = d/2, as the core computes it.
  m.paras('relative.notes', { max: m.fixed(model.peak, 0) }).forEach((text, n) => {
    slots.notes.append(paragraph(text, inline));
    if (n === IDENTITY_NOTE) slots.notes.append(h('div', { class: 'formula relative-formulas relative-identity' }, ...identity.map((f) => h('div', {}, f))));
  });
  // The fold: the formulas, the bar charts, then its paragraphs, the angle-addition rotation
  // written out after its own.
  slots.deeper.append(
    h('div', { class: 'formula relative-formulas' }, h('div', {}, frequency), current),
    h('div', { class: 'relative-figs' }, vecFig, pairFig));
  m.paras('relative.deeper').forEach((text, n) => {
    slots.deeper.append(paragraph(text, inline));
    if (n === ROTATION_NOTE) slots.deeper.append(rotationFormula(m));
  });

  function render() {
    const { i, j } = values;
    const { dot, offset, distance, shares } = model.readout({ i, j });  // offset: n − m
    const dotText = m.fixed(dot, 2);

    current.replaceChildren(math(
      m.t('relative.formulaNowLabel', { m: i, n: j, dot: dotText }),
      pe(mn(String(i))), mo('·'), pe(mn(String(j))), mo('='),
      sum(), fn('cos', omega(), mo('·'), mrow(mo('('), mn(String(j)), mo('−'), mn(String(i)), mo(')'))),
      mo('='), mn(dotText),
    ));

    vecBars.draw([
      { values: row(i), cls: 'a', label: m.t('relative.legendM', { m: i }) },
      { values: row(j), cls: 'b', label: m.t('relative.legendN', { n: j }) },
    ], 1);
    vecBars.svg.setAttribute('aria-label', m.t('relative.barsAlt', { m: i, n: j, dims: D }));

    pairBars.draw([{ values: shares, cls: 'c', label: m.t('relative.pairsLegend', { dot: dotText }) }], 1);
    pairBars.svg.setAttribute('aria-label', m.t('relative.pairsAlt', { pairs: PAIRS, distance, dot: dotText }));

    const { curve } = model;
    plot.draw({
      xDomain: [-(POSITIONS - 1), POSITIONS - 1],
      yDomain: [0, PAIRS + 1.5],  // headroom for the 'j = i' label above the peak
      vlines: [{ x: 0, cls: 'n', label: m.t('relative.plotDiagonal') }],
      series: [
        { ...curve(i), cls: 'a', points: true, label: m.t('relative.plotCurrent', { m: i }) },
        { ...curve(REFERENCES[0]), cls: 'b', label: m.t('relative.plotRef', { m: REFERENCES[0] }) },
        { ...curve(REFERENCES[1]), cls: 'c', label: m.t('relative.plotRef', { m: REFERENCES[1] }) },
      ],
      markers: [{ x: offset, y: dot, cls: 'a' }],
    });
    plot.svg.setAttribute('aria-label', m.t('relative.plotAlt', {
      m: i, n: j, offset, dot: dotText, max: PAIRS, lo: -(POSITIONS - 1), hi: POSITIONS - 1, r0: REFERENCES[0], r1: REFERENCES[1],
    }));

    out.dot.set(dotText, dot);
    out.distance.set(String(distance), distance);
    controls.i.set(i);
    controls.j.set(j);
    shiftDown.setAttribute('aria-disabled', String(!canShift(-1)));
    shiftUp.setAttribute('aria-disabled', String(!canShift(1)));
  }

  const set = setter(render);  // patch the values, redraw (timed), write the URL

  render();
  return {
    tables: () => [
      {
        name: 'vectors', label: m.t('relative.csvVectors'),
        header: ['dim', `PE(${values.i})`, `PE(${values.j})`],
        rows: Array.from({ length: D }, (_, d) => [d, table[values.i * D + d], table[values.j * D + d]]),
      },
      {
        name: 'dots', label: m.t('relative.csvDots'),
        header: ['m\\n', ...Array.from({ length: POSITIONS }, (_, b) => b)],
        rows: Array.from({ length: POSITIONS }, (_, r) => [r, ...gram.subarray(r * POSITIONS, (r + 1) * POSITIONS)]),
      },
    ],
  };
}

// [sin ω(p+k); cos ω(p+k)] = [[cos ωk, sin ωk], [−sin ωk, cos ωk]] · [sin ωp; cos ωp]
function rotationFormula(m) {
  const w = () => mi('ω');
  const arg = (...a) => mrow(w(), ...a);
  const pk = () => mrow(mo('('), mi('p'), mo('+'), mi('k'), mo(')'));
  // Two pieces, the left side with "=" and the product, which sit on one line where there is room
  // and on two on the narrowest phones (a smaller font would put the matrix under 12 px).
  return h('div', { class: 'formula relative-rotation' }, mathPieces(m.t('relative.rotationLabel'),
    [column(fn('sin', arg(pk())), fn('cos', arg(pk()))), mo('=')],
    [matrix(
      [fn('cos', arg(mi('k'))), fn('sin', arg(mi('k')))],
      [mrow(mo('−'), fn('sin', arg(mi('k')))), fn('cos', arg(mi('k')))],
    ), mm('mspace', { width: '0.4em' }), column(fn('sin', arg(mi('p'))), fn('cos', arg(mi('p'))))]));
}
