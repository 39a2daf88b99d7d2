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
//   [CONTROLS]   training setup, the Train / Pause / Cancel buttons, what is shown
//   [SETS]       which run set is on screen: the reference run's, or one of the reader's
//   [RESULTS]    loss curves, accuracy against length, the table, the sentences, the readouts
//   [INSIDE]     attention maps of one example, the learned table, the T5 biases (web/train/inside-section.js)
//   [TRAINING]   a set's jobs through the runner, progress, keeping the results
import { TRAIN_FAMILIES, TRAIN_TASKS } from '../../wasm/train.js';
import { choice, slider, toggle } from '../kit/controls.js';
import { h } from '../kit/dom.js';
import { readout, readoutRow } from '../kit/readout.js';
import { paragraphs, stepFrame } from '../kit/step.js';
import { accuracyFigure } from '../train/accuracy-figure.js';
import { accuracyTableView } from '../train/accuracy-table.js';
import {
  accuracyAt, accuracyByLength, best, familiesWithRuns, lengthAt, longestTraining, meanLoss, MULTIPLES, verdicts, widestSpread,
} from '../train/aggregate.js';
import { windowedCurve } from '../train/curve.js';
import { familyList, familyName } from '../train/families.js';
import { insideSection } from '../train/inside-section.js';
import { lossFigure } from '../train/loss-figure.js';
import { progressPanel } from '../train/progress.js';
import { recordOf, sharedConfig } from '../train/records.js';
import { DEFAULT_TASK, referenceSet } from '../train/reference.js';
import { createRunner } from '../train/runner.js';
import { runsPanel } from '../train/runs-panel.js';
import { openStore } from '../train/store.js';

export const id = 'train';
/** The step shows the reference run without the core (app.js mounts it with core = null). */
export const withoutCore = true;

// [PARAMS] --------------------------------------------------------------------------------------
// Training lengths 1..L; the trainer tests 1..4L (its default test lengths).
const LENGTHS = { '1-4': 4, '1-8': 8, '1-16': 16 };
const HIGH = 0.9;  // "at or above 90 %" in the sentences and the readouts
const LOW = 0.1;
const LIVE_POINTS = 100;  // points of a live loss curve
const STEP_GRID = 10;     // the steps slider's grid; a URL value is rounded onto it

export const params = {
  task: { type: 'enum', values: TRAIN_TASKS, default: DEFAULT_TASK },
  lengths: { type: 'enum', values: Object.keys(LENGTHS), default: '1-8' },
  size: { type: 'enum', values: ['tiny', 'small'], default: 'tiny' },
  // null: as many steps as the reference run took (read from its file once it has loaded).
  steps: { type: 'int', min: 10, max: 10000, default: null },
  seeds: { type: 'int', min: 1, max: 3, default: 1 },
  source: { type: 'enum', values: ['reference', 'yours'], default: 'reference' },
  tokens: { type: 'bool', default: false },
  family: { type: 'enum', values: TRAIN_FAMILIES, default: 'rope' },
  at: { type: 'enum', values: ['train', 'past'], default: 'past' },
};

