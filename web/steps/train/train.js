// Train short, test long: the same tiny decoder-only transformer trained once per position
// family on a toy task with short sequences, then scored on sequences up to four times longer.
// Before anyone trains, the step shows the reference run (web/data/train-reference.json, from
// `npm run experiment`) with its provenance — also without WebAssembly and in print. Train runs
// the reader's own set in Web Workers (web/train/runner.js), keeps it in IndexedDB and shows it
// the same way. Every number in the figures, the table, the readouts and the sentences under the
// table is computed from a set's records (web/train/aggregate.js); nothing here states a result.
//
// Index
//   [PARAMS]     URL state (every control; never the weights)
//   [CONTROLS]   training setup and the Train / Pause / Cancel buttons (web/train/setup-panel.js), what is shown
//   [RESULTS]    loss curves, accuracy against length, the table, the sentences, the readouts (web/train/results-view.js)
//   [INSIDE]     attention maps of one example, the learned table, the T5 biases (web/train/inside-section.js)
//   [SETS]       which run set is on screen: the reference run's, or one of the reader's
//   [TRAINING]   a set's jobs through the runner, progress, keeping the results (web/train/training.js)
import { TRAIN_FAMILIES, TRAIN_TASKS } from '../../../wasm/train.js';
import { choice, toggle } from '../../kit/controls.js';
import { h } from '../../kit/dom.js';
import { paragraphs, stepFrame } from '../../kit/step.js';
import { csvTables } from '../../train/csv-tables.js';
import { listFormat } from '../../train/families.js';
import { insideSection } from '../../train/inside-section.js';
import { progressPanel } from '../../train/progress.js';
import { dateWriter, describeOrigin, describeSet } from '../../train/provenance.js';
import { OPENING_TASK, referenceSet } from '../../train/reference.js';
import { FIX_NAMES } from '../../train/fixes.js';
import { resultsView } from '../../train/results-view.js';
import { runsPanel } from '../../train/runs-panel.js';
import { LENGTHS, STEP_GRID, setupPanel } from '../../train/setup-panel.js';
import { openStore } from '../../train/store.js';
import { newId, trainingControls } from '../../train/training.js';
import { whenIdle } from '../../kit/idle.js';
import { settleNumber } from '../../kit/params.js';

export const id = 'train';
/** The step shows the reference run without the core (app.js mounts it with core = null). */
export const withoutCore = true;

// [PARAMS] --------------------------------------------------------------------------------------
export const params = {
  task: { type: 'enum', values: TRAIN_TASKS, default: OPENING_TASK },
  lengths: { type: 'enum', values: Object.keys(LENGTHS), default: '1-8' },
  size: { type: 'enum', values: ['tiny', 'small'], default: 'tiny' },
  // null: as many steps as the reference run took (read from its file once it has loaded).
  steps: { type: 'int', min: 10, max: 10000, step: STEP_GRID, default: null },
  seeds: { type: 'int', min: 1, max: 3, default: 1 },
  fix: { type: 'enum', values: FIX_NAMES, default: 'plain' },
  source: { type: 'enum', values: ['reference', 'yours'], default: 'reference' },
  tokens: { type: 'bool', default: false },
  family: { type: 'enum', values: TRAIN_FAMILIES, default: 'rope' },
  at: { type: 'enum', values: ['train', 'past'], default: 'past' },
};

