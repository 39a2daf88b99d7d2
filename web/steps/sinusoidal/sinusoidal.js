// Step 2: the sinusoidal table. A 50 x 20 heatmap of pe.sinusoidal(50, 20); sliders pick a
// cell; the formula shows the current numbers; readouts give the angle pos·ω_i and the value
// (./model.js computes them; this file formats and draws).
import { h } from '../../kit/dom.js';
import { Heatmap, axisTitleY, legend } from '../../kit/heatmap.js';
import { pointerHint } from '../../kit/pointer.js';
import { inlineMath, math, mfrac, mi, mn, mo, msub, msqrt, msup, mtext, mrow, stretchyMo } from '../../kit/math.js';
import { paramSlider } from '../../kit/controls.js';
import { readout, readoutRow } from '../../kit/readout.js';
import { paragraphs, richText, stepFrame } from '../../kit/step.js';
import { BASE, D, POSITIONS, sinusoidalModel } from './model.js';

export const id = 'sinusoidal';
export const params = {
  pos: { type: 'int', min: 0, max: POSITIONS - 1, default: 10 },
  dim: { type: 'int', min: 0, max: D - 1, default: 4 },
};

export function mount(root, { core, m, values, setter, index, total }) {
  const slots = stepFrame(root, m, { id, index, total, downloads: 'deeper' });
  const model = sinusoidalModel(core);
  const { table } = model;

  const controls = {
    pos: paramSlider(params, 'pos', { label: m.t('sinusoidal.pos'), values, onInput: (v) => set({ pos: v }) }),
    dim: paramSlider(params, 'dim', { label: m.t('sinusoidal.dim'), values, onInput: (v) => set({ dim: v }) }),
  };
  slots.controls.append(controls.pos.el, controls.dim.el);

  const formula = h('div', { class: 'formula formula-split' });
  // The map is focusable (role=application, see kit/heatmap.js): its name is the description
  // of the picture, its description how to read it; every cell the arrow keys reach is read
  // out by the polite hover line below it.
  const keys = h('span', { id: 'sinusoidal-keys', class: 'sr-only' }, m.t('sinusoidal.hoverHint'));
  const canvas = h('canvas', { class: 'heatmap', 'aria-label': m.t('sinusoidal.alt', { positions: POSITIONS, dims: D }),
    'aria-describedby': keys.id });
  // The visible hint says "tap" on a touch screen; the map's description keeps the keys.
  const hint = pointerHint(m, 'sinusoidal.hoverHint');
  const hover = h('p', { class: 'hover-readout', 'aria-live': 'polite' }, hint);
  const legendEl = h('div', { class: 'legend' });
  // Numbers on both axes (students could not tell which row is position 10): placed at the
  // centres of their rows and columns, in per cent of the map, so they follow its size.
  const ticks = (cls, at, count, side) => h('span', { class: `heatmap-ticks ${cls}`, 'aria-hidden': 'true' },
    at.map((v) => {
      const t = h('span', {}, m.fixed(v, 0));
      t.style[side] = `${((v + 0.5) / count) * 100}%`;
      return t;
    }));
  slots.figure.append(
    formula,
    h('div', { class: 'heatmap-frame sinusoidal-frame' },
      h('span', { class: 'axis axis-x' }, m.t('sinusoidal.axisDims')),
      axisTitleY(m.t('sinusoidal.axisPositions')),
      canvas, keys),
    legendEl, hover,
  );
  legend(legendEl, 1);
  const heatmap = new Heatmap(canvas, {
    limit: 1,
    onCell: (c) => {
      hover.textContent = c ? m.t('sinusoidal.hover', { pos: c.row, dim: c.col, value: m.fixed(c.value, 4) }) : hint;
    },
    onSelect: (c) => set({ pos: c.row, dim: c.col }),
    // A row is 7 px tall on a phone: too small to hit with a finger, so a finger slides to the
    // cell (the line under the map names it) and lets go there.
    dragSelects: true,
  });
  heatmap.draw(table, POSITIONS, D);
  // In the box that holds the canvas itself (kit/heatmap.js), so the numbers follow the map's
  // own size: below it in the frame sit its tools, which a frame-sized column would span.
  canvas.parentElement.append(ticks('ticks-x', [0, 5, 10, 15, 19], D, 'left'), ticks('ticks-y', [0, 10, 20, 30, 40, 49], POSITIONS, 'top'));

  const out = {
    angle: readout('angle', h('span', {}, ...richText(m.t('sinusoidal.angle'), { angle: () => inlineMath('pos · ω i', mi('pos'), mo('·'), omegaI()) }))),
    value: readout('value', m.t('sinusoidal.value')),
    kind: readout('which', m.t('sinusoidal.which'), { phrase: true }),
  };
  slots.readouts.append(readoutRow(out.angle, out.value, out.kind));
  paragraphs(slots.notes, m, 'sinusoidal.notes', {}, {
    angleDef: () => inlineMath('pos times omega i equals pos over 10000 to the power 2i over d',
      mi('pos'), mo('·'), omegaI(), mo('='), mi('pos'), mo('/'), divisor()),
  });
  paragraphs(slots.deeper, m, 'sinusoidal.deeper', {}, {
    norm: () => inlineMath('the length of PE(pos) equals the square root of d over 2',
      mo('‖'), mi('PE'), mo('('), mi('pos'), mo(')'), mo('‖'), mo('='), msqrt(mi('d'), mo('/'), mn('2'))),
    sqrtD: () => inlineMath('the square root of d', msqrt(mi('d'))),
    dModel: () => inlineMath('d model', msub(mi('d'), mtext('model'))),
    linear: () => inlineMath('W times (e plus p) equals W e plus W p',
      mi('W'), mo('('), mi('e'), mo('+'), mi('p'), mo(')'), mo('='), mi('W'), mi('e'), mo('+'), mi('W'), mi('p')),
  });

  function render() {
    const { pos, dim } = values;
    const { i, isSin, angle, value, divisor: under } = model.readout({ pos, dim });
    const fn = isSin ? 'sin' : 'cos';
    // Two halves that sit on one line on wide screens and wrap on a phone: the formula, then
    // the same with this cell's numbers.
    const label = m.t('sinusoidal.formulaLabel');
    formula.replaceChildren(
      math(label,
        mi('PE'), mo('('), mi('pos'), mo(','), isSin ? mrow(mn('2'), mi('i')) : mrow(mn('2'), mi('i'), mo('+'), mn('1')), mo(')'), mo('='),
        mi(fn), stretchyMo('('), mfrac(mi('pos'), divisor()), stretchyMo(')')),
      math(label,
        mo('='), mi(fn), stretchyMo('('), mfrac(mn(String(pos)), mn(m.fixed(under, 2))), stretchyMo(')'),
        mo('='), mrow(mn(m.fixed(value, 3)))),
    );
    out.angle.set(m.fixed(angle, 2), angle);
    out.value.set(m.fixed(value, 3), value);
    out.kind.set(m.t(isSin ? 'sinusoidal.whichSin' : 'sinusoidal.whichCos', { dim, i }), dim);
    heatmap.select({ row: pos, col: dim });
    controls.pos.set(pos);
    controls.dim.set(dim);
  }

  const set = setter(render);  // patch the values, redraw (timed), write the URL

  render();
  return {
    // For the Save CSV buttons: what the core computed for this figure.
    tables: () => [{
      name: 'table', label: m.t('sinusoidal.csvTable'),
      header: ['pos', ...Array.from({ length: D }, (_, d) => `dim${d}`)],
      rows: Array.from({ length: POSITIONS }, (_, p) => [p, ...table.subarray(p * D, (p + 1) * D)]),
    }],
  };
}

const omegaI = () => msub(mi('ω'), mi('i'));
/** 10000^(2i/d): what the formula divides pos by. */
const divisor = () => msup(mn(String(BASE)), mrow(mn('2'), mi('i'), mo('/'), mi('d')));
