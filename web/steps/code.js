// Step "code": every number of the explainer, reproduced in NumPy and in PyTorch. Pick a
// quantity (the readouts of the six first steps and three families: T5 buckets, ALiBi biases,
// scaled RoPE frequencies), set its parameters, read the value the core computes, and copy a
// snippet with those parameters filled in that prints the same digits.
//
// Digits: the readout is rounded half-to-even without grouping, which is what Python's
// f"{x:.Nf}" does to the same binary number, so a snippet's output and the readout agree to the
// last shown digit (tests/browser/code.test.js runs the NumPy snippets, and the PyTorch ones when
// torch is installed).
import { h } from '../kit/dom.js';
import { button, choice, slider, toggle } from '../kit/controls.js';
import { LinePlot } from '../kit/lineplot.js';
import { readout, readoutRow } from '../kit/readout.js';
import { paragraphs, stepFrame } from '../kit/step.js';

export const id = 'code';

const QUANTITIES = ['pe', 'wavelength', 'dot', 'rope', 't5', 'alibi', 'scaled'];
const SCALINGS = ['default', 'linear', 'ntk', 'dynamic', 'yarn', 'llama3'];
const FACTORS = [2, 4, 8, 16, 32];
const WIDTHS = [8, 16];
const ALIBI_HEADS = 16;     // slider ranges of the ALiBi quantity
const ALIBI_DISTANCE = 20;

// The fixed settings of each quantity: those of the step it comes from.
export const SETUP = {
  pe: { positions: 50, d: 20, base: 10000 },           // step 2
  wavelength: { d: 16, base: 10000 },                  // step 3
  dot: { base: 10000 },                                // steps 4 (d = 16) and 6 (d = 8)
  rope: { d: 8, base: 10000, pair: [0.6, 0.4] },       // steps 5 and 6, interleaved pairs
  t5: { numBuckets: 32, maxDistance: 128 },            // T5's defaults
  alibi: {},
  scaled: { d: 128, base: 10000, original: 4096 },     // a 4k-context model stretched by factor
};

export const params = {
  quantity: { type: 'enum', values: QUANTITIES, default: 'pe' },
  pos: { type: 'int', min: 0, max: SETUP.pe.positions - 1, default: 10 },
  dim: { type: 'int', min: 0, max: SETUP.pe.d - 1, default: 4 },
  wdim: { type: 'int', min: 0, max: SETUP.wavelength.d - 1, default: 2 },
  width: { type: 'enum', values: WIDTHS, default: 16 },
  i: { type: 'int', min: 0, max: 19, default: 3 },
  j: { type: 'int', min: 0, max: 19, default: 8 },
  m: { type: 'int', min: 0, max: 19, default: 3 },
  n: { type: 'int', min: 0, max: 19, default: 7 },
  rel: { type: 'int', min: -200, max: 200, default: -20 },
  bidir: { type: 'bool', default: true },
  heads: { type: 'int', min: 1, max: ALIBI_HEADS, default: 8 },
  head: { type: 'int', min: 1, max: ALIBI_HEADS, default: 3 },
  dist: { type: 'int', min: 0, max: ALIBI_DISTANCE, default: 5 },
  scaling: { type: 'enum', values: SCALINGS, default: 'yarn' },
  factor: { type: 'enum', values: FACTORS, default: 8 },
  pair: { type: 'int', min: 0, max: SETUP.scaled.d / 2 - 1, default: 40 },
};

// Which controls each quantity shows, in order.
const CONTROLS = {
  pe: ['pos', 'dim'],
  wavelength: ['wdim'],
  dot: ['width', 'i', 'j'],
  rope: ['m', 'n'],
  t5: ['rel', 'bidir'],
  alibi: ['heads', 'head', 'dist'],
  scaled: ['scaling', 'factor', 'pair'],
};

// Digits after the decimal point of each readout (and of the snippet's print).
export const DIGITS = { pe: 4, wavelength: 2, dot: 4, rope: 4, t5: 0, alibi: 6, scaled: 2 };

