// Learned absolute positions: a table with one trained row per position, and nothing after the
// last one. The rows come from core.learned, a seeded stand-in for trained weights (N(0, 0.02²),
// GPT-2's initialisation). Presets: a small table, BERT (512 × 768), GPT-2 (1024 × 768).
// The heatmap shows the table and, below it, the half-table of positions that have no row; the
// position slider runs into that region, where core.learned throws a RangeError that the step
// shows as it is, beside the sinusoidal row (core.sinusoidal with an offset) and a RoPE-rotated
// vector (core.ropeApply), which exist at any position. Every number comes from ./model.js;
// this file formats and draws.
import { h, s } from '../../kit/dom.js';
import { Heatmap, cellColoursLookedUp, legend } from '../../kit/heatmap.js';
import { addExportOverlay } from '../../kit/export.js';
import { VectorBars } from '../../kit/bars.js';
import { mathPieces, mi, mn, mo, mrow, msub } from '../../kit/math.js';
import { choice, paramSlider, toggle } from '../../kit/controls.js';
import { quietReadoutRow, readout, readoutRow } from '../../kit/readout.js';
import { paragraphs, stepFrame } from '../../kit/step.js';
import { symmetricMarks } from '../../kit/format.js';
import { trainedTablePanel } from '../../train/trained-panels.js';
import { whenIdleEach } from '../../kit/idle.js';
import { pointerHint } from '../../kit/pointer.js';
import { PRESETS, PRESET_IDS, STD, learnedModel, reach } from './model.js';

export const id = 'learned';

const LIMIT = 0.06;         // colour scale of the table: ±3 standard deviations
const BAR_LIMIT = 0.08;

export const params = {
  preset: { type: 'enum', values: PRESET_IDS, default: 'small' },
  pos: { type: 'int', min: 0, max: (v) => reach(v.preset) - 1, default: 12 },
  // The train step's trained table beside the stand-in (its data loads when switched on).
  trained: { type: 'bool', default: false },
};

/**
 * The band and the marker as the page lays them over the map (learned.css), painted onto a
 * 2-D context in the canvas's CSS pixels: for Save PNG, which only has the canvas's pixels.
 * Geometry and colours are read from the elements, so the picture follows the stylesheet.
 */
function paintOver(ctx, canvas, band, marker) {
  const origin = canvas.getBoundingClientRect();
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return { x: r.left - origin.left, y: r.top - origin.top, w: r.width, h: r.height };
  };
  const css = (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  const b = box(band);
  ctx.save();
  ctx.beginPath();
  ctx.rect(b.x, b.y, b.w, b.h);
  ctx.clip();
  ctx.fillStyle = css('--paper');
  ctx.fillRect(b.x, b.y, b.w, b.h);
  // repeating-linear-gradient(135deg, paper 0 7px, line 7px 9px): 2 px stripes every 9 px
  // across the 135° direction, i.e. lines x + y = c with c 9·√2 apart, measured from the box's corner.
  ctx.strokeStyle = css('--line');
  ctx.lineWidth = 2;
  const pitch = 9 * Math.SQRT2;
  for (let c = pitch * (8 / 9); c < b.w + b.h + pitch; c += pitch) {
    ctx.beginPath();
    ctx.moveTo(b.x + c, b.y);
    ctx.lineTo(b.x + c - b.h, b.y + b.h);
    ctx.stroke();
  }
  ctx.restore();
  const bandStyle = getComputedStyle(band);
  ctx.fillStyle = bandStyle.borderTopColor;
  ctx.fillRect(b.x, b.y, b.w, parseFloat(bandStyle.borderTopWidth));
  const label = band.firstChild;
  if (label.textContent) {
    const l = box(label);
    const ls = getComputedStyle(label);
    ctx.fillStyle = ls.backgroundColor;
    ctx.fillRect(l.x, l.y, l.w, l.h);
    ctx.strokeStyle = ls.borderTopColor;
    ctx.lineWidth = parseFloat(ls.borderTopWidth) || 1;
    ctx.strokeRect(l.x + 0.5, l.y + 0.5, l.w - 1, l.h - 1);
    ctx.fillStyle = ls.color;
    ctx.font = `${ls.fontWeight} ${ls.fontSize} ${ls.fontFamily}`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    // The label may wrap on a phone: its lines, split as the box is wide.
    const words = label.textContent.split(/\s+/);
    const room = l.w - 2 * parseFloat(ls.paddingLeft);
    const lines = [];
    for (const word of words) {
      const last = lines.at(-1);
      if (last !== undefined && ctx.measureText(`${last} ${word}`).width <= room) lines[lines.length - 1] = `${last} ${word}`;
      else lines.push(word);
    }
    const step = l.h / (lines.length || 1) - (2 * parseFloat(ls.paddingTop)) / (lines.length || 1);
    lines.forEach((text, i) => ctx.fillText(text, l.x + l.w / 2, l.y + parseFloat(ls.paddingTop) + step * (i + 0.5)));
  }
  const mk = box(marker);
  const ms = getComputedStyle(marker);
  ctx.strokeStyle = ms.borderTopColor;
  ctx.lineWidth = parseFloat(ms.borderTopWidth);
  ctx.setLineDash(ms.borderTopStyle === 'dashed' ? [3 * ctx.lineWidth, 3 * ctx.lineWidth] : []);
  ctx.beginPath();
  ctx.moveTo(mk.x, mk.y + ctx.lineWidth / 2);
  ctx.lineTo(mk.x + mk.w, mk.y + ctx.lineWidth / 2);
  ctx.stroke();
}