export function mount(root, { core, m, values, setter, index, total, train: platform }) {
  const slots = stepFrame(root, m, { id, index, total });
  const t = (key, vars) => m.t(`train.${key}`, vars);
  const wasm = Boolean(core);
  const pct = (v, digits = 0) => m.fixed(100 * v, digits);
  root.dataset.trainState = 'idle';
  const onGrid = (v) => Math.min(params.steps.max, Math.max(params.steps.min, Math.round(v / STEP_GRID) * STEP_GRID));
  if (values.steps !== null) values.steps = onGrid(values.steps);

  let data = null;          // the reference run's file, once loaded
  let dataError = null;
  let sets = [];            // the reader's sets, newest first
  let store = null;
  let selected = null;      // id of the reader's set picked from the list
  let training = null;      // the set being trained: { set, jobs, runner }

  // [CONTROLS] ----------------------------------------------------------------------------------
  const taskOptions = TRAIN_TASKS.map((v) => ({ value: v, label: t(`task.${v}`) }));
  const controls = {
    task: choice({ name: 'task', label: t('taskLabel'), options: taskOptions, value: values.task, onChange: (v) => { selected = null; set({ task: v }); } }),
    lengths: choice({
      name: 'lengths', label: t('lengthsLabel'), value: values.lengths,
      options: Object.entries(LENGTHS).map(([v, n]) => ({ value: v, label: t('lengthsOption', { to: n }) })),
      onChange: (v) => set({ lengths: v }),
    }),
    size: choice({
      name: 'size', label: t('sizeLabel'), value: values.size,
      options: ['tiny', 'small'].map((v) => ({ value: v, label: t(`size.${v}`) })), onChange: (v) => set({ size: v }),
    }),
    steps: slider({
      name: 'steps', label: t('stepsLabel'), min: params.steps.min, max: params.steps.max, step: STEP_GRID,
      value: values.steps ?? params.steps.min, format: (v) => (values.steps === null ? '…' : m.fixed(v, 0)),
      onInput: (v) => set({ steps: v }),
    }),
    seeds: slider({ name: 'seeds', label: t('seedsLabel'), min: 1, max: 3, value: values.seeds, onInput: (v) => set({ seeds: v }) }),
  };
  const buttons = {
    train: h('button', { type: 'button', class: 'button primary', name: 'train', onClick: () => startTraining() }, t('trainButton')),
    pause: h('button', { type: 'button', class: 'button', name: 'pause', disabled: true, onClick: () => togglePause() }, t('pauseButton')),
    cancel: h('button', { type: 'button', class: 'button', name: 'cancel', disabled: true, onClick: () => training?.runner.cancel() }, t('cancelButton')),
  };
  const setupNote = h('p', { class: 'train-setup-note' });
  slots.controls.append(
    h('p', { class: 'train-controls-title' }, t('setupTitle')),
    controls.task.el, controls.lengths.el, controls.size.el, controls.seeds.el, controls.steps.el,
    h('div', { class: 'train-buttons' }, buttons.train, buttons.pause, buttons.cancel), setupNote);

  const view = {
    source: choice({
      name: 'source', label: t('sourceLabel'), value: values.source,
      options: [{ value: 'reference', label: t('sourceReference') }, { value: 'yours', label: t('sourceYours') }],
      onChange: (v) => set({ source: v }),
    }),
    tokens: toggle({ name: 'tokens', label: t('tokensLabel'), checked: values.tokens, onChange: (v) => set({ tokens: v }) }),
  };

  // [RESULTS] -----------------------------------------------------------------------------------
  const provenance = h('p', { class: 'train-provenance' });
  const progress = progressPanel(m);
  const loss = lossFigure(m);
  const accuracy = accuracyFigure(m);
  const table = accuracyTableView(m);
  const summary = h('div', { class: 'train-summary' });
  const runs = runsPanel(m, {
    show: (s) => { selected = s.id; set({ source: 'yours', task: s.task }); },
    remove: async (s) => {
      await store?.remove(s.id);
      sets = sets.filter((x) => x !== s);
      if (selected === s.id) selected = null;
      set({});
    },
    imported: async (s) => {
      const copy = { ...s, id: newId(), status: 'done' };
      await saveWhole(copy);
      sets.unshift(copy);
      selected = copy.id;
      set({ source: 'yours', task: copy.task });
    },
  });
  slots.figure.append(
    h('h3', { class: 'train-section-title' }, t('progressTitle')), progress.el,
    h('h3', { class: 'train-section-title' }, t('resultsTitle')),
    h('div', { class: 'controls train-view' }, view.source.el, view.tokens.el), provenance,
    loss.el, accuracy.el, table.el, summary, runs.el);

  const out = {
    task: readout('task', t('outTask')),
    runs: readout('runs', t('outRuns')),
    longest: readout('longest', t('outLongest')),
    above: readout('above90', t('outAbove')),
    best: readout('best', t('outBest')),
    bestValue: readout('best-value', t('outBestValue')),
  };
  slots.readouts.append(readoutRow(out.task, out.runs, out.longest, out.above, out.best, out.bestValue));

  // [INSIDE] ------------------------------------------------------------------------------------
  // Attention maps of one example, the learned table, the T5 biases (web/train/inside-section.js).
  const inside = insideSection({
    m, t, values, set: (patch) => set(patch), core, platform, reference: () => data, date: (iso) => date(iso),
  });
  slots.readouts.after(inside.el);
  paragraphs(slots.notes, m, 'train.notes');

  // [SETS] --------------------------------------------------------------------------------------
  /** The set on screen, and why: { set, kind: 'reference'|'yours'|'fallback'|'loading'|'missing' }. */
  function shown() {
    if (values.source === 'yours') {
      const own = sets.find((s) => s.id === selected) ?? sets.find((s) => s.task === values.task && s.runs.length);
      if (own && own.runs.length) return { set: own, kind: 'yours' };
    }
    if (!data) return { set: null, kind: dataError ? 'missing' : 'loading' };
    const ref = referenceSet(data, values.task);
    if (!ref) return { set: null, kind: 'missing' };
    return { set: ref, kind: values.source === 'yours' ? 'fallback' : 'reference' };
  }

  const date = (iso) => new Intl.DateTimeFormat(m.lang, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(iso));

  function describeSet({ set: s, kind }) {
    if (kind === 'loading') return t('loadingReference');
    if (kind === 'missing') return dataError ? t('referenceFailed', { message: dataError }) : t('referenceNoTask', { task: t(`task.${values.task}`) });
    const lengths = `${Math.min(...s.config.trainLengths)}–${longestTraining(s.config)}`;
    if (s.source === 'reference') {
      const p = s.provenance;
      return [kind === 'fallback' ? t('noOwnRuns') : '', t('provenance', {
        task: t(`task.${s.task}`), lengths, steps: m.fixed(s.config.steps, 0), seeds: s.seeds.length,
        command: p.command, commit: String(p.commit).slice(0, 10), date: date(p.date), wall: m.fixed(p.wallSeconds, 0),
        cores: p.cores, cpu: p.cpu, d: s.config.dModel, layers: s.config.layers, heads: s.config.heads,
      })].filter(Boolean).join(' ');
    }
    return t('yoursLine', {
      task: t(`task.${s.task}`), lengths, steps: m.fixed(s.config.steps, 0), size: s.size ? t(`size.${s.size}`) : '—',
      seeds: s.seeds.length, runs: s.runs.length, date: date(s.created),
      status: t(`setStatus.${s.status ?? 'done'}`),
    });
  }

  // [RESULTS] drawing -----------------------------------------------------------------------------
  const metric = () => (values.tokens ? 'tokens' : 'exact');

  function drawResults(view) {
    const s = view.set;
    if (!s) {
      loss.draw([], 1);
      table.empty(describeSet(view));
      summary.replaceChildren();
      for (const r of Object.values(out)) r.set('—');
      return;
    }
    drawLoss(s);
    accuracy.draw(s, { metric: metric(), focus: values.family });
    table.draw(s, metric());
    drawSummary(s);
    const top = best(s, 2, metric());
    const above = verdicts(s, 2, { metric: metric(), high: HIGH, low: LOW });
    out.task.set(t(`task.${s.task}`));
    out.runs.set(m.fixed(s.runs.length, 0), s.runs.length);
    out.longest.set(m.fixed(longestTraining(s.config), 0), longestTraining(s.config));
    out.above.set(m.fixed(above.high.length, 0), above.high.length);
    out.best.set(top ? familyName(m, top.family) : '—');
    if (top) out.bestValue.set(pct(top.mean, 1), 100 * top.mean);
    else out.bestValue.set('—');
  }

  /** The loss curves: the set's records, or the live logs of the set that is training. */
  function drawLoss(s) {
    const live = training?.set === s ? training : null;
    const curves = [];
    for (const family of s.families) {
      if (live) {
        const series = live.jobs.filter((j) => j.family === family && j.losses.length).map((j) => j.losses);
        if (!series.length) continue;
        const n = Math.min(...series.map((x) => x.length));
        const mean = Array.from({ length: n }, (_, i) => series.reduce((a, x) => a + x[i], 0) / series.length);
        const c = windowedCurve(mean, LIVE_POINTS);
        curves.push({ family, steps: c.steps, values: c.values });
      } else {
        const c = meanLoss(s, family);
        if (c) curves.push({ family, steps: c.steps, values: c.mean });
      }
    }
    loss.draw(curves, s.config.steps);
  }

  function drawSummary(s) {
    const list = (fams) => familyList(m, fams, t('nobody'));
    const longest = longestTraining(s.config);
    const paras = [];
    for (const multiple of [1, 2, 4]) {
      const v = verdicts(s, multiple, { metric: metric(), high: HIGH, low: LOW });
      if (v.length === null) continue;
      paras.push(t(multiple === 1 ? 'sumAtTrain' : 'sumPast', {
        multiple, length: v.length, longest, high: list(v.high), low: list(v.low), mid: list(v.mid),
        metric: t(metric() === 'exact' ? 'metricWordExact' : 'metricWordTokens'),
      }));
    }
    const wide = widestSpread(s, 2, metric());
    paras.push(!wide ? t('sumOneSeed')
      : wide.max > wide.min ? t('sumSpread', { family: familyName(m, wide.family), length: wide.length, min: pct(wide.min), max: pct(wide.max), seeds: wide.n })
        : t('sumNoSpread', { length: wide.length }));
    summary.replaceChildren(h('h4', {}, t('summaryTitle')), ...paras.map((p) => h('p', {}, p)));
  }

  // [INSIDE] drawing ------------------------------------------------------------------------------

  // [RENDER] ------------------------------------------------------------------------------------
  let insideDrawing = 0;  // the latest render's inside drawings
  function render() {
    const v = shown();
    root.dataset.trainSet = v.set?.id ?? v.kind;  // which set the figures show (data-shown is the page's: built and shown)
    provenance.textContent = describeSet(v);
    drawResults(v);
    // data-busy until the reference run has loaded (or failed to) and the inside section's
    // drawings (after a turn, or the trainer's loading) are done: the page's own signal that the
    // step is not yet all drawn.
    const drawing = ++insideDrawing;
    root.dataset.busy = 'true';
    inside.draw(v).then(() => { if (drawing === insideDrawing && root.dataset.trainReady) delete root.dataset.busy; });
    runs.draw(sets, v.kind === 'yours' ? v.set.id : null);
    syncControls();
  }

  function syncControls() {
    for (const name of ['task', 'lengths', 'size', 'seeds']) controls[name].set(values[name]);
    if (values.steps !== null) controls.steps.set(values.steps);
    view.source.set(values.source);
    view.tokens.set(values.tokens);
    inside.sync();
    const running = Boolean(training);
    buttons.train.disabled = running || !wasm || values.steps === null;
    buttons.pause.disabled = !running;
    buttons.cancel.disabled = !running;
    buttons.pause.textContent = t(training?.runner.paused ? 'resumeButton' : 'pauseButton');
    const L = LENGTHS[values.lengths];
    setupNote.textContent = !wasm ? t('noWasm')
      : t('setupNote', { runs: TRAIN_FAMILIES.length * values.seeds, from: 1, to: L, test: 4 * L });
  }

  const set = setter(render);

  // [TRAINING] ----------------------------------------------------------------------------------
  const newId = () => `set-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

  async function saveWhole(s) {
    if (!store) return;
    await store.saveSet(s);
    for (const r of s.runs) await store.saveRun(s.id, r);
  }

  /**
   * The config of the reader's runs: the reference run's protocol for the task (optimiser, batch,
   * test set; the same for every family), the model of the chosen size preset, the chosen
   * lengths and steps, warm-up the same share of the steps as in the reference run.
   */
  function protocolConfig(tr) {
    const preset = tr.preset(values.size);
    const ref = data?.tasks[values.task]?.config ?? null;
    const base = ref ? { ...preset, ...ref } : { ...preset };
    const L = LENGTHS[values.lengths];
    const steps = values.steps;
    const warmup = Math.min(steps, Math.round((base.warmup * steps) / base.steps));
    // Retrieval draws distinct keys: at least as many symbols as the longest test length.
    const symbols = values.task === 'retrieval' ? Math.max(base.symbols, 4 * L) : base.symbols;
    const { family, seed, testLengths, ...rest } = base;
    return {
      ...rest, dModel: preset.dModel, layers: preset.layers, heads: preset.heads, mlp: preset.mlp,
      task: values.task, trainLengths: Array.from({ length: L }, (_, i) => i + 1), symbols, steps, warmup,
    };
  }

  async function startTraining() {
    if (training || !wasm) return;
    buttons.train.disabled = true;
    let tr;
    let config;
    try {
      tr = await inside.loadTrainer();
      config = tr.config(protocolConfig(tr));
    } catch (e) {
      setupNote.textContent = t('configFailed', { message: e.message });
      buttons.train.disabled = false;
      return;
    }
    const s = {
      id: newId(), source: 'yours', created: new Date().toISOString(), task: values.task, size: values.size,
      config: sharedConfig(config), seeds: Array.from({ length: values.seeds }, (_, i) => i), families: [...TRAIN_FAMILIES],
      runs: [], status: 'running',
    };
    const jobs = s.seeds.flatMap((seed) => TRAIN_FAMILIES.map((family) => ({
      id: `${family}-${seed}`, family, seed, config: { ...config, family, seed }, steps: 0, total: config.steps, rate: 0, losses: [], state: 'waiting',
    })));
    const runner = createRunner({ workerUrl: platform.workerUrl, trainerBase: platform.trainerBase, loadTrainer: inside.loadTrainer });
    training = { set: s, jobs, runner };
    sets.unshift(s);
    selected = s.id;
    await store?.saveSet(s);
    root.dataset.trainState = 'running';
    progress.start(jobs);
    set({ source: 'yours' });
    await runner.run(jobs, {
      onReady: (mode) => {
        root.dataset.trainMode = mode;
        progress.mode(mode, { workers: runner.workers, reason: platform.workerUrl ? runner.reason : t('modeFile') });
      },
      onStart: (job) => { job.state = 'training'; progress.job(job.id, 'training', 0); },
      onProgress: (job, p) => {
        if (p.phase === 'train') {
          for (const v of p.log.loss) job.losses.push(v);
          job.steps = p.steps;
          job.rate = p.stepsPerSecond;
          progress.job(job.id, 'training', p.steps / p.total);
        } else if (job.state !== 'scoring') {
          job.state = 'scoring';
          job.rate = 0;
          progress.job(job.id, 'scoring');
        }
        scheduleLive();
      },
      onResult: (job, result) => {
        const record = recordOf(result);
        job.state = record.status;
        job.rate = 0;
        job.total = job.steps = record.steps;
        s.runs.push(record);
        store?.saveRun(s.id, record);
        progress.job(job.id, record.status);
        scheduleLive(true);
      },
      onError: (job, message) => {
        job.state = 'failed';
        job.rate = 0;
        progress.job(job.id, 'failed');
        setupNote.textContent = t('jobFailed', { family: familyName(m, job.family), seed: job.seed, message });
      },
    });
    const cancelled = jobs.some((j) => j.state === 'waiting' || j.state === 'cancelled');
    s.status = cancelled ? 'cancelled' : 'done';
    for (const j of jobs) if (j.state === 'waiting') progress.job(j.id, 'skipped');
    training = null;
    await store?.saveSet(s);
    root.dataset.trainState = s.status;
    progress.say(cancelled ? 'train.announceCancelled' : 'train.announceDone', { runs: s.runs.length });
    set({});
  }

  function togglePause() {
    if (!training) return;
    const { runner } = training;
    if (runner.paused) {
      runner.resume();
      delete root.dataset.trainHeld;
      root.dataset.trainState = 'running';
      progress.say('train.announceResumed');
    } else {
      // Once every worker has stopped stepping, the readouts show where they stopped, at once
      // (not in the next live frame), and data-train-held says so (the tests wait on it).
      runner.pause().then(() => {
        if (!runner.paused) return;
        drawLive();
        root.dataset.trainHeld = 'true';
      });
      root.dataset.trainState = 'paused';
      progress.say('train.announcePaused');
    }
    syncControls();
  }

  // Live drawing: at most about four times a second, in an animation frame, so the page stays
  // responsive however often the workers report. A finished run redraws the results as well.
  let livePending = false;
  let resultsDirty = false;
  let lastLive = 0;
  function scheduleLive(results = false) {
    resultsDirty ||= results;
    if (livePending) return;
    livePending = true;
    setTimeout(() => requestAnimationFrame(() => {
      livePending = false;
      lastLive = performance.now();
      drawLive();
    }), Math.max(0, 250 - (performance.now() - lastLive)));
  }

  function drawLive() {
    if (!training) return;
    const { jobs, set: s } = training;
    const done = jobs.reduce((a, j) => a + j.steps, 0);
    const all = jobs.reduce((a, j) => a + j.total, 0);
    const rate = jobs.reduce((a, j) => a + (j.state === 'training' ? j.rate : 0), 0);
    progress.totals({ done, total: all, rate, left: rate > 0 ? (all - done) / rate : NaN });
    const v = shown();
    if (v.set !== s) return;
    if (resultsDirty && s.runs.length) {
      resultsDirty = false;
      render();
    } else drawLoss(s);
  }

  // [START] -------------------------------------------------------------------------------------
  if (!wasm) progress.mode('none');
  else if (!platform.workerUrl) progress.mode('main', { reason: t('modeFile') });
  else progress.el.querySelector('.train-mode').textContent = t('modeIdle');

  platform.reference().then((json) => {
    data = json;
    root.dataset.trainReady = 'reference';
    const patch = {};
    const refSteps = data.tasks[values.task]?.config.steps ?? Object.values(data.tasks)[0]?.config.steps;
    if (values.steps === null && refSteps) patch.steps = onGrid(refSteps);
    set(patch);
  }, (e) => {
    dataError = e.message;
    root.dataset.trainReady = 'failed';
    if (values.steps === null) values.steps = 600;
    set({});
  });

  openStore().then(async (st) => {
    store = st;
    runs.setPersistent(st.persistent);
    // A set that was training when the page went away keeps the runs it finished.
    sets = (await st.list()).filter((s) => s.runs.length).map((s) => (s.status === 'running' ? { ...s, status: 'interrupted' } : s));
    root.dataset.trainStore = st.persistent ? 'indexeddb' : 'memory';
    set({});
  });

  render();
  return {
    tables: () => {
      const s = shown().set;
      const families = s ? familiesWithRuns(s) : [];
      return [
        {
          name: 'accuracy', label: t('csvAccuracy'),
          header: ['family', 'metric', 'multiple', 'length', 'mean', 'min', 'max', 'seeds'],
          rows: s ? ['exact', 'tokens'].flatMap((mt) => families.flatMap((f) => MULTIPLES.map((k) => {
            const length = lengthAt(s.config, k);
            const c = accuracyAt(s, f, length, mt) ?? {};
            return [f, mt, k, length, c.mean ?? '', c.min ?? '', c.max ?? '', c.n ?? 0];
          }))) : [],
        },
        {
          name: 'by-length', label: t('csvByLength'),
          header: ['family', 'length', 'exact_mean', 'exact_min', 'exact_max', 'tokens_mean', 'tokens_min', 'tokens_max'],
          rows: s ? families.flatMap((f) => {
            const e = accuracyByLength(s, f, 'exact');
            const k = accuracyByLength(s, f, 'tokens');
            return e.lengths.map((n, i) => [f, n, e.mean[i], e.min[i], e.max[i], k.mean[i], k.min[i], k.max[i]]);
          }) : [],
        },
        {
          name: 'runs', label: t('csvRuns'),
          header: ['set', 'family', 'seed', 'status', 'steps', 'seconds', 'length', 'exact', 'tokens'],
          rows: s ? s.runs.flatMap((r) => r.accuracy.map((a) => [s.id, r.family, r.seed, r.status, r.steps, r.seconds, a.length, a.exact, a.tokens])) : [],
        },
      ];
    },
  };

}