/** The scaling object core.ropeFrequencies takes for the `scaled` quantity. */
export function scalingOf(type, factor) {
  const L = SETUP.scaled.original;
  switch (type) {
    case 'linear': return { type, factor };
    case 'ntk': return { type, factor };
    case 'dynamic': return { type, factor, maxPositions: L, seqLen: factor * L };
    case 'yarn': return { type, factor, originalMaxPositions: L };
    case 'llama3': return { type, factor, originalMaxPositions: L };
    default: return { type: 'default' };
  }
}

export function mount(root, { core, m, values, setter, index, total }) {
  const slots = stepFrame(root, m, { id, index, total });
  values.head = Math.min(values.head, values.heads);

  // Half-to-even like Python's format(), no grouping (Python prints none), the locale's mark.
  const formats = new Map();
  const fmt = (v, digits) => {
    if (!formats.has(digits)) {
      formats.set(digits, new Intl.NumberFormat(m.lang, {
        minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false, roundingMode: 'halfEven',
      }));
    }
    return formats.get(digits).format(v);
  };

  // Core results that depend only on fixed settings or a few choices, computed once each.
  const memo = new Map();
  const once = (key, fn) => {
    if (!memo.has(key)) memo.set(key, fn());
    return memo.get(key);
  };
  const peTable = () => once('pe', () => core.sinusoidal(SETUP.pe.positions, SETUP.pe.d, { base: SETUP.pe.base }));
  const sinFreqs = (d) => once(`freqs${d}`, () => core.sinusoidalFrequencies(d, { base: 10000 }));

  // What the core says for the current quantity: { value, call } (call: the JS that computed it).
  const compute = {
    pe({ pos, dim }) {
      const { positions, d } = SETUP.pe;
      const table = peTable();
      return { value: table[pos * d + dim], call: `core.sinusoidal(${positions}, ${d})[${pos} * ${d} + ${dim}]` };
    },
    wavelength({ wdim }) {
      const { d } = SETUP.wavelength;
      const omega = sinFreqs(d)[Math.floor(wdim / 2)];
      return { value: (2 * Math.PI) / omega, call: `2π / core.sinusoidalFrequencies(${d})[${Math.floor(wdim / 2)}]` };
    },
    dot({ width, i, j }) {
      return { value: core.sinusoidalDot(i, j, width, { base: SETUP.dot.base }), call: `core.sinusoidalDot(${i}, ${j}, ${width})` };
    },
    rope({ m: qpos, n: kpos }) {
      const { d, pair } = SETUP.rope;
      const x = Float32Array.from({ length: d }, (_, c) => pair[c % 2]);
      const q = core.ropeApply(x, [qpos], d, { layout: 'interleaved' });
      const k = core.ropeApply(x, [kpos], d, { layout: 'interleaved' });
      return {
        value: core.attention(q, k, d, { softmax: false, scale: 1 })[0],
        call: `core.attention(core.ropeApply(x, [${qpos}], ${d}, { layout: 'interleaved' }), core.ropeApply(x, [${kpos}], ${d}, { layout: 'interleaved' }), ${d}, { softmax: false, scale: 1 })`,
      };
    },
    t5({ rel, bidir }) {
      const { numBuckets, maxDistance } = SETUP.t5;
      return {
        value: core.t5Bucket([rel], { bidirectional: bidir, numBuckets, maxDistance })[0],
        call: `core.t5Bucket([${rel}], { bidirectional: ${bidir} })`,
      };
    },
    alibi({ heads, head, dist }) {
      const slope = core.alibiSlopes(heads)[head - 1];
      // Row i = dist (the query), column j = 0 (the key): −slope · dist.
      const bias = core.alibiBias(dist + 1, slope)[dist * (dist + 1)];
      return { value: bias === 0 ? 0 : bias, call: `core.alibiBias(${dist + 1}, core.alibiSlopes(${heads})[${head - 1}])[${dist} * ${dist + 1}]` };
    },
    scaled({ scaling, factor, pair }) {
      const { d, base } = SETUP.scaled;
      const f = core.ropeFrequencies(d, { base, scaling: scalingOf(scaling, factor) });
      return { value: (2 * Math.PI) / f.invFreq[pair], call: `2π / core.ropeFrequencies(${d}, { scaling: { type: '${scaling}', … } }).invFreq[${pair}]` };
    },
  };

  // Controls ------------------------------------------------------------------------------------
  // The quantity picker sits above the workbench; the parameter controls below it are rebuilt
  // when the quantity changes (only the current quantity's controls exist).
  const picker = choice({
    name: 'quantity', label: m.t('code.quantity'),
    options: QUANTITIES.map((q) => ({ value: q, label: m.t(`code.q.${q}`) })),
    value: values.quantity,
    onChange: (q) => set({ quantity: q }),
  });
  picker.el.classList.add('code-picker');
  slots.controls.parentElement.before(picker.el);

  const makeControl = (name) => {
    const spec = params[name];
    const label = m.t(`code.ctl.${name}`);
    if (name === 'head') {
      return slider({ name, label, min: 1, max: values.heads, value: values.head, onInput: (v) => set({ head: v }) });
    }
    if (spec.type === 'int') {
      return slider({ name, label, min: spec.min, max: spec.max, value: values[name], onInput: (v) => set({ [name]: v }) });
    }
    if (spec.type === 'bool') return toggle({ name, label, checked: values[name], onChange: (v) => set({ [name]: v }) });
    const optionLabel = (v) => (name === 'scaling' ? m.t(`code.scaling.${v}`) : name === 'factor' ? `×${v}` : String(v));
    return choice({
      name, label, value: values[name],
      options: spec.values.map((v) => ({ value: v, label: optionLabel(v) })),
      onChange: (v) => set({ [name]: spec.values.find((x) => String(x) === String(v)) }),
    });
  };
  let shownFor = null;
  let controls = {};
  function buildControls() {
    if (shownFor === values.quantity) return;
    shownFor = values.quantity;
    controls = Object.fromEntries(CONTROLS[values.quantity].map((name) => [name, makeControl(name)]));
    slots.controls.replaceChildren(...Object.values(controls).map((c) => c.el));
  }

  // Figure: the core call, a table of the settings, and the two snippets ------------------------
  const call = h('code', { class: 'code-call-text' });
  const settings = h('table', { class: 'code-settings' });
  const snippetBlock = (lib) => {
    const taId = `code-${lib}-${Math.random().toString(36).slice(2, 8)}`;
    const area = h('textarea', {
      id: taId, class: 'code-snippet', readonly: true, spellcheck: 'false', wrap: 'off', 'data-lib': lib,
    });
    const status = h('span', { class: 'code-status', role: 'status' });
    const copy = button({
      name: `copy-${lib}`, label: m.t(`code.copy.${lib}`),
      onClick: async () => {
        area.focus();
        area.select();
        try {
          await navigator.clipboard.writeText(area.value);
          status.textContent = m.t('code.copied');
        } catch {
          status.textContent = m.t('code.selectHint');
        }
      },
    });
    const el = h('div', { class: 'code-block' },
      h('label', { for: taId, class: 'code-lib' }, m.t(`code.lib.${lib}`)),
      area,
      h('div', { class: 'code-actions' }, copy, status));
    return { el, area, status };
  };
  const numpy = snippetBlock('numpy');
  const torch = snippetBlock('torch');
  // The quantity in context: its curve over the main parameter, the current setting marked.
  // One plot for every quantity (its axis labels change with it), so the Save PNG button keeps
  // pointing at the drawing on the page.
  const fig = h('figure', { class: 'code-fig' });
  const figCaption = h('figcaption', {});
  fig.append(figCaption);
  const tickText = (v) => m.fixed(v, Math.min(3, (String(+v.toFixed(6)).split('.')[1] ?? '').length));
  const plot = new LinePlot(fig, {
    xLabel: '', yLabel: '', label: '', format: tickText,
    cursorX: (v) => m.fixed(v, 0), cursorY: (v) => fmt(v, DIGITS[values.quantity] || 0),
    keysHint: m.t('page.plotKeys'),
  });
  slots.figure.append(
    h('p', { class: 'code-call' }, h('span', { class: 'code-call-label' }, m.t('code.callLabel')), ' ', call),
    fig,
    h('div', { class: 'code-table-wrap' }, settings));
  // The programs follow the value card, before the notes.
  slots.notes.before(h('div', { class: 'code-programs' },
    h('p', { class: 'code-run' }, m.t('code.run')),
    h('div', { class: 'code-blocks' }, numpy.el, torch.el)));

  const valueCard = readout('value', h('span', { class: 'code-value-label' }));  // keeps its case: d is not D
  const labelEl = valueCard.el.querySelector('.code-value-label');
  slots.readouts.append(readoutRow(valueCard));
  paragraphs(slots.notes, m, 'code.notes');

  let current = null;  // { quantity, rows, value } for the CSV

  const range = (a, b) => Float64Array.from({ length: b - a + 1 }, (_, k) => a + k);
  // What each quantity's plot shows: x and y series from the core, the marked point, domains.
  const curves = {
    pe({ pos, dim }) {
      const { positions, d } = SETUP.pe;
      const table = peTable();
      const x = range(0, positions - 1);
      const y = Float64Array.from(x, (p) => table[p * d + dim]);
      const omega = sinFreqs(d)[Math.floor(dim / 2)];
      return { x, y, at: pos, yDomain: [-1.15, 1.15], vars: { wavelength: m.fixed((2 * Math.PI) / omega, 2) } };
    },
    wavelength({ wdim }) {
      const { d } = SETUP.wavelength;
      const freqs = sinFreqs(d);
      const x = range(0, d - 1);
      const y = Float64Array.from(x, (k) => Math.log10((2 * Math.PI) / freqs[Math.floor(k / 2)]));
      return { x, y, at: wdim, yDomain: [0, 5], vars: { longest: m.fixed(10 ** y[d - 1], 2) } };
    },
    dot({ width, i }) {
      const x = range(0, 19);
      const y = Float64Array.from(x, (j) => core.sinusoidalDot(i, j, width, { base: SETUP.dot.base }));
      return { x, y, at: values.j, yDomain: [Math.min(0, ...y) - 0.5, width / 2 + 0.5], vars: { max: m.fixed(width / 2, 0) } };
    },
    rope({ m: qpos }) {
      const { d, pair } = SETUP.rope;
      const x = range(0, 19);
      const keys = once('ropeKeys', () => core.ropeApply(
        Float32Array.from({ length: x.length * d }, (_, c) => pair[c % 2]), x.length, d, { layout: 'interleaved' }));
      const q = core.ropeApply(Float32Array.from({ length: d }, (_, c) => pair[c % 2]), [qpos], d, { layout: 'interleaved' });
      const y = Float64Array.from(core.attention(q, keys, d, { softmax: false, scale: 1 }));
      return { x, y, at: values.n, yDomain: [-2.3, 2.3], vars: { max: fmt(y[qpos], 4) } };
    },
    t5({ bidir }) {
      const { numBuckets, maxDistance } = SETUP.t5;
      const x = once('t5x', () => range(params.rel.min, params.rel.max));
      const y = once(`t5${bidir}`, () => Float64Array.from(core.t5Bucket(x, { bidirectional: bidir, numBuckets, maxDistance })));
      return { x, y, at: values.rel, points: false, yDomain: [-1, numBuckets], vars: { mode: m.t(bidir ? 'code.mode.bi' : 'code.mode.uni') } };
    },
    alibi({ heads, head }) {
      const slope = core.alibiSlopes(heads)[head - 1];
      const n = ALIBI_DISTANCE + 1;
      const bias = core.alibiBias(n, slope);
      const x = range(0, ALIBI_DISTANCE);
      const y = Float64Array.from(x, (i) => bias[i * n] || 0);  // row i, key 0: distance i
      return { x, y, at: values.dist, yDomain: [y[n - 1] * 1.1, -y[n - 1] * 0.1], vars: { slope: fmt(slope, 6) } };
    },
    scaled({ scaling, factor }) {
      const { d, base } = SETUP.scaled;
      const scaled = core.ropeFrequencies(d, { base, scaling: scalingOf(scaling, factor) }).invFreq;
      const plain = once('ropePlain', () => core.ropeFrequencies(d, { base }).invFreq);
      const x = range(0, d / 2 - 1);
      const y = Float64Array.from(scaled, (f) => Math.log10((2 * Math.PI) / f));
      const y0 = Float64Array.from(plain, (f) => Math.log10((2 * Math.PI) / f));
      return { x, y, at: values.pair, points: false, extra: { x, y: y0, cls: 'b', label: m.t('code.legendPlain') }, yDomain: [0, 7], vars: {} };
    },
  };

  function drawCurve(q, text) {
    const c = curves[q](values);
    const names = {
      pos: values.pos, dim: values.dim, wdim: values.wdim, width: values.width, i: values.i, j: values.j,
      m: values.m, n: values.n, rel: values.rel, heads: values.heads, head: values.head, dist: values.dist,
      factor: values.factor, pair: values.pair, scaling: m.t(`code.scaling.${values.scaling}`), value: text, ...c.vars,
    };
    const k = c.x.indexOf(c.at);
    plot.labels.x = m.t(`code.x.${q}`, names);
    plot.labels.y = m.t(`code.y.${q}`, names);
    plot.xLabel.textContent = plot.labels.x;
    plot.yLabel.textContent = plot.labels.y;
    plot.draw({
      xDomain: [c.x[0], c.x[c.x.length - 1]],
      yDomain: c.yDomain,
      series: [
        ...(c.extra ? [c.extra] : []),
        { x: c.x, y: c.y, cls: 'a', points: c.points ?? true, cursor: true, label: m.t(`code.legend.${q}`, names) },
      ],
      markers: [{ x: c.at, y: c.y[k], cls: 'a' }],
    });
    figCaption.textContent = m.t(`code.fig.${q}`, names);
    plot.svg.setAttribute('aria-label', m.t(`code.alt.${q}`, names));
  }

  function render() {
    buildControls();
    const q = values.quantity;
    if (q === 'alibi') values.head = Math.min(values.head, values.heads);
    const { value, call: callText } = compute[q](values);
    const digits = DIGITS[q];
    const text = fmt(value, digits);
    const p = { ...values, ...SETUP[q], digits };
    labelEl.textContent = m.t(`code.value.${q}`, {
      pos: values.pos, dim: values.dim, wdim: values.wdim, width: values.width, i: values.i, j: values.j,
      m: values.m, n: values.n, rel: values.rel, heads: values.heads, head: values.head, dist: values.dist,
      factor: values.factor, pair: values.pair, scaling: m.t(`code.scaling.${values.scaling}`),
    });
    valueCard.set(text, value);
    call.textContent = callText;

    // The settings the snippet uses: the controls' values and the quantity's fixed ones.
    const rows = [
      ...CONTROLS[q].map((name) => [name, values[name]]),
      ...Object.entries(SETUP[q]).map(([k, v]) => [k, Array.isArray(v) ? `(${v.join(', ')})` : v]),
    ];
    settings.replaceChildren(
      h('caption', {}, m.t('code.settingsCaption')),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, m.t('code.settingName')), h('th', { scope: 'col' }, m.t('code.settingValue')))),
      h('tbody', {}, ...rows.map(([k, v]) => h('tr', {}, h('th', { scope: 'row' }, h('code', {}, k)), h('td', {}, h('code', {}, String(v)))))),
    );
    current = { q, rows, value };

    drawCurve(q, text);

    const np = SNIPPETS.numpy[q](p);
    const pt = SNIPPETS.torch[q](p);
    for (const [block, code] of [[numpy, np], [torch, pt]]) {
      if (block.area.value !== code) {
        block.area.value = code;
        block.area.rows = code.split('\n').length;
        block.status.textContent = '';
      }
    }

    for (const name of CONTROLS[q]) {
      if (name === 'head') {
        controls.head.input.max = String(values.heads);
      }
      controls[name].set(values[name]);
    }
  }

  const set = setter(render);

  render();
  return {
    tables: () => [{
      name: 'value', label: m.t('code.csv'),
      header: ['quantity', 'setting', 'value'],
      rows: [...current.rows.map(([k, v]) => [current.q, k, v]), [current.q, 'result', current.value]],
    }],
  };
}

