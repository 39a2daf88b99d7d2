// Step 6: sinusoidal vs RoPE. d = 8. Sliders pick the query position m and the key position n;
// a line plot shows, for every n in 0..19, the sinusoidal PE(m)·PE(n) (core.sinusoidalDot) and
// the RoPE q'·k' with q = k = (0.6, 0.4) in each of the four pairs (core.ropeApply, then
// core.attention without softmax). Readouts give |m − n| and both dots; a table sets the two
// schemes side by side. Every number comes from ./model.js; this file formats and draws.
import { h, mm, s } from '../../kit/dom.js';
import { LinePlot } from '../../kit/lineplot.js';
import { tickLabel } from '../../kit/ticks.js';
import { inlineMath, math, mi, mn, mo, mrow, msub, msup, primed } from '../../kit/math.js';
import { paramSlider } from '../../kit/controls.js';
import { readout, readoutRow } from '../../kit/readout.js';
import { paragraph, paragraphs, stepFrame } from '../../kit/step.js';
import { D, POSITIONS, compareModel } from './model.js';

export const id = 'compare';
const Y_DOMAIN = [0, 4];        // PE(m)·PE(n) lies in [−d/2, d/2]; here it stays in [0, 4]
const X_DOMAIN = [-0.6, POSITIONS - 1 + 0.6];  // a little room so the end markers show whole
const ROWS = ['where', 'when', 'kind', 'params', 'extrapolation', 'usedBy'];

export const params = {
  m: { type: 'int', min: 0, max: POSITIONS - 1, default: 2 },
  n: { type: 'int', min: 0, max: POSITIONS - 1, default: 8 },
};