export function mount(root, { core, m, values, setter, index, total, train: platform }) {
  const slots = stepFrame(root, m, { id, index, total, downloads: 'deeper' });
  const t = (key, vars) => m.t(`train.${key}`, vars);
  const wasm = Boolean(core);
  root.dataset.trainState = 'idle';
  const onGrid = (v) => settleNumber(params.steps, v, values);
  if (values.steps !== null) values.steps = onGrid(values.steps);
  const date = dateWriter(m);

  const state = {
    data: null,        // the reference run's file, once loaded
    dataError: null,
    sets: [],          // the reader's sets, newest first
    store: null,
    selected: null,    // id of the reader's set picked from the list
    training: null,    // the set being trained: { set, jobs, runner }
  };

  // [CONTROLS] ----------------------------------------------------------------------------------
  const setup = setupPanel({
    m, t, values, set: (patch) => set(patch), params, wasm,
    onTask: (v) => { state.selected = null; set({ task: v }); },
    onTrain: () => training.start(), onPause: () => training.togglePause(), onCancel: () => training.cancel(),
  });

  const view = {
    source: choice({
      name: 'source', label: t('sourceLabel'), value: values.source,
      options: [{ value: 'reference', label: t('sourceReference') }, { value: 'yours', label: t('sourceYours') }],
      onChange: (v) => set({ source: v }),
    }),
    tokens: toggle({ name: 'tokens', label: t('tokensLabel'), checked: values.tokens, onChange: (v) => set({ tokens: v }) }),
  };

  // [RESULTS] -----------------------------------------------------------------------------------
  // Where the set on screen comes from: one short line above the figure, the whole of it (command,
  // commit, date, machine) in the fold.
  const origin = h('p', { class: 'train-origin' });
  const provenance = h('p', { class: 'train-provenance' });
  const progress = progressPanel(m);
  // The sentences' list formatter, made while the step is built rather than inside the update that
  // first draws the results (their data may arrive while the reader is already changing things).
  listFormat(m);
  const results = resultsView({ m, t, values, live: (s) => (state.training?.set === s ? state.training : null) });
  const runs = runsPanel(m, {
    show: (s) => { state.selected = s.id; set({ source: 'yours', task: s.task }); },
    remove: async (s) => {
      await state.store?.remove(s.id);
      state.sets = state.sets.filter((x) => x !== s);
      if (state.selected === s.id) state.selected = null;
      set({});
    },
    imported: async (s) => {
      const copy = { ...s, id: newId(), status: 'done' };
      await saveWhole(copy);
      state.sets.unshift(copy);
      state.selected = copy.id;
      set({ source: 'yours', task: copy.task });
    },
  });
  // Figure first (the learner's path): the task, the figure, its sentences and Train on the first
  // screens; the provenance, the tables, the trained models inside and the setup in the fold.
  // Which set to show is offered once the reader has sets of their own.
  slots.controls.append(setup.task, view.source.el);
  slots.figure.append(origin, ...results.els, h('div', { class: 'train-run-block' }, ...setup.run, progress.el));
  slots.readouts.append(results.spoken);
  slots.deeper.append(
    h('h3', { class: 'train-section-title' }, t('resultsTitle')), provenance,
    h('div', { class: 'controls train-view' }, view.tokens.el), ...results.tables, results.readouts);
  paragraphs(slots.deeper, m, 'train.notes');

  // [INSIDE] ------------------------------------------------------------------------------------
  // Attention maps of one example, the learned table, the T5 biases (web/train/inside-section.js).
  const inside = insideSection({
    m, t, values, set: (patch) => set(patch), core, platform, reference: () => state.data, date,
    training: () => Boolean(state.training),
  });
  slots.deeper.append(inside.el,
    h('h3', { class: 'train-section-title' }, t('setupTitle')), h('div', { class: 'controls train-setup' }, ...setup.els),
    runs.el, h('h3', { class: 'train-section-title' }, t('lossTitle')), results.loss);
  paragraphs(slots.deeper, m, 'train.deeper');

  // [SETS] --------------------------------------------------------------------------------------
  /** The set on screen, and why: { set, kind: 'reference'|'yours'|'fallback'|'loading'|'missing' }. */
  function shown() {
    if (values.source === 'yours') {
      const own = state.sets.find((s) => s.id === state.selected) ?? state.sets.find((s) => s.task === values.task && s.runs.length);
      if (own && own.runs.length) return { set: own, kind: 'yours' };
    }
    if (!state.data) return { set: null, kind: state.dataError ? 'missing' : 'loading' };
    const ref = referenceSet(state.data, values.task);
    if (!ref) return { set: null, kind: 'missing' };
    return { set: ref, kind: values.source === 'yours' ? 'fallback' : 'reference' };
  }

  // [RENDER] ------------------------------------------------------------------------------------
  let insideDrawing = 0;  // the latest render's inside drawings
  function render() {
    const v = shown();
    root.dataset.trainSet = v.set?.id ?? v.kind;  // which set the figures show (data-shown is the page's: built and shown)
    const line = describeSet({ m, t, date }, v, { task: values.task, dataError: state.dataError, missing: state.data?.provenance.missing });
    provenance.textContent = line;
    provenance.hidden = !v.set;
    origin.textContent = describeOrigin({ m, t, date }, v, line);
    results.draw(v, line);
    // data-busy until the reference run has loaded (or failed to) and the inside section's
    // drawings (after a turn, or the trainer's loading) are done: the page's own signal that the
    // step is not yet all drawn.
    const drawing = ++insideDrawing;
    root.dataset.busy = 'true';
    inside.draw(v).then(() => { if (drawing === insideDrawing && root.dataset.trainReady) delete root.dataset.busy; });
    runs.draw(state.sets, v.kind === 'yours' ? v.set.id : null);
    syncControls();
  }

  function syncControls() {
    setup.sync(state.training);
    view.source.set(values.source);
    view.source.el.hidden = !state.sets.length && values.source === 'reference';
    view.tokens.set(values.tokens);
    inside.sync();
  }

  const set = setter(render);
  // What the fold holds is drawn when it opens (results-view.js, inside-section.js skip it closed).
  root.querySelector(':scope > details.deeper')?.addEventListener('toggle', (e) => { if (e.target.open) render(); });

  // [TRAINING] ----------------------------------------------------------------------------------
  async function saveWhole(s) {
    if (!state.store) return;
    await state.store.saveSet(s);
    for (const r of s.runs) await state.store.saveRun(s.id, r);
  }

  const training = trainingControls({
    t, m, root, values, state, platform, wasm, loadTrainer: () => inside.loadTrainer(), progress, setup,
    set, render, sync: syncControls, onScreen: () => shown().set, drawLoss: (s) => results.drawLoss(s),
  });

  // The other tasks' reference sets are worked out in idle time, one a turn, once the first one
  // is drawn: a reader's first switch to a task then only puts its results on screen. When all
  // are, the step says so (data-train-prepared): the memory they take is then all taken.
  const idle = (fn) => whenIdle(fn, { fallback: 50 });
  function prepareTasks(tasks = [values.task, ...TRAIN_TASKS.filter((task) => task !== values.task)]) {
    if (!tasks.length) {
      root.dataset.trainPrepared = 'true';
      return;
    }
    idle(() => {
      const s = referenceSet(state.data, tasks[0]);
      if (s) results.prepare(s);
      prepareTasks(tasks.slice(1));
    });
  }

  // [START] -------------------------------------------------------------------------------------
  // The progress panel stays out of the way until Train is pressed (progress.start shows it),
  // except on the single file, where it says before anything starts why training is slower.
  progress.el.hidden = true;
  if (!wasm) progress.mode('none');
  else if (!platform.workerUrl) {
    progress.mode('main', { reason: t('modeFile') });
    progress.el.hidden = false;
  } else progress.el.querySelector('.train-mode').textContent = t('modeIdle');

  platform.reference().then((json) => {
    state.data = json;
    root.dataset.trainReady = 'reference';
    const patch = {};
    const refSteps = json.tasks[values.task]?.config.steps ?? Object.values(json.tasks)[0]?.config.steps;
    if (values.steps === null && refSteps) patch.steps = onGrid(refSteps);
    set.arrived(patch);
    prepareTasks();
  }, (e) => {
    state.dataError = e.message;
    root.dataset.trainReady = 'failed';
    if (values.steps === null) values.steps = 600;
    set.arrived({});
  });

  openStore().then(async (st) => {
    state.store = st;
    runs.setPersistent(st.persistent);
    // A set that was training when the page went away keeps the runs it finished.
    state.sets = (await st.list()).filter((s) => s.runs.length).map((s) => (s.status === 'running' ? { ...s, status: 'interrupted' } : s));
    root.dataset.trainStore = st.persistent ? 'indexeddb' : 'memory';
    set.arrived({});
  });

  render();
  return { tables: () => csvTables(shown().set, t) };
}
