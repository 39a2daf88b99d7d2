// Step 12: context extension. A RoPE model trained at length L is read at L′ > L. Six ways to
// set the frequencies, all from core.ropeFrequencies: plain RoPE, position interpolation
// (linear), static NTK-aware, dynamic NTK, YaRN and Llama 3 (all but static NTK as in HF
// modeling_rope_utils.py). Figures: every pair's wavelength 2π/θ on a log scale, plain and
// scaled, against L and L′; the score of q = k = all ones rotated by core.ropeApply (which
// multiplies by the attention factor, as HF does) against the distance Δ ∈ [0, L′], from
// core.attention, with the mean score of independent random q, k pairs beside it; a table of
// every method at the same settings.
import { h } from '../../kit/dom.js';
import { LinePlot } from '../../kit/lineplot.js';
import { LogPlot } from '../../kit/logplot.js';
import { button, choice, paramSlider } from '../../kit/controls.js';
import { quietReadoutRow, readout, readoutRow } from '../../kit/readout.js';
import { stackOnPhone } from '../../kit/stacktable.js';
import { paragraphs, stepFrame } from '../../kit/step.js';
import { extendFormats, methodRules, pairNow } from './formula.js';
import { extendModels } from './model.js';
import { BETA_FAST, D, FACTORS, HIGH_FF, METHODS, MODELS, PAIRS, PRESETS, RANDOM_PAIRS, READS, SAMPLES } from './setup.js';
import { whenIdle } from '../../kit/idle.js';

export { scalingFor } from './setup.js';
export const id = 'extend';

export const params = {
  model: { type: 'enum', values: Object.keys(MODELS), default: 'llama3' },
  method: { type: 'enum', values: METHODS, default: 'llama3' },
  factor: { type: 'enum', values: FACTORS, default: 8 },
  read: { type: 'enum', values: READS, default: 16 },
  pair: { type: 'int', min: 0, max: PAIRS - 1, default: 32 },
};