export function mount(root, { core, m, values, setter, index, total }) {
  const slots = stepFrame(root, m, { id, index, total, downloads: 'deeper' });

  const model = compareModel(core);
  const { xs, pairNorm } = model;

  const controls = {
    m: paramSlider(params, 'm', { label: m.t('compare.m'), values, onInput: (v) => set({ m: v }) }),
    n: paramSlider(params, 'n', { label: m.t('compare.n'), values, onInput: (v) => set({ n: v }) }),
  };
  slots.controls.append(controls.m.el, controls.n.el);

  // Figure first: the two curves, then the cards and two paragraphs. The table of the two
  // schemes and the formulas behind the curves are depth: in the fold.
  const formulas = h('div', { class: 'formula compare-formulas' });
  const plotBox = h('div', { class: 'compare-plot' });
  slots.figure.append(plotBox);
  const plot = new LinePlot(plotBox, {
    xLabel: m.t('compare.xLabel'),
    yLabel: m.t('compare.yLabel'),
    label: m.t('compare.alt', { m: values.m, n: values.n }),
    format: tickLabel(m),
    cursorY: (v) => m.fixed(v, 2),
    keysHint: m.t('page.plotKeys'),
  });
  // A click on the plot moves the key position n to the nearest column.
  plot.svg.addEventListener('click', (event) => {
    const box = plot.svg.getBoundingClientRect();
    if (!box.width) return;
    const x = ((event.clientX - box.left) / box.width) * plot.svg.viewBox.baseVal.width;
    const at = Math.round(((x - plot.x(0)) / (plot.x(POSITIONS - 1) - plot.x(0))) * (POSITIONS - 1));
    set({ n: Math.min(POSITIONS - 1, Math.max(0, at)) });
  });

  const out = {
    distance: readout('distance', m.t('compare.distance')),
    sin: readout('sin-dot', m.t('compare.sinDot')),
    rope: readout('rope-dot', m.t('compare.ropeDot')),
  };
  slots.readouts.append(readoutRow(out.distance, out.sin, out.rope));

  // The sinusoidal peak PE(m)·PE(m) = d/2 and the RoPE curve's factor |(0.6, 0.4)|², from the core.
  paragraphs(slots.notes, m, 'compare.notes', { peak: m.fixed(model.peak, 0), norm: m.fixed(pairNorm, 2) }, inlineFormulas);
  slots.deeper.append(comparisonTable(m), formulas);
  paragraphs(slots.deeper, m, 'compare.deeper', {}, inlineFormulas);

  let curves = null;  // the plotted values, for the CSV export

  function render() {
    const { m: qPos, n: kPos } = values;
    const { sin, rope, distance, offset } = model.readout({ m: qPos, n: kPos });  // offset: n − m
    curves = { m: qPos, sin, rope };

    plot.draw({
      xDomain: X_DOMAIN,
      yDomain: Y_DOMAIN,
      series: [
        { x: xs, y: sin, cls: 'a', label: m.t('compare.legendSin'), points: true },
        { x: xs, y: rope, cls: 'b', label: m.t('compare.legendRope'), points: true },
      ],
      markers: [{ x: kPos, y: sin[kPos], cls: 'a' }],
      vlines: [{ x: qPos, cls: 'm' }],
    });
    decorate(qPos, kPos, rope[kPos]);
    plot.svg.setAttribute('aria-label', m.t('compare.alt', { m: qPos, n: kPos }));

    formulas.replaceChildren(
      // The signed offset n − m, as steps 4 and 5 write it.
      sinFormula(m, offset, sin[kPos]),
      ropeFormula(m, offset, pairNorm, rope[kPos]),
    );
    out.distance.set(m.fixed(distance, 0), distance);
    out.sin.set(m.fixed(sin[kPos], 2), sin[kPos]);
    out.rope.set(m.fixed(rope[kPos], 2), rope[kPos]);
    controls.m.set(qPos);
    controls.n.set(kPos);
  }

  // What LinePlot does not draw: the label of the m line (kept inside the frame), a diamond for
  // the RoPE value at n (a different shape from the sinusoid's circle), and legend entries.
  function decorate(qPos, kPos, ropeAtN) {
    const right = qPos > (POSITIONS - 1) * 0.75;
    const x = plot.x(qPos);
    const bottom = plot.y(Y_DOMAIN[0]);  // both curves peak at n = m, so the foot of the line is free
    plot.plot.append(s('text', {
      x: right ? x - 5 : x + 5, y: bottom - 8, 'text-anchor': right ? 'end' : 'start', class: 'vline-label m',
    }, m.t('compare.mMarker', { m: qPos })));
    const cx = plot.x(kPos);
    const cy = plot.y(ropeAtN);
    const r = 7;
    plot.plot.append(s('polygon', {
      points: `${cx},${cy - r} ${cx + r},${cy} ${cx},${cy + r} ${cx - r},${cy}`, class: 'marker b diamond',
    }));
    plot.legend.append(
      h('span', { class: 'legend-item legend-m' }, h('span', { class: 'swatch', 'aria-hidden': 'true' }), m.t('compare.legendM')),
      h('span', { class: 'legend-item legend-n' }, h('span', { class: 'shapes', 'aria-hidden': 'true' }, '● ◆'), m.t('compare.legendN')),
    );
  }

  const set = setter(render);  // patch the values, redraw (timed), write the URL

  render();
  return {
    tables: () => [{
      name: 'similarity', label: m.t('compare.csvSimilarity'),
      header: ['m', 'n', 'sinusoidal_dot', 'rope_dot'],
      rows: Array.from(xs, (n, k) => [curves.m, n, curves.sin[k], curves.rope[k]]),
    }],
  };
}

/** Σ_{i=0}^{3} as MathML. */
function sum() {
  return mm('munderover', {}, mo('∑'), mrow(mi('i'), mo('='), mn('0')), mn(String(D / 2 - 1)));
}

/** The signed offset n − m, with a real minus sign. */
function offset(m, delta) {
  return delta < 0 ? mrow(mo('−'), mn(m.fixed(-delta, 0))) : mn(m.fixed(delta, 0));
}

function cosOf(angle) {
  return mrow(mi('cos'), mo('('), ...angle, mo(')'));
}

// Each formula is two <math> pieces, the definition and its value now, which sit on one line
// when there is room and wrap onto two on a phone.
function formulaLine(...pieces) {
  return h('div', { class: 'formula-line' }, ...pieces);
}

function sinFormula(m, delta, value) {
  return formulaLine(
    math(m.t('compare.formulaSin'),
      mi('PE'), mo('('), mi('m'), mo(')'), mo('·'), mi('PE'), mo('('), mi('n'), mo(')'), mo('='),
      sum(), cosOf([mo('('), mi('n'), mo('−'), mi('m'), mo(')'), msub(mi('ω'), mi('i'))])),
    math(m.t('compare.formulaSinNow', { delta: m.fixed(delta, 0), value: m.fixed(value, 2) }),
      mo('='), sum(), cosOf([offset(m, delta), msub(mi('ω'), mi('i'))]), mo('='), mn(m.fixed(value, 2))),
  );
}

