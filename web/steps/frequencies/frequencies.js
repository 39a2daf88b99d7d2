// Step 3: frequency bands. One dimension of a 16-wide sinusoidal table (a column of
// core.sinusoidal(101, 16)) drawn over positions 0..100, the other even dimensions 0-6 faintly
// behind it; a log-scale chart of all eight wavelengths 2π/ω_i, a straight line because they form
// a geometric series. Readouts: ω_i from core.sinusoidalFrequencies(16) and 2π/ω_i. Every
// number comes from ./model.js; this file formats and draws.
import { h } from '../../kit/dom.js';
import { LinePlot } from '../../kit/lineplot.js';
import { tickLabel } from '../../kit/ticks.js';
import { LogPlot } from '../../kit/logplot.js';
import { inlineMath, mathPieces, mfrac, mi, mn, mo, msub, msup, mrow } from '../../kit/math.js';
import { choice } from '../../kit/controls.js';
import { readout, readoutRow } from '../../kit/readout.js';
import { paragraphs, stepFrame } from '../../kit/step.js';
import { subscript } from '../../kit/scripts.js';
import { BASE, D, DIMS, LONGEST as longest, POSITIONS, frequenciesModel } from './model.js';

export const id = 'frequencies';
export const params = {
  dim: { type: 'enum', values: DIMS, default: 0 },
};