// Snippets ---------------------------------------------------------------------------------------
// Each takes the current settings and returns a complete program that prints the readout's
// digits. They compute in float64 (torch too: its float32 default would move the last digit at
// larger positions); where the core returns float32 (the ALiBi bias) they cast the same way.
const py = (v) => (Number.isInteger(v) ? `${v}.0` : String(v));
const pyBool = (v) => (v ? 'True' : 'False');
const lines = (...l) => `${l.join('\n')}\n`;

// ALiBi slopes as in the reference code: geometric for a power of two, else the largest power of
// two below n plus every other slope of twice that.
const pySlopes = [
  'def slopes(n):',
  '    if math.log2(n).is_integer():',
  '        return [2 ** (-8 * k / n) for k in range(1, n + 1)]',
  '    c = 2 ** math.floor(math.log2(n))',
  '    return slopes(c) + slopes(2 * c)[0::2][: n - c]',
];

// The scaled inverse frequencies, written once for each library (`xp` is np or torch).
function pyScaled(p, lib) {
  const t = lib === 'torch';
  const ar = t ? 'torch.arange(0, d, 2, dtype=torch.float64)' : 'np.arange(0, d, 2)';
  const idx = t ? 'torch.arange(d // 2, dtype=torch.float64)' : 'np.arange(d // 2)';
  const clip = t ? 'torch.clamp' : 'np.clip';
  const where = t ? 'torch.where' : 'np.where';
  const head = [
    t ? 'import math' : 'import math',
    t ? 'import torch' : 'import numpy as np',
    '',
    `d, base, original = ${p.d}, ${py(p.base)}, ${p.original}`,
    `scaling, factor, pair = "${p.scaling}", ${p.factor}, ${p.pair}`,
    '',
  ];
  const body = {
    default: [
      `inv_freq = 1.0 / base ** (${ar} / d)`,
    ],
    linear: [
      `inv_freq = 1.0 / base ** (${ar} / d)`,
      'inv_freq = inv_freq / factor',
    ],
    ntk: [
      'base = base * factor ** (d / (d - 2))  # static NTK-aware: the slowest pair slows by factor',
      `inv_freq = 1.0 / base ** (${ar} / d)`,
    ],
    dynamic: [
      'seq_len = factor * original',
      'base = base * (factor * seq_len / original - (factor - 1)) ** (d / (d - 2))',
      `inv_freq = 1.0 / base ** (${ar} / d)`,
    ],
    yarn: [
      `inv_freq = 1.0 / base ** (${ar} / d)`,
      'def correction_dim(turns):',
      '    return d * math.log(original / (turns * 2 * math.pi)) / (2 * math.log(base))',
      'low = max(math.floor(correction_dim(32)), 0)',
      'high = min(math.ceil(correction_dim(1)), d - 1)',
      'if low == high:',
      '    high += 0.001',
      `ramp = ${clip}((${idx} - low) / (high - low), 0, 1)`,
      'inv_freq = inv_freq * (1 - ramp) + (inv_freq / factor) * ramp',
    ],
    llama3: [
      'low_freq_factor, high_freq_factor = 1.0, 4.0',
      `inv_freq = 1.0 / base ** (${ar} / d)`,
      'wavelen = 2 * math.pi / inv_freq',
      'smooth = (original / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)',
      'blend = (1 - smooth) * inv_freq / factor + smooth * inv_freq',
      `inv_freq = ${where}(wavelen > original / low_freq_factor, inv_freq / factor,`,
      `                    ${where}(wavelen < original / high_freq_factor, inv_freq, blend))`,
    ],
  }[p.scaling];
  const last = t ? 'inv_freq[pair].item()' : 'inv_freq[pair]';
  return lines(...head, ...body, `print(f"{2 * math.pi / ${last}:.${p.digits}f}")`);
}

