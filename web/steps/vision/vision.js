// Step: positions on a 2-D patch grid (vision transformers). Three encodings from the core:
// 2-D sin-cos (core.sincos2d), axial 2-D RoPE (core.axialRopeScores / core.axialRope) and a
// learned grid stand-in trained at 7 × 7 or 14 × 14 and resized bilinearly
// (core.learnedGrid, core.interpolateGrid). A click on the map (or the arrow keys) picks a
// patch; the map shows the cosine similarity of every patch to it (core.gridSimilarity, or
// the RoPE cosines), and the readouts the cosine and the dot product with a second patch set by
// two sliders. This file holds the controls, the readouts and the redraw; vision/ the numbers
// (model.js), the two maps (maps.js) and the formulas (formulas.js).
import { h } from '../../kit/dom.js';
import { choice, paramSlider } from '../../kit/controls.js';
import { whenIdleEach } from '../../kit/idle.js';
import { quietReadoutRow, readout, readoutRow } from '../../kit/readout.js';
import { paragraphs, stepFrame } from '../../kit/step.js';
import { currentLine, formulas } from './formulas.js';
import { mainMap, sideMap } from './maps.js';
import { BASES, D, GRIDS, TRAINED, visionModel } from './model.js';

export const id = 'vision';

export const params = {
  method: { type: 'enum', values: ['sincos', 'rope', 'learned'], default: 'sincos' },
  grid: { type: 'enum', values: GRIDS, default: 14 },
  base: { type: 'enum', values: BASES, default: 100 },
  train: { type: 'enum', values: TRAINED, default: 7 },
  // The patches: a row and a column on the chosen grid.
  r: { type: 'int', min: 0, max: (v) => v.grid - 1, default: 4 },
  c: { type: 'int', min: 0, max: (v) => v.grid - 1, default: 5 },
  r2: { type: 'int', min: 0, max: (v) => v.grid - 1, default: 9 },
  c2: { type: 'int', min: 0, max: (v) => v.grid - 1, default: 10 },
};

export function mount(root, { core, m, values, setter, index, total }) {
  const slots = stepFrame(root, m, { id, index, total, downloads: 'deeper' });
  const model = visionModel(core);

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
      onChange: (v) => set({ grid: Number(v) }),
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
    r2: paramSlider(params, 'r2', { label: m.t('vision.r2'), values, onInput: (v) => set({ r2: v }) }),
    c2: paramSlider(params, 'c2', { label: m.t('vision.c2'), values, onInput: (v) => set({ c2: v }) }),
  };
  // The base matters for sin-cos and RoPE, the training grid for the learned table: only the
  // one that matters is in the page (swapped inside its own box, so focus elsewhere stays).
  const extra = h('div', { class: 'vision-extra' });
  slots.controls.append(controls.method.el, controls.grid.el, extra, controls.r2.el, controls.c2.el);

  // [FIGURE] --------------------------------------------------------------------------------
  const formula = h('div', { class: 'formula vision-formula' });
  const now = h('div', { class: 'formula vision-now' });
  const main = mainMap(m, (cell) => set({ r: cell.row, c: cell.col }));
  const side = sideMap(m, model);
  // Figure first: the map of the method chosen, and the two patches' cosine. The method's
  // formula (with the current numbers), the map's comparison (the same grid numbered in 1-D, or
  // the trained table), the dot product and the grid are depth: in the fold, over the methods'
  // paragraphs.
  slots.figure.append(h('div', { class: 'vision-figs' }, main.el));

  const out = {
    patch: readout('patch', m.t('vision.patch')),
    second: readout('second', m.t('vision.second')),
    similarity: readout('similarity', m.t('vision.similarity')),
    dot: readout('dot', m.t('vision.dot')),
    grid: readout('grid', m.t('vision.gridSize')),
  };
  // The dot product in the step's one live row: sin-cos and axial RoPE give the same cosine
  // (the map does not change between them), so without it a change of method says nothing.
  slots.readouts.append(readoutRow(out.patch, out.second, out.similarity, out.dot));
  paragraphs(slots.notes, m, 'vision.notes');
  slots.deeper.append(formula, now, quietReadoutRow(out.grid), h('div', { class: 'vision-figs' }, side.el));
  paragraphs(slots.deeper, m, 'vision.deeper');

  // [STATE] ---------------------------------------------------------------------------------
  let current = null;  // { sims, dots, vectors } of the last render, for the CSV buttons
  let drawnKey = '';
  let sideKey = '';
  let formulaShown = '';

  function render() {
    const { method, grid: n, base, train, r, c, r2, c2 } = values;
    // The map changes with everything but the second patch: moving that one only redraws its
    // frame and the numbers.
    const key = `${method} ${n} ${method === 'learned' ? train : base} ${r} ${c}`;
    if (key !== drawnKey) {
      current = model.compute(values);
      main.draw(current.sims, n, r, c);
      drawnKey = key;
    }
    const { sims } = current;
    const sim = sims[r2 * n + c2];
    const lowest = sims.reduce((a, v) => Math.min(a, v), Infinity);
    const f3 = (v) => m.fixed(v, 3);

    const wanted = method === 'learned' ? controls.train.el : controls.base.el;
    if (extra.firstChild !== wanted) extra.replaceChildren(wanted);  // never re-insert a focused one
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

    main.second(r2, c2);
    const what = m.t(method === 'rope' ? 'vision.whatRope' : method === 'sincos' ? 'vision.whatSincos' : 'vision.whatLearned');
    main.describe(
      m.t('vision.mapAlt', { n, what, r, c, r2, c2, sim: f3(sim), min: f3(lowest) }),
      m.t(method === 'rope' ? 'vision.captionRope' : method === 'sincos' ? 'vision.captionSincos' : 'vision.captionLearned',
        { n, t: train, base: m.fixed(base, 0), d: D }));

    let sideDraw;
    if (method === 'learned') {
      // The trained cell whose centre lies nearest the chosen patch's centre.
      const tr = Math.min(train - 1, Math.floor(((r + 0.5) * train) / n));
      const tc = Math.min(train - 1, Math.floor(((c + 0.5) * train) / n));
      sideDraw = [`trained ${train} ${tr} ${tc} ${n}`, () => side.drawTrained(train, tr, tc, n)];
    } else {
      sideDraw = [`flat ${n} ${base} ${r} ${c}`, () => side.drawFlat(n, base, r, c)];
    }
    if (sideDraw[0] !== sideKey) {
      sideKey = sideDraw[0];
      sideDraw[1]();
    }
    if (method !== 'learned') side.describeFlat(n, base, r, c, r2, c2);
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
  whenIdleEach(model.ahead(), { fallback: 'frame' });
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