// The general RoPE score (each pair: |qᵢ||kᵢ| cos((n − m)θᵢ + φᵢ), φᵢ the angle from qᵢ to kᵢ
// before rotating), then its value on this step, where every kᵢ = qᵢ, so φᵢ = 0. The paragraph
// that defines φᵢ and says when the sum is a scaled copy of the sinusoidal one comes first
// (students met φᵢ in the formula before its definition).
function ropeFormula(m, delta, pairNorm, value) {
  const len = (v) => mrow(mo('|'), msub(mi(v), mi('i')), mo('|'));
  return h('div', {},
    h('div', { class: 'compare-when' }, paragraph(m.t('compare.formulaRopeWhen'), inlineFormulas)),
    formulaLine(
      math(m.t('compare.formulaRope'),
        primed('q'), mo('·'), primed('k'), mo('='),
        sum(), len('q'), len('k'),
        cosOf([mo('('), mi('n'), mo('−'), mi('m'), mo(')'), msub(mi('θ'), mi('i')), mo('+'), msub(mi('φ'), mi('i'))])),
      math(m.t('compare.formulaRopeNow', { norm: m.fixed(pairNorm, 2), delta: m.fixed(delta, 0), value: m.fixed(value, 2) }),
        mo('='), mn(m.fixed(pairNorm, 2)), mo('×'), sum(), cosOf([offset(m, delta), msub(mi('ω'), mi('i'))]), mo('='),
        mn(m.fixed(value, 2)))));
}

/**
 * The side-by-side table, every cell from the catalog. Its roles are spelled out: a phone lays
 * its rows out as grids (compare.css), and a table whose parts are not displayed as table parts
 * can lose its table semantics in some browsers.
 */
function comparisonTable(m) {
  return h('div', { class: 'compare-table-wrap table-scroller' },
    h('table', { class: 'compare-table', role: 'table' },
      h('caption', {}, m.t('compare.table.caption')),
      h('thead', { role: 'rowgroup' }, h('tr', { role: 'row' },
        h('th', { scope: 'col', role: 'columnheader' }, m.t('compare.table.aspect')),
        h('th', { scope: 'col', role: 'columnheader' }, m.t('compare.table.sin')),
        h('th', { scope: 'col', role: 'columnheader' }, m.t('compare.table.rope')))),
      h('tbody', { role: 'rowgroup' }, ROWS.map((row) => h('tr', { 'data-row': row, role: 'row' },
        h('th', { scope: 'row', role: 'rowheader' }, m.t(`compare.table.${row}`)),
        h('td', { role: 'cell' }, m.t(`compare.table.${row}.sin`)),
        h('td', { role: 'cell' }, m.t(`compare.table.${row}.rope`)))))));
}

/** The formulas inside compare's sentences (kit/step.js), each one unbreakable box. */
const inlineFormulas = {
  offset: () => inlineMath('n minus m', mi('n'), mo('−'), mi('m')),
  phi: () => inlineMath('phi i', msub(mi('φ'), mi('i'))),
  equalPairs: () => inlineMath('phi i equals 0 and the length of k i equals the length of q i',
    msub(mi('φ'), mi('i')), mo('='), mn('0'), mo(','), mrow(mo('|'), msub(mi('k'), mi('i')), mo('|')), mo('='), mrow(mo('|'), msub(mi('q'), mi('i')), mo('|'))),
  squares: () => inlineMath('the sum over i of the squared length of q i times the cosine of (n minus m) theta i',
    mo('∑'), msup(mrow(mo('|'), msub(mi('q'), mi('i')), mo('|')), mn('2')),
    mi('cos'), mo('\u2061'), mo('('), mo('('), mi('n'), mo('−'), mi('m'), mo(')'), msub(mi('θ'), mi('i')), mo(')')),
  frequencies: () => inlineMath('omega i equals theta i equals 10000 to the power minus 2i over 8',
    msub(mi('ω'), mi('i')), mo('='), msub(mi('θ'), mi('i')), mo('='),
    msup(mn('10000'), mrow(mo('−'), mn('2'), mi('i'), mo('/'), mn('8')))),
  sumCos: () => inlineMath('the sum of cosines of (n minus m) omega i',
    mo('∑'), mi('cos'), mo('\u2061'), mo('('), mo('('), mi('n'), mo('−'), mi('m'), mo(')'), msub(mi('ω'), mi('i')), mo(')')),
};