export const SNIPPETS = {
  numpy: {
    pe: (p) => lines(
      'import numpy as np',
      '',
      `positions, d, base = ${p.positions}, ${p.d}, ${py(p.base)}`,
      `pos, dim = ${p.pos}, ${p.dim}`,
      '',
      'omega = base ** (-np.arange(0, d, 2) / d)  # one frequency per sin/cos pair',
      'angles = np.arange(positions)[:, None] * omega',
      'table = np.empty((positions, d))',
      'table[:, 0::2] = np.sin(angles)',
      'table[:, 1::2] = np.cos(angles)',
      `print(f"{table[pos, dim]:.${p.digits}f}")`,
    ),
    wavelength: (p) => lines(
      'import numpy as np',
      '',
      `d, base = ${p.d}, ${py(p.base)}`,
      `dim = ${p.wdim}`,
      '',
      'omega = base ** (-np.arange(0, d, 2) / d)',
      'wavelength = 2 * np.pi / omega[dim // 2]  # dims 2i and 2i+1 share a wave',
      `print(f"{wavelength:.${p.digits}f}")`,
    ),
    dot: (p) => lines(
      'import numpy as np',
      '',
      `d, base = ${p.width}, ${py(p.base)}`,
      `i, j = ${p.i}, ${p.j}`,
      '',
      'def pe(pos):',
      '    omega = base ** (-np.arange(0, d, 2) / d)',
      '    row = np.empty(d)',
      '    row[0::2] = np.sin(pos * omega)',
      '    row[1::2] = np.cos(pos * omega)',
      '    return row',
      '',
      `print(f"{pe(i) @ pe(j):.${p.digits}f}")`,
    ),
    rope: (p) => lines(
      'import numpy as np',
      '',
      `d, base = ${p.d}, ${py(p.base)}`,
      `m, n = ${p.m}, ${p.n}`,
      `q = np.tile([${p.pair.join(', ')}], d // 2)`,
      `k = np.tile([${p.pair.join(', ')}], d // 2)`,
      '',
      'theta = base ** (-np.arange(0, d, 2) / d)',
      '',
      'def rotate(x, pos):  # pairs (0, 1), (2, 3), ...',
      '    a, b = x[0::2], x[1::2]',
      '    cos, sin = np.cos(pos * theta), np.sin(pos * theta)',
      '    out = np.empty_like(x)',
      '    out[0::2] = a * cos - b * sin',
      '    out[1::2] = b * cos + a * sin',
      '    return out',
      '',
      `print(f"{rotate(q, m) @ rotate(k, n):.${p.digits}f}")`,
    ),
    t5: (p) => lines(
      'import numpy as np',
      '',
      `num_buckets, max_distance = ${p.numBuckets}, ${p.maxDistance}`,
      `bidirectional = ${pyBool(p.bidir)}`,
      `rel = np.array([${p.rel}])  # key position - query position`,
      '',
      'nb = num_buckets // 2 if bidirectional else num_buckets',
      'if bidirectional:',
      '    bucket = np.where(rel > 0, nb, 0)',
      '    n = np.abs(rel)',
      'else:',
      '    bucket = np.zeros_like(rel)',
      '    n = np.maximum(-rel, 0)',
      'exact = nb // 2',
      'steps = np.log(np.maximum(n, 1) / exact) / np.log(max_distance / exact) * (nb - exact)',
      '# + 1e-9: at n = 16, 32, 64 the quotient is a whole number that float64 may miss by a hair',
      'large = np.minimum(exact + np.floor(steps + 1e-9).astype(int), nb - 1)',
      'bucket = bucket + np.where(n < exact, n, large)',
      'print(bucket[0])',
    ),
    alibi: (p) => lines(
      'import math',
      'import numpy as np',
      '',
      ...pySlopes,
      '',
      `heads, head = ${p.heads}, ${p.head}  # head counts from 1`,
      `i = ${p.dist}  # the query position; the keys are j = 0..i`,
      'slope = slopes(heads)[head - 1]',
      'row = (slope * (np.arange(i + 1) - i)).astype(np.float32)  # -slope*(i-j)',
      `print(f"{row[0]:.${p.digits}f}")`,
    ),
    scaled: (p) => pyScaled(p, 'numpy'),
  },
  torch: {
    // The table as a PyTorch model keeps it: built once up to a maximum length, held in a buffer,
    // added to a batch-first input. The zero input makes the output the table itself.
    pe: (p) => lines(
      'import math',
      'import torch',
      'from torch import nn',
      '',
      `positions, d, base = ${p.positions}, ${p.d}, ${py(p.base)}`,
      `pos, dim = ${p.pos}, ${p.dim}`,
      '',
      '',
      'class SinusoidalPositions(nn.Module):',
      '    """Adds PE(0), ..., PE(seq_len - 1) to a batch-first input [batch, seq_len, d_model]."""',
      '',
      '    def __init__(self, d_model, max_len, base=10000.0):',
      '        super().__init__()',
      '        rate = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float64) * (-math.log(base) / d_model))',
      '        angle = torch.arange(max_len, dtype=torch.float64)[:, None] * rate',
      '        table = torch.empty(max_len, d_model, dtype=torch.float64)',
      '        table[:, 0::2] = torch.sin(angle)',
      '        table[:, 1::2] = torch.cos(angle)',
      '        # A buffer moves with the module and is saved in its state_dict, but it is no',
      '        # parameter: the optimiser never changes it.',
      '        self.register_buffer("table", table)',
      '',
      '    def forward(self, x):',
      '        return x + self.table[: x.size(1)]',
      '',
      '',
      'module = SinusoidalPositions(d, max_len=positions, base=base)',
      'out = module(torch.zeros(1, positions, d, dtype=torch.float64))',
      `print(f"{out[0, pos, dim].item():.${p.digits}f}")`,
    ),
    wavelength: (p) => lines(
      'import math',
      'import torch',
      '',
      `d, base = ${p.d}, ${py(p.base)}`,
      `dim = ${p.wdim}`,
      '',
      'div_term = torch.exp(torch.arange(0, d, 2, dtype=torch.float64) * (-math.log(base) / d))',
      `print(f"{2 * math.pi / div_term[dim // 2].item():.${p.digits}f}")`,
    ),
    dot: (p) => lines(
      'import math',
      'import torch',
      '',
      `d, base = ${p.width}, ${py(p.base)}`,
      `i, j = ${p.i}, ${p.j}`,
      '',
      'div_term = torch.exp(torch.arange(0, d, 2, dtype=torch.float64) * (-math.log(base) / d))',
      'pos = torch.tensor([[i], [j]], dtype=torch.float64)',
      'pe = torch.zeros(2, d, dtype=torch.float64)',
      'pe[:, 0::2] = torch.sin(pos * div_term)',
      'pe[:, 1::2] = torch.cos(pos * div_term)',
      `print(f"{torch.dot(pe[0], pe[1]).item():.${p.digits}f}")`,
    ),
    rope: (p) => lines(
      'import torch',
      '',
      `d, base = ${p.d}, ${py(p.base)}`,
      `m, n = ${p.m}, ${p.n}`,
      `q = torch.tensor([${p.pair.join(', ')}] * (d // 2), dtype=torch.float64)`,
      `k = torch.tensor([${p.pair.join(', ')}] * (d // 2), dtype=torch.float64)`,
      '',
      'freqs = 1.0 / base ** (torch.arange(0, d, 2, dtype=torch.float64) / d)',
      '',
      'def rotate(x, pos):  # pair (2i, 2i+1) as a complex number, turned by pos*freq',
      '    z = torch.view_as_complex(x.reshape(-1, 2))',
      '    turn = torch.polar(torch.ones_like(freqs), pos * freqs)',
      '    return torch.view_as_real(z * turn).flatten()',
      '',
      `print(f"{torch.dot(rotate(q, m), rotate(k, n)).item():.${p.digits}f}")`,
    ),
    t5: (p) => lines(
      'import math',
      'import torch',
      '',
      `num_buckets, max_distance = ${p.numBuckets}, ${p.maxDistance}`,
      `bidirectional = ${pyBool(p.bidir)}`,
      `rel = torch.tensor([${p.rel}])  # key position - query position`,
      '',
      'nb = num_buckets',
      'bucket = torch.zeros_like(rel)',
      'if bidirectional:',
      '    nb //= 2',
      '    bucket += (rel > 0).long() * nb',
      '    n = rel.abs()',
      'else:',
      '    n = (-rel).clamp(min=0)',
      'exact = nb // 2',
      'steps = torch.log(n.clamp(min=1).double() / exact) / math.log(max_distance / exact) * (nb - exact)',
      '# + 1e-9: at n = 16, 32, 64 the quotient is a whole number that float64 may miss by a hair',
      'large = (exact + torch.floor(steps + 1e-9).long()).clamp(max=nb - 1)',
      'bucket += torch.where(n < exact, n, large)',
      'print(bucket.item())',
    ),
    alibi: (p) => lines(
      'import math',
      'import torch',
      '',
      ...pySlopes,
      '',
      `heads, head = ${p.heads}, ${p.head}  # head counts from 1`,
      `i = ${p.dist}  # the query position; the keys are j = 0..i`,
      'slope = torch.tensor(slopes(heads), dtype=torch.float64)[head - 1]',
      'row = (slope * (torch.arange(i + 1) - i)).float()  # -slope*(i-j)',
      `print(f"{row[0].item():.${p.digits}f}")`,
    ),
    scaled: (p) => pyScaled(p, 'torch'),
  },
};