export function mount(root, { core, m, values, setter, index, total }) {
  const slots = stepFrame(root, m, { id, index, total, downloads: 'deeper' });
  const model = frequenciesModel(core);
  const { table, freqs, wavelengths, positions, fine } = model;

  // Wavelengths: one decimal below 100, whole numbers from 100 up.
  const wave = (v) => m.fixed(v, v < 100 ? 1 : 0);
  const num = (v) => m.fixed(v, 0);

  const controls = {
    dim: choice({
      name: 'dim',
      label: m.t('frequencies.dim'),
      options: DIMS.map((dim) => ({ value: dim, label: m.t('frequencies.dimOption', { dim, i: dim / 2 }) })),
      value: values.dim,
      onChange: (v) => set({ dim: Number(v) }),
    }),
  };
  slots.controls.append(controls.dim.el);

  const formula = h('div', { class: 'formula' });
  const waveFigure = h('figure', { class: 'freq-figure freq-wave' },
    h('figcaption', {}, m.t('frequencies.waveCaption', { last: POSITIONS - 1 })));
  const ladderFigure = h('figure', { class: 'freq-figure freq-ladder' },
    h('figcaption', {}, m.t('frequencies.ladderCaption', { d: D })));
  // Figure first: the wave; the readouts, then the formulas with the chosen dimension's numbers.
  // The ladder of all wavelengths (a log scale, a new idea) is depth: in the fold.
  slots.figure.append(waveFigure);

  const plot = new LinePlot(waveFigure, {
    xLabel: m.t('frequencies.axisPosition'),
    yLabel: m.t('frequencies.axisValue'),
    label: '',
    format: tickLabel(m),
    cursorX: (v) => m.fixed(v, 0),
    cursorY: (v) => m.fixed(v, 3),
    keysHint: m.t('page.plotKeys'),
  });
  // 380 units high: the longest y title (Russian, 'длина волны (логарифмическая шкала)') fits
  // its axis at a phone's type size, down to 320 px, instead of shrinking under 12 px.
  const ladder = new LogPlot(ladderFigure, {
    height: 380,
    label: '',
    xLabel: m.t('frequencies.axisDim'),
    yLabel: m.t('frequencies.axisWavelength'),
    formatX: (v) => num(v),
    formatY: (v) => num(v),
  });

  const out = {
    dim: readout('dim', m.t('frequencies.readoutDim')),
    frequency: readout('frequency', m.t('frequencies.readoutFrequency')),
    wavelength: readout('wavelength', m.t('frequencies.readoutWavelength')),
  };
  slots.readouts.append(readoutRow(out.dim, out.frequency, out.wavelength), formula);
  const noteVars = {
    w0: wave(wavelengths[0]), w2: wave(wavelengths[1]), w4: wave(wavelengths[2]), w6: wave(wavelengths[3]),
    step6: m.fixed(freqs[3], 3),
    ratio: m.fixed(model.ratio, 2),
    last: num(wavelengths[freqs.length - 1]),
    lastDim: 2 * (freqs.length - 1),
    longest: num(longest),
    d: D,
  };
  const formulas = {
    ratioDef: () => inlineMath(`${BASE} to the power 2 over ${D}, about ${noteVars.ratio}`,
      msup(mn(m.fixed(BASE, 0)), mrow(mn('2'), mo('/'), mn(String(D)))), mo('≈'), mn(noteVars.ratio)),
    wavelengthDef: () => inlineMath('lambda i equals 2 pi over omega i', msub(mi('λ'), mi('i')), mo('='), mn('2'), mi('π'), mo('/'), msub(mi('ω'), mi('i'))),
  };
  paragraphs(slots.notes, m, 'frequencies.notes', noteVars, formulas);
  ladderFigure.append(h('div', { class: 'plot-legend freq-window-key' },
    h('span', { class: 'legend-item window' }, h('span', { class: 'swatch', 'aria-hidden': 'true' }),
      m.t('frequencies.ladderWindow', { last: POSITIONS - 1 }))));
  slots.deeper.append(ladderFigure);
  paragraphs(slots.deeper, m, 'frequencies.deeper', noteVars, formulas);

  // The ladder's fixed parts: every pair's wavelength, 2π below, 10000·2π above, the plot's width.
  const ladderBase = {
    xDomain: [-0.8, D + 0.8],
    yDomain: [1, 1e5],
    xTicks: Array.from({ length: D / 2 + 1 }, (_, k) => 2 * k),
    series: [{
      x: wavelengths.map((_, i) => 2 * i), y: wavelengths, cls: 'ladder', points: 'rings',
      label: m.t('frequencies.ladderLegend'),
    }],
    hlines: [
      { y: longest, cls: 'limit', anchor: 'start', label: m.t('frequencies.ladderLongest', { value: num(longest), d: D }) },
      // Unlabelled in the drawing: the ladder crosses this line, and its label with it (students:
      // "the label is crossed by the line"); the key under the chart says what it is.
      { y: POSITIONS - 1, cls: 'window' },
      { y: 2 * Math.PI, cls: 'limit', label: m.t('frequencies.ladderShortest', { value: wave(2 * Math.PI) }) },
    ],
  };

  function render() {
    const { dim } = values;
    const { i, omega, wavelength: lambda, others, fits, cycles } = model.readout({ dim });

    // Each line in two pieces that wrap before its second "=" where the line does not fit.
    formula.replaceChildren(
      mathPieces(m.t('frequencies.formulaFrequency', { i, dim, value: m.fixed(omega, 4) }),
        [msub(mi('ω'), mn(String(i))), mo('='),
          msup(mn(String(BASE)), mrow(mo('−'), mn('2'), mo('·'), mn(String(i)), mo('/'), mn(String(D))))],
        [mo('='), msup(mn(String(BASE)), mrow(mo('−'), mn(String(dim)), mo('/'), mn(String(D)))),
          mo('='), mn(m.fixed(omega, 4))]),
      mathPieces(m.t('frequencies.formulaWavelength', { i, dim, value: wave(lambda) }),
        [msub(mi('λ'), mn(String(i))), mo('='), mfrac(mrow(mn('2'), mi('π')), msub(mi('ω'), mn(String(i))))],
        // Exponents on one line with a slash: a fraction inside an exponent was two 12 px levels
        // that students could not read on a phone.
        [mo('='), mn('2'), mi('π'), mo('·'), msup(mn(String(BASE)), mrow(mn(String(dim)), mo('/'), mn(String(D)))),
          mo('≈'), mn(wave(lambda))]),
    );

    plot.draw({
      xDomain: [0, POSITIONS - 1],
      yDomain: [-1.3, 1.3],
      series: [
        ...others.map((o, k) => ({ x: positions, y: model.column(o), cls: 'faint',
          label: k === 0 ? m.t('frequencies.waveOthers', { dims: others.join(', ') }) : undefined })),
        // The wave between the table's integer positions (model.curve says why).
        { x: fine, y: model.curve(dim), cls: 'smooth', perColumn: true },
        // The core's table itself: the dots (its straight segments are hidden by CSS).
        { x: positions, y: model.column(dim), cls: 'a', points: true, cursor: true,
          label: m.t('frequencies.waveLegend', { dim, i: subscript(i), omega: m.fixed(omega, 4) }) },
      ],
      vlines: fits ? [{ x: lambda, cls: 'a', label: m.t('frequencies.waveOneCycle', { value: wave(lambda) }) }] : [],
    });
    plot.svg.setAttribute('aria-label', m.t(fits ? 'frequencies.waveAlt' : 'frequencies.waveAltSlow', {
      dim, d: D, last: POSITIONS - 1, wavelength: wave(lambda), others: others.join(', '),
      cycles: m.fixed(cycles, 1),
    }));

    ladder.draw({ ...ladderBase, markers: [{ x: dim, y: lambda, cls: 'a', label: wave(lambda), labelAt: dim === 0 ? 'below-right' : 'above-left' }] });
    ladder.svg.setAttribute('aria-label', m.t('frequencies.ladderAlt', {
      d: D, first: wave(wavelengths[0]), last: num(wavelengths[freqs.length - 1]), lastDim: 2 * (freqs.length - 1),
      longest: num(longest), dim, wavelength: wave(lambda),
    }));

    out.dim.set(num(dim), dim);
    out.frequency.set(m.fixed(omega, 4), omega);
    out.wavelength.set(wave(lambda), lambda);
    controls.dim.set(dim);
  }

  const set = setter(render);  // patch the values, redraw (timed), write the URL

  render();
  return {
    tables: () => [
      {
        name: 'frequencies', label: m.t('frequencies.csvFrequencies'),
        header: ['i', 'dim', 'omega', 'wavelength'],
        rows: Array.from(freqs, (w, i) => [i, 2 * i, w, (2 * Math.PI) / w]),
      },
      {
        name: 'table', label: m.t('frequencies.csvTable'),
        header: ['pos', ...Array.from({ length: D }, (_, d) => `dim${d}`)],
        rows: Array.from({ length: POSITIONS }, (_, p) => [p, ...table.subarray(p * D, (p + 1) * D)]),
      },
    ],
  };
}
