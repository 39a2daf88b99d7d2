// Step "code": every number of the explainer, reproduced in NumPy and in PyTorch. Pick a
// quantity (the readouts of the six first steps and three families: T5 buckets, ALiBi biases,
// scaled RoPE frequencies), set its parameters, read the value the core computes, and copy a
// snippet with those parameters filled in that prints the same digits.
//
// Digits: the readout is rounded half-to-even without grouping, which is what Python's
// f"{x:.Nf}" does to the same binary number, so a snippet's output and the readout agree to the
// last shown digit. The programs are .py templates in web/steps/code/snippets/ (filled by
// ./code/snippets.js); tests/js/code-snippets.test.js runs them filled, and
// tests/browser/code.test.js runs what the page shows.
import { h } from '../../kit/dom.js';
import { button, choice, paramSlider, toggle } from '../../kit/controls.js';
import { pythonFixed } from '../../kit/format.js';
import { LinePlot } from '../../kit/lineplot.js';
import { readout, readoutRow } from '../../kit/readout.js';
import { paragraphs, stepFrame } from '../../kit/step.js';
import { pairingTable } from './pairing.js';
import { codeModel } from './model.js';
import { ALIBI_HEADS, ALIBI_DISTANCE, CONTROLS, DIGITS, FACTORS, QUANTITIES, SCALINGS, SETUP, T5_REL, WIDTHS } from './setup.js';
import { snippet } from './snippets.js';
import { TEMPLATES } from './templates.js';

export { DIGITS, SETUP, scalingOf } from './setup.js';
export const id = 'code';

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
  rel: { type: 'int', ...T5_REL, default: -20 },
  bidir: { type: 'bool', default: true },
  heads: { type: 'int', min: 1, max: ALIBI_HEADS, default: 8 },
  head: { type: 'int', min: 1, max: (v) => v.heads, default: 3 },
  dist: { type: 'int', min: 0, max: ALIBI_DISTANCE, default: 5 },
  scaling: { type: 'enum', values: SCALINGS, default: 'yarn' },
  factor: { type: 'enum', values: FACTORS, default: 8 },
  pair: { type: 'int', min: 0, max: SETUP.scaled.d / 2 - 1, default: 40 },
};

export function mount(root, { core, m, values, setter, index, total }) {
  const slots = stepFrame(root, m, { id, index, total, downloads: 'deeper' });

  // Half-to-even like Python's format(), no grouping (Python prints none), the locale's mark.
  const fmt = pythonFixed(m.lang);
  const { compute, curves, pairing: pairingScores } = codeModel(core);
  // The numbers the captions name, formatted (the model gives them as numbers).
  const captionVars = (q, vars) => ({
    ...(vars.wavelength !== undefined && { wavelength: m.fixed(vars.wavelength, 2) }),
    ...(vars.longest !== undefined && { longest: m.fixed(vars.longest, 2) }),
    ...(vars.max !== undefined && { max: q === 'dot' ? m.fixed(vars.max, 0) : fmt(vars.max, 4) }),
    ...(vars.bidir !== undefined && { mode: m.t(vars.bidir ? 'code.mode.bi' : 'code.mode.uni') }),
    ...(vars.slope !== undefined && { slope: fmt(vars.slope, 6) }),
  });

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
    if (spec.type === 'int') return paramSlider(params, name, { label, values, onInput: (v) => set({ [name]: v }) });
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
    fig);
  // The programs follow the value card, before the notes.
  slots.notes.before(h('div', { class: 'code-programs' },
    h('p', { class: 'code-run' }, m.t('code.run')),
    h('div', { class: 'code-blocks' }, numpy.el, torch.el)));

  const valueCard = readout('value', h('span', { class: 'code-value-label' }));
  const labelEl = valueCard.el.querySelector('.code-value-label');
  slots.readouts.append(readoutRow(valueCard));
  paragraphs(slots.notes, m, 'code.notes');
  // Depth, in the fold: the settings the programs use (they are in the programs too), why the
  // digits agree, and the two RoPE pairings side by side at this step's m and n (moved here
  // from the RoPE step).
  slots.deeper.append(h('div', { class: 'code-table-wrap table-scroller' }, settings));
  paragraphs(slots.deeper, m, 'code.deeper');
  const pairing = pairingTable(m);
  slots.deeper.append(pairing.el);

  let current = null;  // { quantity, rows, value } for the CSV

  function drawCurve(q, text) {
    const c = curves[q](values);
    const names = {
      pos: values.pos, dim: values.dim, wdim: values.wdim, width: values.width, i: values.i, j: values.j,
      m: values.m, n: values.n, rel: values.rel, heads: values.heads, head: values.head, dist: values.dist,
      factor: values.factor, pair: values.pair, scaling: m.t(`code.scaling.${values.scaling}`), value: text, ...captionVars(q, c.vars),
    };
    const k = c.x.indexOf(c.at);
    plot.setAxisLabels({ x: m.t(`code.x.${q}`, names), y: m.t(`code.y.${q}`, names) });
    plot.draw({
      xDomain: [c.x[0], c.x[c.x.length - 1]],
      yDomain: c.yDomain,
      series: [
        ...(c.plain ? [{ x: c.x, y: c.plain, cls: 'b', label: m.t('code.legendPlain') }] : []),
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
    pairing.update(pairingScores(values.m, values.n), values.m, values.n);

    const np = snippet(TEMPLATES, 'numpy', q, p);
    const pt = snippet(TEMPLATES, 'torch', q, p);
    for (const [block, code] of [[numpy, np], [torch, pt]]) {
      if (block.area.value !== code) {
        block.area.value = code;
        block.area.rows = code.split('\n').length;
        block.status.textContent = '';
      }
    }

    for (const name of CONTROLS[q]) controls[name].set(values[name]);
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