export function mount(root, { core, m, values, setter, index, total, train }) {
  const slots = stepFrame(root, m, { id, index, total, downloads: 'deeper' });

  const model = learnedModel(core);
  const { rowAt } = model;
  // The model's map of a preset, with its colours: a switch back to a preset then only copies
  // pixels. Looked up, not interpolated: GPT-2's map is 1,536 × 64 cells.
  const pixels = new Map();
  const mapOf = (preset) => {
    const map = model.map(preset);
    if (!pixels.has(preset)) pixels.set(preset, cellColoursLookedUp(map.values, LIMIT));
    return { ...map, pixels: pixels.get(preset) };
  };
  // The other presets' maps in idle time, each uploaded into a picture of its own, so that the
  // first switch to each is a copy as well. Then the core's refusal of a row past a table,
  // once: the first exception out of the core runs Emscripten's exception code (JavaScript and
  // WebAssembly) for the first time, which the engine compiles then (milliseconds of the first
  // switch that showed a refusal).
  const prepareOthers = (preset) => whenIdleEach([
    ...PRESET_IDS.filter((p) => p !== preset).map((p) => () => {
      const map = mapOf(p);
      heatmap.keep(map.pixels, map.rows, map.cols);
    }),
    () => rowAt({ positions: 1, d: 2 }, 1),
  ], { fallback: 50 });
  // Controls.
  const controls = {
    preset: choice({
      name: 'preset', label: m.t('learned.preset'), value: values.preset,
      options: PRESET_IDS.map((p) => ({ value: p, label: m.t(`learned.preset.${p}`) })),
      onChange: (p) => set({ preset: p }),
    }),
    pos: paramSlider(params, 'pos', { label: m.t('learned.pos'), values, onInput: (v) => set({ pos: v }) }),
  };
  // A tick on the slider where the table ends.
  const ticks = h('datalist', { id: 'learned-pos-ticks' });
  controls.pos.input.setAttribute('list', ticks.id);
  controls.pos.el.append(ticks);
  const trainedToggle = toggle({ name: 'trained', label: m.t('learned.trainedToggle'), checked: values.trained, onChange: (v) => set({ trained: v }) });
  // The trained table's switch sits over the panel it opens, under the stand-in's figures.
  slots.controls.append(controls.preset.el, controls.pos.el);
  const trained = trainedTablePanel({ m, platform: train, stepId: id });

  // Formula: x_p = e(w_p) + P_p, P of T rows; rewritten with the current T and position.
  const formula = h('div', { class: 'formula learned-formula' });

  // Figure 1: the table as a heatmap, with the band of positions that have no row.
  const keys = h('span', { id: 'learned-keys', class: 'sr-only' }, m.t('learned.mapKeys'));
  const canvas = h('canvas', { class: 'heatmap', 'aria-describedby': keys.id });
  const band = h('div', { class: 'learned-band' }, h('span', { class: 'learned-band-label' }));
  const marker = h('div', { class: 'learned-marker' });
  // Over the canvas, its size kept by a resize observer (the Save PNG tools go below the canvas
  // inside the same box, so the box is taller than the canvas).
  const over = h('div', { class: 'learned-over', 'aria-hidden': 'true' }, band, marker);
  new ResizeObserver(([entry]) => {
    over.style.width = `${entry.contentRect.width}px`;
    over.style.height = `${entry.contentRect.height}px`;
  }).observe(canvas);
  addExportOverlay(canvas, (ctx) => paintOver(ctx, canvas, band, marker));  // Save PNG keeps them
  // The visible hint says "tap" on a touch screen; the map's description keeps the keys.
  const hint = pointerHint(m, 'learned.mapHint');
  const hover = h('p', { class: 'hover-readout', 'aria-live': 'polite' }, hint);
  const axisX = h('span', { class: 'axis axis-x' });
  const legendEl = h('div', { class: 'legend' });
  const mapFig = h('figure', { class: 'learned-fig learned-map' },
    h('figcaption', {}, m.t('learned.mapCaption')),
    h('div', { class: 'heatmap-frame' }, axisX, h('span', { class: 'axis axis-y' }, m.t('learned.axisPositions')),
      h('div', { class: 'learned-canvas' }, canvas, over), keys),
    legendEl, hover);
  // The legend's numbers in the page's locale.
  legend(legendEl, LIMIT, symmetricMarks(LIMIT, (v) => m.fixed(v, 2)));
  let shown = null;  // the map on the canvas
  const heatmap = new Heatmap(canvas, {
    limit: LIMIT,
    onCell: (c) => {
      if (!c) { hover.textContent = hint; return; }
      const { positions } = PRESETS[values.preset];
      hover.textContent = c.row < positions
        ? m.t('learned.hover', { pos: c.row, dim: c.col, value: m.fixed(c.value, 4) })
        : m.t('learned.hoverNone', { pos: c.row, last: positions - 1 });
    },
    onSelect: (c) => set({ pos: c.row }),
  });

  // Figure 2: the learned row at the position (or the statement that there is none).
  const rowFig = h('figure', { class: 'learned-fig learned-row' });
  const rowCaption = h('figcaption', {});
  rowFig.append(rowCaption);
  const rowBars = new VectorBars(rowFig, { label: '', format: (v) => m.fixed(v, 2) });
  // The bars' horizontal axis, which has numbers but no name: under the bars, above the legend.
  const barsAxis = () => h('p', { class: 'learned-axis' }, m.t('learned.barsAxis'));
  rowBars.svg.after(barsAxis());
  const failure = h('p', { class: 'learned-failure' });
  rowFig.append(failure);

  // Figure 3: what the two formulas give at the same position.
  const formulaFig = h('figure', { class: 'learned-fig learned-formulas' });
  const formulaCaption = h('figcaption', {});
  formulaFig.append(formulaCaption);
  const formulaBars = new VectorBars(formulaFig, { label: '' });
  formulaBars.svg.after(barsAxis());

  // Figure first: the map and the row at the position (or the core's refusal past the edge), the
  // trained table when asked for. What the formulas give at the same position is depth: in the
  // fold, after the paragraph that compares them.
  slots.figure.append(formula, mapFig, rowFig, h('div', { class: 'controls' }, trainedToggle.el), trained.el);

  const out = {
    row: readout('row', m.t('learned.rowValue')),
    size: readout('size', m.t('learned.size')),
    params: readout('params', m.t('learned.params')),
    sin: readout('sin', m.t('learned.sinValue')),
    rope: readout('rope', m.t('learned.ropeValue')),
  };
  slots.readouts.append(readoutRow(out.row, out.size, out.params));
  paragraphs(slots.notes, m, 'learned.notes');
  const [standIn, training, pastEdge, paper] = m.paras('learned.deeper');
  slots.deeper.append(...[standIn, training, pastEdge].map((p) => h('p', {}, p)),
    formulaFig, quietReadoutRow(out.sin, out.rope), h('p', {}, paper));

  let current = null;  // what render computed, for the CSV export

  function render() {
    const { preset, pos } = values;
    const map = mapOf(preset);
    // The row, or the core's refusal; the formulas' rows at the same position.
    const { T, d, dims, params: count, row, error, sinRow, ropeRow } = model.readout({ preset, pos });
    current = { preset, pos, d, row, sinRow, ropeRow };

    // Formula with the current numbers.
    const P = (sub) => msub(mi('P'), sub);
    // Two pieces, which wrap between them on a narrow phone (320 px).
    formula.replaceChildren(mathPieces(m.t('learned.formulaLabel', { last: T - 1 }),
      [msub(mi('x'), mi('p')), mo('='), mrow(mi('e'), mo('('), msub(mi('w'), mi('p')), mo(')')), mo('+'), P(mi('p')), mo(',')],
      [mi('p'), mo('∈'), mrow(mo('{'), mn('0'), mo(','), mo('…'), mo(','), mn(String(T - 1)), mo('}'))]));

    // The map.
    if (shown !== preset) {
      heatmap.draw(map.values, map.rows, map.cols, map.pixels, { kept: true });
      if (shown === null) prepareOthers(preset);
      shown = preset;
      axisX.textContent = m.t(map.cols < d ? 'learned.axisDimsPart' : 'learned.axisDims', { shown: map.cols, d });
      band.firstChild.textContent = m.t('learned.band', { from: T, last: T - 1 });
      ticks.replaceChildren(h('option', { value: String(T - 1) }));
    }
    marker.style.top = `${((pos + 0.5) / map.rows) * 100}%`;
    marker.classList.toggle('past', pos >= T);
    canvas.setAttribute('aria-label', m.t('learned.mapAlt', { rows: T, d, shown: map.cols, std: m.fixed(STD, 2), pos, lastReach: map.rows - 1 }));

    // The row.
    rowCaption.textContent = m.t('learned.rowCaption', { pos, dims });
    if (row) {
      rowBars.draw([{ values: row.subarray(0, dims), cls: 'a', label: m.t('learned.rowLegend', { pos }) }], BAR_LIMIT);
      rowBars.svg.setAttribute('aria-label', m.t('learned.rowAlt', { pos, dims, first: m.fixed(row[0], 4) }));
      failure.replaceChildren();
      failure.hidden = true;
    } else {
      rowBars.draw([{ values: new Float32Array(dims), cls: 'none', label: m.t('learned.noRowLegend', { pos }) }], BAR_LIMIT);
      rowBars.svg.append(s('text', { x: 320, y: 80, 'text-anchor': 'middle', class: 'learned-none' }, m.t('learned.noRowShort', { pos })));
      rowBars.svg.setAttribute('aria-label', m.t('learned.noRowAlt', { pos, last: T - 1 }));
      failure.hidden = false;
      failure.replaceChildren(
        h('strong', {}, m.t('learned.failure', { pos, rows: T })), ' ',
        h('code', {}, `${error.name}: ${error.message}`));
    }
    formulaCaption.textContent = m.t('learned.formulasCaption', { pos, dims });
    formulaBars.draw([
      { values: sinRow.subarray(0, dims), cls: 'b', label: m.t('learned.sinLegend', { pos }) },
      { values: ropeRow.subarray(0, dims), cls: 'c', label: m.t('learned.ropeLegend', { pos }) },
    ], 1);
    formulaBars.svg.setAttribute('aria-label', m.t('learned.formulasAlt', {
      pos, dims, sin: m.fixed(sinRow[0], 3), rope: m.fixed(ropeRow[0], 3),
    }));

    // Readouts.
    if (row) out.row.set(m.fixed(row[0], 4), row[0]);
    else out.row.set(m.t('learned.noRow'));
    out.size.set(m.fixed(T, 0), T);
    out.params.set(m.fixed(count, 0), count);
    out.sin.set(m.fixed(sinRow[0], 3), sinRow[0]);
    out.rope.set(m.fixed(ropeRow[0], 3), ropeRow[0]);

    trainedToggle.set(values.trained);
    trained.show(values.trained);
    controls.preset.set(preset);
    controls.pos.set(pos);
  }

  const set = setter(render);  // patch the values, redraw (timed), write the URL

  render();
  return {
    tables: () => {
      const map = mapOf(values.preset);
      const { positions: T } = PRESETS[values.preset];
      const { pos, d, row, sinRow, ropeRow } = current;
      return [
        {
          name: 'table', label: m.t('learned.csvTable'),
          header: ['pos', ...Array.from({ length: map.cols }, (_, c) => `dim${c}`)],
          rows: Array.from({ length: T }, (_, p) => [p, ...map.values.subarray(p * map.cols, (p + 1) * map.cols)]),
        },
        {
          name: 'row', label: m.t('learned.csvRow'),
          header: ['dim', `learned(${pos})`, `sinusoidal(${pos})`, `rope(${pos})`],
          rows: Array.from({ length: d }, (_, c) => [c, row ? row[c] : '', sinRow[c], ropeRow[c]]),
        },
      ];
    },
  };
}
