// Step: positions on a 2-D patch grid (vision transformers). Three encodings from the core:
// 2-D sin-cos (core.sincos2d), axial 2-D RoPE (core.axialRopeScores / core.axialRope) and a
// learned grid stand-in trained at 7 × 7 or 14 × 14 and resized bilinearly
// (core.learnedGrid, core.interpolateGrid). A click on the map (or the arrow keys) picks a
// patch; the map shows the cosine similarity of every patch to it (core.gridSimilarity, or
// the RoPE cosines), and the readouts the cosine and the dot product with a second patch set by
// two sliders. Square grids only, so the frame of the second patch can lie over the map as an
// SVG of the same aspect.
import { h, mm, s } from '../kit/dom.js';
import { Heatmap, legend } from '../kit/heatmap.js';
import { math, mfrac, mi, mn, mo, mrow, msub, msup, mtext, stretchyMo } from '../kit/math.js';
import { choice, slider } from '../kit/controls.js';
import { readout, readoutRow } from '../kit/readout.js';
import { paragraphs, stepFrame } from '../kit/step.js';

export const id = 'vision';
const D = 64;                   // per patch: a ViT-B head has 64 dims
const QUARTER = D / 4;          // frequencies per axis
const GRIDS = [7, 14, 16, 24];  // ViT-B/32 at 224 px, B/16 at 224, L/14 at 224, B/16 at 384
const TRAINED = [7, 14];
const BASES = [100, 10000];
const SIDE = Math.max(...GRIDS);
const PAIR = [0.6, 0.4];        // q = k: (0.6, 0.4) in every pair, as in the RoPE step
const Q = Float32Array.from({ length: D }, (_, j) => PAIR[j % 2]);
const SEED = 0;

export const params = {
  method: { type: 'enum', values: ['sincos', 'rope', 'learned'], default: 'sincos' },
  grid: { type: 'enum', values: GRIDS, default: 14 },
  base: { type: 'enum', values: BASES, default: 100 },
  train: { type: 'enum', values: TRAINED, default: 7 },
  r: { type: 'int', min: 0, max: SIDE - 1, default: 4 },
  c: { type: 'int', min: 0, max: SIDE - 1, default: 5 },
  r2: { type: 'int', min: 0, max: SIDE - 1, default: 9 },
  c2: { type: 'int', min: 0, max: SIDE - 1, default: 10 },
};

/** The four patch coordinates clamped into an n × n grid. */
function clampTo(values, n) {
  const fit = (v) => Math.min(n - 1, Math.max(0, v));
  return { r: fit(values.r), c: fit(values.c), r2: fit(values.r2), c2: fit(values.c2) };
}

