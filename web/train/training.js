// Training a set on the train step: the reader's setup turned into the trainer's config (the
// reference run's protocol for the task), one job per family and seed through the runner
// (Workers, or slices on the page's thread), progress, pause, resume and cancel, and the live
// drawing, at most about four times a second. Each finished run is kept at once (store.js).
import { TRAIN_FAMILIES } from '../../wasm/train.js';
import { familyName } from './families.js';
import { fixFields } from './fixes.js';
import { recordOf, sharedConfig } from './records.js';
import { createRunner } from './runner.js';
import { LENGTHS } from './setup-panel.js';

/** A new set's id. */
export const newId = () => `set-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

/**
 * @param {{t:(key:string, vars?:object)=>string, m:object, root:HTMLElement, values:object,
 *   state:{data:object|null, sets:object[], store:object|null, selected:string|null, training:object|null},
 *   platform:object, wasm:boolean, loadTrainer:()=>Promise<object>, progress:object, setup:object,
 *   set:((patch:object)=>void)&{arrived:(patch:object)=>void}, render:()=>void, sync:()=>void, onScreen:()=>object|null, drawLoss:(set:object)=>void}} o
 *   state: the step's, shared (training is the set being trained: { set, jobs, runner });
 *   onScreen: the set the step shows now.
 */
export function trainingControls({ t, m, root, values, state, platform, wasm, loadTrainer, progress, setup, set, render, sync, onScreen, drawLoss }) {
  /**
   * The config of the reader's runs: the reference run's protocol for the task (optimiser, batch,
   * test set; the same for every family), the model of the chosen size preset, the chosen
   * lengths and steps, warm-up the same share of the steps as in the reference run.
   */
  function protocolConfig(tr) {
    const preset = tr.preset(values.size);
    const ref = state.data?.tasks[values.task]?.config ?? null;
    const base = ref ? { ...preset, ...ref } : { ...preset };
    const L = LENGTHS[values.lengths];
    const steps = values.steps;
    const warmup = Math.min(steps, Math.round((base.warmup * steps) / base.steps));
    // Retrieval draws distinct keys: at least as many symbols as the longest test length.
    const symbols = values.task === 'retrieval' ? Math.max(base.symbols, 4 * L) : base.symbols;
    const { family, seed, testLengths, randomPositions, scalableSoftmax, ...rest } = base;
    const trainLengths = Array.from({ length: L }, (_, i) => i + 1);
    return {
      ...rest, dModel: preset.dModel, layers: preset.layers, heads: preset.heads, mlp: preset.mlp,
      task: values.task, trainLengths, symbols, steps, warmup,
      // The fix chosen, as the reference run sets it (fixes.js).
      ...fixFields(values.fix, { task: values.task, trainLengths, offset: rest.offset }),
    };
  }

  async function start() {
    if (state.training || !wasm) return;
    setup.buttons.train.disabled = true;
    let tr;
    let config;
    try {
      tr = await loadTrainer();
      config = tr.config(protocolConfig(tr));
    } catch (e) {
      setup.note.textContent = t('configFailed', { message: e.message });
      setup.buttons.train.disabled = false;
      return;
    }
    const s = {
      id: newId(), source: 'yours', created: new Date().toISOString(), task: values.task, size: values.size, fix: values.fix,
      config: sharedConfig(config), seeds: Array.from({ length: values.seeds }, (_, i) => i), families: [...TRAIN_FAMILIES],
      runs: [], status: 'running',
    };
    const jobs = s.seeds.flatMap((seed) => TRAIN_FAMILIES.map((family) => ({
      id: `${family}-${seed}`, family, seed, config: { ...config, family, seed }, steps: 0, total: config.steps, rate: 0, losses: [], state: 'waiting',
    })));
    const runner = createRunner({ workerUrl: platform.workerUrl, trainerBase: platform.trainerBase, loadTrainer });
    state.training = { set: s, jobs, runner };
    state.sets.unshift(s);
    state.selected = s.id;
    await state.store?.saveSet(s);
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
        state.store?.saveRun(s.id, record);
        progress.job(job.id, record.status);
        scheduleLive(true);
      },
      onError: (job, message) => {
        job.state = 'failed';
        job.rate = 0;
        progress.job(job.id, 'failed');
        setup.note.textContent = t('jobFailed', { family: familyName(m, job.family), seed: job.seed, message });
      },
    });
    const cancelled = jobs.some((j) => j.state === 'waiting' || j.state === 'cancelled');
    s.status = cancelled ? 'cancelled' : 'done';
    for (const j of jobs) if (j.state === 'waiting') progress.job(j.id, 'skipped');
    state.training = null;
    await state.store?.saveSet(s);
    root.dataset.trainState = s.status;
    progress.say(cancelled ? 'train.announceCancelled' : 'train.announceDone', { runs: s.runs.length });
    set.arrived({});
  }

  function togglePause() {
    if (!state.training) return;
    const { runner } = state.training;
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
    sync();
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
    if (!state.training) return;
    const { jobs, set: s } = state.training;
    const done = jobs.reduce((a, j) => a + j.steps, 0);
    const all = jobs.reduce((a, j) => a + j.total, 0);
    const rate = jobs.reduce((a, j) => a + (j.state === 'training' ? j.rate : 0), 0);
    progress.totals({ done, total: all, rate, left: rate > 0 ? (all - done) / rate : NaN });
    if (onScreen() !== s) return;
    if (resultsDirty && s.runs.length) {
      resultsDirty = false;
      render();
    } else drawLoss(s);
  }

  return {
    start,
    togglePause,
    cancel: () => state.training?.runner.cancel(),
  };
}