export function mount(root, { core, m, values, setter, index, total }) {
  const slots = stepFrame(root, m, { id, index, total, downloads: 'deeper' });
  const methodName = {
    none: m.t('extend.methodNone'),
    linear: m.t('extend.methodLinear'),
    ntk: m.t('extend.methodNtk'),
    dynamic: m.t('extend.methodDynamic'),
    yarn: m.t('extend.methodYarn'),
    llama3: m.t('extend.methodLlama3'),
  };
  const { int, sig, wave, score, decade } = extendFormats(m);
  const computed = extendModels(core);

  // Controls ------------------------------------------------------------------------------------
  const presetButtons = Object.entries(PRESETS).map(([name, preset]) => {
    const b = button({ name: 'preset', label: m.t(`extend.preset.${name}`), onClick: () => set({ ...preset }) });
    b.value = name;
    return b;
  });
  const presetGroup = h('div', { class: 'control extend-presets', role: 'group', 'aria-labelledby': 'extend-presets-label' },
    h('span', { class: 'control-label', id: 'extend-presets-label' }, m.t('extend.presets')), presetButtons);
  const controls = {
    model: choice({
      name: 'model', label: m.t('extend.model'), value: values.model, onChange: (v) => set({ model: v }),
      options: Object.entries(MODELS).map(([value, { base, L }]) => ({
        value, label: m.t(value === 'llama2' ? 'extend.modelLlama2' : 'extend.modelLlama3', { base: int(base), L: int(L) }),
      })),
    }),
    method: choice({
      name: 'method', label: m.t('extend.method'), value: values.method, onChange: (v) => set({ method: v }),
      options: METHODS.map((value) => ({ value, label: methodName[value] })),
    }),
    factor: choice({
      name: 'factor', label: m.t('extend.factor'), value: values.factor, onChange: (v) => set({ factor: Number(v) }),
      options: FACTORS.map((value) => ({ value, label: m.t('extend.factorOption', { s: value }) })),
    }),
    read: choice({
      name: 'read', label: m.t('extend.read'), value: values.read, onChange: (v) => set({ read: Number(v) }),
      options: READS.map((value) => ({ value, label: m.t('extend.readOption', { k: value }) })),
    }),
    pair: paramSlider(params, 'pair', { label: m.t('extend.pair'), values, onInput: (v) => set({ pair: v }) }),
  };
  // The presets go with the fold's first paragraph (what to pick): over the figure they took
  // ~150 px of a phone's screen.
  slots.controls.append(controls.model.el, controls.method.el, controls.factor.el, controls.read.el, controls.pair.el);

  // Figure slot: the method's formula, the wavelength ladder, the score plot, the table ---------
  const formula = h('div', { class: 'formula extend-formulas' });
  const waveCaption = h('figcaption', {});
  const waveFigure = h('figure', { class: 'extend-figure extend-waves' }, waveCaption);
  // The ladder is drawn near 1:1 on a phone (a narrower drawing), so its type stays readable.
  const narrow = globalThis.matchMedia?.('(max-width: 560px)').matches;
  const ladder = new LogPlot(waveFigure, {
    label: '', width: narrow ? 360 : 560, height: narrow ? 300 : 320,
    xLabel: m.t('extend.waveX'), yLabel: m.t('extend.waveY'),
    formatX: int, formatY: decade,
  });
  const scoreCaption = h('figcaption', {});
  const scoreFigure = h('figure', { class: 'extend-figure extend-scores' }, scoreCaption);
  const plot = new LinePlot(scoreFigure, {
    xLabel: m.t('extend.scoreX'), yLabel: m.t('extend.scoreY'), label: '',
    // Distance ticks in thousands (they fall on whole thousands: L′ ≥ 8192); y ticks as they are.
    format: (v) => (v >= 1000 && v % 1000 === 0 ? m.t('extend.thousands', { n: int(v / 1000) }) : int(v)),
    cursorX: (v) => int(v),
    cursorY: (v) => score(v),
    keysHint: m.t('page.plotKeys'),
  });
  const tableCaption = h('caption', {});
  // One row per method, made once; each render rewrites the cells that changed.
  const tableRows = Object.fromEntries(METHODS.map((mt) => {
    const cells = Array.from({ length: 4 }, () => h('td'));
    return [mt, { tr: h('tr', { 'data-method': mt }, h('th', { scope: 'row' }, methodName[mt]), ...cells), cells }];
  }));
  const tableBody = h('tbody', {}, METHODS.map((mt) => tableRows[mt].tr));
  const table = stackOnPhone(h('table', { class: 'extend-table' }, tableCaption,
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col' }, m.t('extend.colMethod')),
      h('th', { scope: 'col' }, m.t('extend.colFactor')),
      h('th', { scope: 'col' }, m.t('extend.colRatio')),
      h('th', { scope: 'col' }, m.t('extend.colScoreL')),
      h('th', { scope: 'col' }, m.t('extend.colScoreEnd')))),
    tableBody));
  // Figure first: the wavelength ladder, plain and scaled, and the pair's cards. The method's
  // rule, the score plot and the table of every method are depth, each beside its paragraph.
  slots.figure.append(waveFigure);
  const tableBox = h('div', { class: 'extend-table-box table-scroller' }, table, h('p', { class: 'extend-rule' }, m.t('extend.tableNote')));

  const sym = (text) => h('span', { class: 'extend-sym' }, text);
  const out = {
    theta: readout('theta', h('span', {}, m.t('extend.readTheta'), ' ', sym('θᵢ'))),
    scaled: readout('scaled', h('span', {}, m.t('extend.readScaled'), ' ', sym('θ′ᵢ'))),
    ratio: readout('ratio', h('span', {}, m.t('extend.readRatio'), ' ', sym('θ′ᵢ/θᵢ'))),
    wavelength: readout('wavelength', h('span', {}, m.t('extend.readWavelength'), ' ', sym('2π/θ′ᵢ'))),
    attention: readout('attention', m.t('extend.readAttention')),
    scoreEnd: readout('scoreEnd', h('span', {}, m.t('extend.readScoreEnd'), ' ', sym('Δ = L′'))),
  };
  slots.readouts.append(readoutRow(out.theta, out.scaled, out.ratio, out.wavelength));
  const vars = { beta: BETA_FAST, high: HIGH_FF, llama31: int(PRESETS.llama31.read * MODELS.llama3.L), pairs: RANDOM_PAIRS };
  paragraphs(slots.notes, m, 'extend.notes', vars);
  const [pick, linear, ntk, dynamic, scores, base, longrope] = m.paras('extend.deeper', vars).map((p) => h('p', {}, p));
  slots.deeper.append(pick, h('div', { class: 'controls' }, presetGroup), formula, linear, ntk, dynamic,
    scoreFigure, quietReadoutRow(out.attention, out.scoreEnd), scores, tableBox, base, longrope);

  let drawnScores = null;  // the state the score plot shows
  let drawnRules = null;   // the state the method's rule shows

  function render() {
    const { model, method, factor, read, pair } = values;
    const c = computed(model, factor, read);
    const { base, L, readLength } = c;
    const plain = c.methods.none;
    const cur = c.methods[method];
    const theta = plain.invFreq[pair];
    const scaled = cur.invFreq[pair];
    const ratio = scaled / theta;
    const lambda = cur.wavelengths[pair];
    const name = methodName[method];
    const sEnd = cur.scoreAtEnd;

    // The method's rule, then the chosen pair's numbers: a move of the pair rewrites the second.
    const now = pairNow(m, { pair, theta, scaled, ratio, lambda, plainLambda: plain.wavelengths[pair] });
    const rulesKey = [method, base, L, factor, read, cur.attentionFactor].join();
    if (rulesKey === drawnRules && formula.lastElementChild) {
      formula.lastElementChild.replaceWith(now);
    } else {
      formula.replaceChildren(...methodRules(m, method, { base, L, factor, read, attention: cur.attentionFactor }), now);
      drawnRules = rulesKey;
    }

    // The ladder: plain wavelengths dashed, the method's solid with points, L and L′ across, and
    // the thresholds YaRN and Llama 3 put between keeping a pair and dividing it by the factor.
    const turning = plain.wavelengths.filter((w) => w <= L).length;
    const longest = Math.max(...cur.wavelengths);
    const top = 10 ** Math.ceil(Math.log10(Math.max(longest, readLength) * 1.5));
    // Every label at the left, where the curves are still low: at the right the plain curve
    // crossed the reading length's label.
    const hlines = [
      { y: readLength, cls: 'read', anchor: 'start', label: m.t('extend.lineRead', { n: int(readLength) }) },
      { y: L, cls: 'train', anchor: 'start', label: m.t('extend.lineTrain', { n: int(L) }) },
    ];
    if (method === 'yarn') hlines.push({ y: L / BETA_FAST, cls: 'band', anchor: 'start', label: m.t('extend.lineTurns', { turns: BETA_FAST, n: int(L / BETA_FAST) }) });
    if (method === 'llama3') hlines.push({ y: L / HIGH_FF, cls: 'band', anchor: 'start', label: m.t('extend.lineTurns', { turns: HIGH_FF, n: int(L / HIGH_FF) }) });
    const pairs = Array.from({ length: PAIRS }, (_, i) => i);
    ladder.draw({
      xDomain: [-1.5, PAIRS + 0.5],
      yDomain: [1, top],
      xTicks: [0, 8, 16, 24, 32, 40, 48, 56, 63],
      series: [
        ...(method === 'none' ? [] : [{ x: pairs, y: plain.wavelengths, cls: 'b', label: m.t('extend.legendPlain') }]),
        { x: pairs, y: cur.wavelengths, cls: 'a', points: true,
          label: method === 'none' ? m.t('extend.legendPlain') : m.t('extend.legendScaled', { method: name, s: factor }) },
      ],
      hlines,
      // Above its point, left of it: below it the label ran into the lines' labels under the curve.
      markers: [{ x: pair, y: lambda, cls: 'a', label: wave(lambda), labelAt: pair > 2 ? 'above-left' : 'below-right' }],
    });
    waveCaption.textContent = m.t('extend.waveCaption', { d: D, pairs: PAIRS, turning, slow: PAIRS - turning, L: int(L) });
    ladder.svg.setAttribute('aria-label', m.t(method === 'none' ? 'extend.waveAltPlain' : 'extend.waveAlt', {
      pairs: PAIRS, base: int(base), method: name, s: factor, L: int(L), Lr: int(readLength),
      turning, slow: PAIRS - turning, longest: wave(longest), longestPlain: wave(Math.max(...plain.wavelengths)),
      pair, wavelength: wave(lambda),
    }));

    // Nothing on the score plot depends on the pair: moving the slider leaves it alone.
    const scoreKey = `${model}/${method}/${factor}/${read}`;
    if (scoreKey !== drawnScores) drawScores(c, method, factor, read);
    drawnScores = scoreKey;

    // Every method at the same settings.
    tableCaption.textContent = m.t('extend.tableCaption', { pair, L: int(L), Lr: int(readLength), s: factor });
    for (const mt of METHODS) {
      const r = c.methods[mt];
      const { tr, cells } = tableRows[mt];
      tr.classList.toggle('current', mt === method);
      [[r.attentionFactor, m.fixed(r.attentionFactor, 4)], [r.invFreq[pair] / theta, sig(r.invFreq[pair] / theta)],
        [r.scoreAtL, score(r.scoreAtL)], [r.scoreAtEnd, score(r.scoreAtEnd)]].forEach(([v, text], k) => {
        if (cells[k].dataset.value !== String(v)) cells[k].dataset.value = String(v);
        if (cells[k].textContent !== text) cells[k].textContent = text;
      });
    }

    out.theta.set(sig(theta), theta);
    out.scaled.set(sig(scaled), scaled);
    out.ratio.set(sig(ratio), ratio);
    out.wavelength.set(wave(lambda), lambda);
    out.attention.set(m.fixed(cur.attentionFactor, 4), cur.attentionFactor);
    out.scoreEnd.set(score(sEnd), sEnd);
    controls.model.set(model);
    controls.method.set(method);
    controls.factor.set(factor);
    controls.read.set(read);
    controls.pair.set(pair);
    prefetch();
  }

  /**
   * The score against the distance: the method (with points: the keyboard cursor walks them)
   * and plain RoPE beneath it; L marked, and s·L where the factor covers less than L′.
   */
  function drawScores(c, method, factor, read) {
    const { L, readLength } = c;
    const plain = c.methods.none;
    const cur = c.methods[method];
    const name = methodName[method];
    const sL = cur.scoreAtL;
    const sEnd = cur.scoreAtEnd;
    const series = [{ x: c.distances, y: cur.scores, cls: 'a', points: true, cursor: true, label: m.t('extend.legendScore', { method: name }) }];
    if (method !== 'none') series.push({ x: c.distances, y: plain.scores, cls: 'b', label: m.t('extend.legendScorePlain') });
    series.push({ x: c.distances, y: cur.random, cls: 'c', label: m.t('extend.legendRandom', { pairs: RANDOM_PAIRS, method: name }) });
    let lo = 0;
    let hi = 0;
    for (const sr of series) for (const v of sr.y) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
    const vlines = [{ x: L, cls: 'train', label: m.t('extend.markTrain', { n: int(L) }) }];
    if (method !== 'none' && method !== 'dynamic' && factor < read) {
      vlines.push({ x: factor * L, cls: 'cover', label: m.t('extend.markCover', { s: factor, n: int(factor * L) }) });
    }
    plot.draw({
      xDomain: [0, readLength],
      yDomain: [Math.floor(lo / 25) * 25 - 10, Math.ceil(hi / 25) * 25 + 10],
      series, vlines,
      markers: [{ x: L, y: sL, cls: 'a' }, { x: readLength, y: sEnd, cls: 'a' }],
    });
    scoreCaption.textContent = m.t('extend.scoreCaption', { Lr: int(readLength), L: int(L), pairs: RANDOM_PAIRS });
    let far = 0;  // the random mean's largest distance from 0, for the description
    for (const v of cur.random) far = Math.max(far, Math.abs(v));
    plot.svg.setAttribute('aria-label', `${m.t(method === 'none' ? 'extend.scoreAltPlain' : 'extend.scoreAlt', {
      method: name, s: factor, Lr: int(readLength), L: int(L), n: SAMPLES + 1,
      s0: score(cur.scores[0]), sL: score(sL), sEnd: score(sEnd),
      p0: score(plain.scores[0]), pL: score(plain.scoreAtL), pEnd: score(plain.scoreAtEnd),
    })} ${m.t('extend.scoreAltRandom', { pairs: RANDOM_PAIRS, far: score(far) })}`);
  }

  // While the browser is idle, prepare the settings one control away from the one shown (another
  // model, factor or reading length): their table values and the two curves a change to them
  // would draw (the current method's and plain RoPE's), so that the change only has to draw.
  // Then the table values of every other setting, without curves: in WebKit a drag's changes,
  // one frame apart, left too little idle time to compute the neighbours of each new setting,
  // and a change to one not computed missed the update budget. Curves only for the neighbours
  // (render() asks again after every change): with all six curves of all 50 settings computed in
  // the first idle slots, the changes made meanwhile drew several times slower in Firefox
  // (docs/benchmarks.md).
  const ALL_SETTINGS = Object.keys(MODELS).flatMap((mo) => FACTORS.flatMap((f) => READS.map((r) => [mo, f, r])));
  /** The next piece of idle work: { setting, curves } (curves: the neighbour's two too), or null. */
  const nextWork = () => {
    const { model, factor, read } = values;
    const near = [
      ...FACTORS.map((f) => [model, f, read]),
      ...READS.map((r) => [model, factor, r]),
      ...Object.keys(MODELS).map((other) => [other, factor, read]),
    ];
    // Settings not computed first: a change to one computes all six methods' values, to one
    // whose curves only are missing, two curves (after a method change every neighbour's are).
    const setting = near.find((x) => !computed.has(...x)) ?? near.find((x) => !computed(...x).methods[values.method].curvesReady);
    if (setting) return { setting, curves: true };
    const far = ALL_SETTINGS.find((x) => !computed.has(...x));
    return far ? { setting: far, curves: false } : null;
  };
  // Without requestIdleCallback (Safari): right after the next frame, until 12 ms into it (a
  // later timer ran between every second or third change of a drag).
  const idle = (fn) => whenIdle(fn, { fallback: 'frame', slot: 10 });
  let waiting = false;
  // At least one setting per idle slot, more while the slot lasts: between changes one frame
  // apart (a drag) the slots are short, and waiting for one of more than 6 ms left the settings
  // to be computed inside the changes that first asked for them.
  const fill = (deadline) => {
    waiting = false;
    let next = nextWork();
    while (next) {
      // The setting, and for a neighbour the two curves a change to it would draw (one when the
      // method is plain RoPE).
      const { methods } = computed(...next.setting);
      if (next.curves) {
        methods[values.method].prepareCurves();
        methods.none.prepareCurves();
      }
      next = nextWork();
      if (deadline.timeRemaining() <= 6) break;
    }
    if (next) prefetch();
  };
  function prefetch() {
    if (waiting || !nextWork()) return;
    waiting = true;
    idle(fill);
  }

  const set = setter(render);  // patch the values, redraw (timed), write the URL

  render();  // (and asks for the settings around it)

  return {
    tables: () => {
      const c = computed(values.model, values.factor, values.read);
      return [
        {
          name: 'frequencies', label: m.t('extend.csvFrequencies'),
          header: ['pair', ...METHODS.map((mt) => `theta_${mt}`), ...METHODS.map((mt) => `wavelength_${mt}`)],
          rows: Array.from({ length: PAIRS }, (_, i) => [i,
            ...METHODS.map((mt) => c.methods[mt].invFreq[i]), ...METHODS.map((mt) => c.methods[mt].wavelengths[i])]),
        },
        {
          name: 'scores', label: m.t('extend.csvScores'),
          header: ['distance', ...METHODS.map((mt) => `score_${mt}`), ...METHODS.map((mt) => `random_mean_${mt}`)],
          // Built when read: the page lists the tables when the step mounts, and these rows
          // would compute every method's curves.
          get rows() {
            return Array.from(c.distances, (dist, k) => [dist,
              ...METHODS.map((mt) => c.methods[mt].scores[k]), ...METHODS.map((mt) => c.methods[mt].random[k])]);
          },
        },
      ];
    },
  };
}