export function mount(root, { core, m, values, setter, index, total }) {
  const slots = stepFrame(root, m, { id, index, total });
  Object.assign(values, clampTo(values, values.grid));

  // What the core computed, kept while the inputs that made it stay the same.
  const cache = new Map();
  const memo = (key, make) => {
    if (!cache.has(key)) cache.set(key, make());
    return cache.get(key);
  };
  const sincosTable = (n, base) => memo(`sincos ${n} ${base}`, () => core.sincos2d(n, n, D, { base }));
  const ropeTable = (n, base) => memo(`rope ${n} ${base}`, () => core.axialRope(Q, n, n, { base }));
  const trainedTable = (t) => memo(`trained ${t}`, () => core.learnedGrid(t, t, D, { seed: SEED }));
  const resizedTable = (t, n) => memo(`resized ${t} ${n}`, () => core.interpolateGrid(trainedTable(t), t, t, D, n, n));
  // The patches numbered row by row, p = r·n + c, and p encoded by the 1-D sinusoidal table.
  const flatTable = (n, base) => memo(`flat ${n} ${base}`, () => core.sinusoidal(n * n, D, { base }));

  // [CONTROLS] ------------------------------------------------------------------------------
  const gridLabel = (n) => `${n} × ${n}`;
  const controls = {
    method: choice({
      name: 'method', label: m.t('vision.method'), value: values.method,
      options: [
        { value: 'sincos', label: m.t('vision.methodSincos') },
        { value: 'rope', label: m.t('vision.methodRope') },
        { value: 'learned', label: m.t('vision.methodLearned') },
      ],
      onChange: (v) => set({ method: v }),
    }),
    grid: choice({
      name: 'grid', label: m.t('vision.grid'), value: values.grid,
      options: GRIDS.map((n) => ({ value: n, label: gridLabel(n) })),
      onChange: (v) => set({ grid: Number(v), ...clampTo(values, Number(v)) }),
    }),
    base: choice({
      name: 'base', label: m.t('vision.base'), value: values.base,
      options: BASES.map((b) => ({ value: b, label: m.fixed(b, 0) })),
      onChange: (v) => set({ base: Number(v) }),
    }),
    train: choice({
      name: 'train', label: m.t('vision.train'), value: values.train,
      options: TRAINED.map((t) => ({ value: t, label: gridLabel(t) })),
      onChange: (v) => set({ train: Number(v) }),
    }),
    r2: slider({ name: 'r2', label: m.t('vision.r2'), min: 0, max: values.grid - 1, value: values.r2, onInput: (v) => set({ r2: v }) }),
    c2: slider({ name: 'c2', label: m.t('vision.c2'), min: 0, max: values.grid - 1, value: values.c2, onInput: (v) => set({ c2: v }) }),
  };
  // The base matters for sin-cos and RoPE, the training grid for the learned table: only the
  // one that matters is in the page (swapped inside its own box, so focus elsewhere stays).
  const extra = h('div', { class: 'vision-extra' });
  slots.controls.append(controls.method.el, controls.grid.el, extra, controls.r2.el, controls.c2.el);

  // [FIGURE] --------------------------------------------------------------------------------
  const formula = h('div', { class: 'formula vision-formula' });
  const now = h('div', { class: 'formula vision-now' });

  const keys = h('span', { id: 'vision-keys', class: 'sr-only' }, m.t('vision.keys'));
  const canvas = h('canvas', { class: 'heatmap', 'aria-describedby': keys.id });
  // The second patch: a dashed frame drawn over the map (one cell = one unit of the viewBox).
  const secondMark = s('rect', { class: 'vision-second-outer', width: 1, height: 1, 'vector-effect': 'non-scaling-stroke' });
  const secondInner = s('rect', { class: 'vision-second', width: 1, height: 1, 'vector-effect': 'non-scaling-stroke' });
  const overlay = s('svg', { class: 'vision-overlay', 'aria-hidden': 'true', preserveAspectRatio: 'none' }, secondMark, secondInner);
  const hover = h('p', { class: 'hover-readout', 'aria-live': 'polite' }, m.t('vision.hoverHint'));
  const caption = h('figcaption', { class: 'vision-caption' });
  const legendEl = h('div', { class: 'legend' });
  legend(legendEl, 1);
  // Captions under the maps, so the two maps line up at the top.
  const mainFig = h('figure', { class: 'vision-fig vision-main' },
    h('div', { class: 'heatmap-frame' },
      h('span', { class: 'axis axis-x' }, m.t('vision.axisCols')),
      h('span', { class: 'axis axis-y' }, m.t('vision.axisRows')),
      h('div', { class: 'vision-map' }, canvas, overlay), keys),
    caption,
    legendEl,
    h('p', { class: 'vision-marks' }, m.t('vision.marks')),
    hover);

  // Beside it, a smaller map: for the learned table, the table as trained; for sin-cos and
  // RoPE, what a 1-D encoding of the patch number would make of the same grid.
  const sideCanvas = h('canvas', { class: 'heatmap', 'aria-describedby': 'vision-side-keys' });
  const sideHover = h('p', { class: 'hover-readout', 'aria-live': 'polite' }, m.t('vision.hoverHint'));
  const sideCaption = h('figcaption', { class: 'vision-caption' });
  const sideFig = h('figure', { class: 'vision-fig vision-side' },
    h('div', { class: 'heatmap-frame' },
      h('span', { class: 'axis axis-x' }, m.t('vision.axisCols')),
      h('span', { class: 'axis axis-y' }, m.t('vision.axisRows')),
      h('div', { class: 'vision-map' }, sideCanvas),
      h('span', { id: 'vision-side-keys', class: 'sr-only' }, m.t('vision.sideKeys'))),
    sideCaption,
    sideHover);

  slots.figure.append(formula, now, h('div', { class: 'vision-figs' }, mainFig, sideFig));

  const hoverText = (cell) => (cell
    ? m.t('vision.hover', { r: cell.row, c: cell.col, value: m.fixed(cell.value, 3) })
    : m.t('vision.hoverHint'));
  const heatmap = new Heatmap(canvas, {
    limit: 1,
    onCell: (cell) => { hover.textContent = hoverText(cell); },
    onSelect: (cell) => set({ r: cell.row, c: cell.col }),
  });
  const sideMap = new Heatmap(sideCanvas, {
    limit: 1,
    onCell: (cell) => { sideHover.textContent = hoverText(cell); },
  });

  const out = {
    patch: readout('patch', m.t('vision.patch')),
    second: readout('second', m.t('vision.second')),
    similarity: readout('similarity', m.t('vision.similarity')),
    dot: readout('dot', m.t('vision.dot')),
    grid: readout('grid', m.t('vision.gridSize')),
  };
  slots.readouts.append(readoutRow(out.patch, out.second, out.similarity, out.dot, out.grid));
  paragraphs(slots.notes, m, 'vision.notes');

  // [STATE] ---------------------------------------------------------------------------------
  let current = null;  // { sims, vectors } of the last render, for the CSV buttons

  /** Cosine similarity and dot product of every patch with patch (r, c), and the vectors. */
  function compute({ method, grid: n, base, train, r, c }) {
    if (method === 'rope') {
      return {
        sims: core.axialRopeScores(n, n, D, r, c, { base, q: Q, cosine: true }),
        dots: core.axialRopeScores(n, n, D, r, c, { base, q: Q }),
        vectors: ropeTable(n, base),
      };
    }
    const table = method === 'sincos' ? sincosTable(n, base) : resizedTable(train, n);
    return {
      sims: core.gridSimilarity(table, D, r * n + c, { cosine: true }),
      dots: core.gridSimilarity(table, D, r * n + c),
      vectors: table,
    };
  }

  /** The side map: the learned table as trained, from its cell (tr, tc). */
  function drawTrained(train, tr, tc, n) {
    const sims = core.gridSimilarity(trainedTable(train), D, tr * train + tc, { cosine: true });
    sideMap.selected = { row: tr, col: tc };
    sideMap.draw(Float32Array.from(sims), train, train);
    sideCaption.textContent = m.t('vision.trainedCaption', { t: train, r: tr, c: tc });
    sideCanvas.setAttribute('aria-label', m.t('vision.trainedAlt', {
      t: train, r: tr, c: tc, n, min: m.fixed(sims.reduce((a, v) => Math.min(a, v), Infinity), 3),
    }));
  }

  /** The side map: patch numbers p = r·n + c in a 1-D sinusoidal encoding, from the chosen patch. */
  let flatSims = null;
  function drawFlat(n, base, r, c) {
    flatSims = core.gridSimilarity(flatTable(n, base), D, r * n + c, { cosine: true });
    sideMap.selected = { row: r, col: c };
    sideMap.draw(Float32Array.from(flatSims), n, n);
    sideCaption.textContent = m.t('vision.flatCaption', { n, d: D, base: m.fixed(base, 0) });
  }
  /** Its description, which also names the second patch's value. */
  function describeFlat(n, base, r, c, r2, c2) {
    sideCanvas.setAttribute('aria-label', m.t('vision.flatAlt', {
      n, p: r * n + c, r, c, base: m.fixed(base, 0), r2, c2, p2: r2 * n + c2, sim: m.fixed(flatSims[r2 * n + c2], 3),
      min: m.fixed(flatSims.reduce((a, v) => Math.min(a, v), Infinity), 3),
    }));
  }

  let drawnKey = '';
  let sideKey = '';
  let formulaShown = '';

  function render() {
    const { method, grid: n, base, train, r, c, r2, c2 } = values;
    // The map changes with everything but the second patch: moving that one only redraws its
    // frame and the numbers.
    const key = `${method} ${n} ${method === 'learned' ? train : base} ${r} ${c}`;
    if (key !== drawnKey) {
      current = compute(values);
      heatmap.selected = { row: r, col: c };  // marked by the draw's own paint: one paint, not two
      heatmap.draw(Float32Array.from(current.sims), n, n);
      overlay.setAttribute('viewBox', `0 0 ${n} ${n}`);
      drawnKey = key;
    }
    const { sims } = current;
    const sim = sims[r2 * n + c2];
    const lowest = sims.reduce((a, v) => Math.min(a, v), Infinity);
    const f3 = (v) => m.fixed(v, 3);

    const wanted = method === 'learned' ? controls.train.el : controls.base.el;
    if (extra.firstChild !== wanted) extra.replaceChildren(wanted);  // never re-insert a focused one
    for (const k of ['r2', 'c2']) controls[k].input.max = String(n - 1);
    controls.r2.set(r2);
    controls.c2.set(c2);
    controls.method.set(method);
    controls.grid.set(n);
    controls.base.set(base);
    controls.train.set(train);

    const formulaKey = `${method} ${base} ${train} ${n}`;
    if (formulaKey !== formulaShown) {
      formula.replaceChildren(...formulas(m, method, base, train, n));
      formulaShown = formulaKey;
    }
    now.replaceChildren(currentLine(m, method, { r, c, r2, c2, sim: f3(sim) }));

    for (const mark of [secondMark, secondInner]) {
      mark.setAttribute('x', String(c2));
      mark.setAttribute('y', String(r2));
    }
    const what = m.t(method === 'rope' ? 'vision.whatRope' : method === 'sincos' ? 'vision.whatSincos' : 'vision.whatLearned');
    canvas.setAttribute('aria-label', m.t('vision.mapAlt', {
      n, what, r, c, r2, c2, sim: f3(sim), min: f3(lowest),
    }));
    caption.textContent = m.t(method === 'rope' ? 'vision.captionRope' : method === 'sincos' ? 'vision.captionSincos' : 'vision.captionLearned',
      { n, t: train, base: m.fixed(base, 0), d: D });

    let side;
    if (method === 'learned') {
      // The trained cell whose centre lies nearest the chosen patch's centre.
      const tr = Math.min(train - 1, Math.floor(((r + 0.5) * train) / n));
      const tc = Math.min(train - 1, Math.floor(((c + 0.5) * train) / n));
      side = [`trained ${train} ${tr} ${tc} ${n}`, () => drawTrained(train, tr, tc, n)];
    } else {
      side = [`flat ${n} ${base} ${r} ${c}`, () => drawFlat(n, base, r, c)];
    }
    if (side[0] !== sideKey) {
      sideKey = side[0];
      side[1]();
    }
    if (method !== 'learned') describeFlat(n, base, r, c, r2, c2);
    out.patch.set(`(${r}${m.listSep} ${c})`, r * n + c);
    out.second.set(`(${r2}${m.listSep} ${c2})`, r2 * n + c2);
    out.similarity.set(f3(sim), sim);
    // The learned stand-in's entries are ~0.02, so its dot products are small: more digits.
    const dot = current.dots[r2 * n + c2];
    out.dot.set(m.fixed(dot, method === 'learned' ? 5 : 3), dot);
    out.grid.set(gridLabel(n), n * n);
  }

  const set = setter(render);  // patch the values, redraw (timed), write the URL

  render();
  return {
    tables: () => {
      const n = values.grid;
      return [
        {
          name: 'similarity', label: m.t('vision.csvSimilarity'),
          header: ['row\\col', ...Array.from({ length: n }, (_, k) => k)],
          rows: Array.from({ length: n }, (_, row) => [row, ...current.sims.subarray(row * n, (row + 1) * n)]),
        },
        {
          name: 'vectors', label: m.t('vision.csvVectors'),
          header: ['row', 'col', ...Array.from({ length: D }, (_, k) => `dim${k}`)],
          rows: Array.from({ length: n * n }, (_, p) => [Math.floor(p / n), p % n, ...current.vectors.subarray(p * D, (p + 1) * D)]),
        },
      ];
    },
  };
}

// [FORMULAS] ------------------------------------------------------------------------------------
const omegaK = () => msub(mi('ω'), mi('k'));
const fn = (name, ...arg) => mrow(mi(name), mo('\u2061'), mo('('), ...arg, mo(')'));
const sumK = () => mm('munderover', {}, mo('∑'), mrow(mi('k'), mo('='), mn('0')), mn(String(QUARTER - 1)));
const delta = (v) => mrow(mi('Δ'), mi(v));
const cosSum = () => mrow(mfrac(mn('1'), mn(String(D / 2))), sumK(),
  mrow(mo('['), fn('cos', omegaK(), delta('c')), mo('+'), fn('cos', omegaK(), delta('r')), mo(']')));

function formulas(m, method, base, train, n) {
  const omega = math(m.t('vision.omegaLabel', { base, quarter: QUARTER }),
    omegaK(), mo('='), msup(mn(m.fixed(base, 0)), mrow(mo('−'), mi('k'), mo('/'), mn(String(QUARTER)))),
    mtext(m.t('vision.omegaRange', { last: QUARTER - 1 })));
  if (method === 'sincos') {
    const half = (v) => mrow(fn('sin', omegaK(), mi(v)), mo(m.listSep), fn('cos', omegaK(), mi(v)));
    return [
      // Two pieces that sit on one line on wide screens and wrap on a phone.
      math(m.t('vision.sincosLabel'),
        mi('PE'), mo('('), mi('r'), mo(','), mi('c'), mo(')'), mo('='), mo('['), half('c'), mo('|')),
      math(m.t('vision.sincosRowLabel'), half('r'), mo(']')),
      omega,
      math(m.t('vision.cosLabel'), mi('cos'), mo('='), cosSum()),
    ];
  }
  if (method === 'rope') {
    return [
      math(m.t('vision.ropeLabel', { quarter: QUARTER }),
        msub(mi('θ'), mi('k')), mo('='), mi('c'), omegaK(), mtext(m.t('vision.ropeCols', { last: QUARTER - 1 })), mo(','),
        msub(mi('θ'), mrow(mn(String(QUARTER)), mo('+'), mi('k'))), mo('='), mi('r'), omegaK()),
      omega,
      math(m.t('vision.ropeCosLabel'), mi('cos'), mo('('), mrow(mi('q'), mo('′')), mo(','), mrow(mi('k'), mo('′')), mo(')'), mo('='), cosSum()),
    ];
  }
  return [
    math(m.t('vision.resizeLabel', { t: train, n }),
      mi('s'), mo('='), mrow(stretchyMo('('), mi('i'), mo('+'), mfrac(mn('1'), mn('2')), stretchyMo(')')), mo('·'), mfrac(mn(String(train)), mn(String(n))),
      mo('−'), mfrac(mn('1'), mn('2'))),
    math(m.t('vision.lerpLabel'),
      mrow(mi('E'), mo('′'), mo('['), mi('i'), mo(']')), mo('='),
      mrow(mo('('), mn('1'), mo('−'), mi('λ'), mo(')')), mi('E'), mo('['), fn('floor', mi('s')), mo(']'), mo('+'),
      mi('λ'), mi('E'), mo('['), fn('floor', mi('s')), mo('+'), mn('1'), mo(']')),
  ];
}

function currentLine(m, method, { r, c, r2, c2, sim }) {
  const label = m.t('vision.nowLabel', { r, c, r2, c2, sim });
  const coords = (a, b) => mrow(mo('('), mn(String(a)), mo(m.listSep), mn(String(b)), mo(')'));
  const names = {
    sincos: () => [mi('PE'), mi('PE')],
    rope: () => [mrow(mi('q'), mo('′')), mrow(mi('k'), mo('′'))],
    learned: () => [mrow(mi('E'), mo('′')), mrow(mi('E'), mo('′'))],
  }[method]();
  return math(label, mi('cos'), mo('('), names[0], coords(r, c), mo(','), names[1], coords(r2, c2), mo(')'),
    ...(method === 'learned' ? [] : [mo(':'), delta('r'), mo('='), mn(String(r2 - r)), mo(m.listSep), delta('c'), mo('='), mn(String(c2 - c))]),
    mo('='), mn(sim));
}
