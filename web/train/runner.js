// Schedules a set's jobs (six families × 1–3 seeds) over Web Workers, at most
// min(navigator.hardwareConcurrency, 6) of them, each running worker.js one job at a time. Where
// a Worker cannot start (the single file from file://: its CSP allows no worker script; a
// browser without module workers), the same jobs run one after another on the page's own
// thread, in slices of about 30 ms with a timer turn between them. Either way the caller sees
// one interface: run(jobs, callbacks), pause() (a promise: settled when no slot steps),
// resume(), cancel().
import { jobControl, runJob } from './job.js';

const MAX_WORKERS = 6;
const LOAD_TIMEOUT_MS = 30000;

const timerTurn = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A worker that has loaded the trainer, or a rejection saying why it could not. */
function startWorker(url, baseUrl) {
  return new Promise((resolve, reject) => {
    let worker;
    try {
      worker = new Worker(url, { type: 'module' });
    } catch (e) {
      reject(e);
      return;
    }
    const timer = setTimeout(() => fail(new Error('the worker did not load in time')), LOAD_TIMEOUT_MS);
    const fail = (e) => {
      clearTimeout(timer);
      worker.terminate();
      reject(e);
    };
    worker.onerror = (e) => {
      e.preventDefault?.();
      fail(new Error(e.message || 'the worker script could not start'));
    };
    worker.onmessage = ({ data }) => {
      if (data.type === 'ready') {
        clearTimeout(timer);
        worker.onerror = null;
        resolve(worker);
      } else if (data.type === 'error') fail(new Error(data.message));
    };
    worker.postMessage({ type: 'load', baseUrl: String(baseUrl) });
  });
}

/** A slot that runs jobs in one worker. */
function workerSlot(worker) {
  let current = null;  // the running job's message handler
  const pauses = [];   // pause() promises waiting for the worker's acknowledgement
  worker.onmessage = ({ data }) => {
    if (data.type === 'paused') pauses.shift()?.();
    else current?.(data);
  };
  return {
    run(job, { onProgress }) {
      return new Promise((resolve, reject) => {
        current = (data) => {
          if (data.id !== job.id) return;
          if (data.type === 'progress') onProgress(data);
          else if (data.type === 'result') resolve(data.result);
          else if (data.type === 'error') reject(new Error(data.message));
        };
        worker.onerror = (e) => {
          e.preventDefault?.();
          reject(new Error(e.message || 'the worker stopped'));
        };
        worker.postMessage({ type: 'start', id: job.id, config: job.config });
      });
    },
    pause: () => new Promise((resolve) => {
      pauses.push(resolve);
      worker.postMessage({ type: 'pause' });
    }),
    resume: () => worker.postMessage({ type: 'resume' }),
    cancel: () => worker.postMessage({ type: 'cancel' }),
    close: () => {
      worker.terminate();
      while (pauses.length) pauses.shift()();
    },
  };
}

/** A slot that runs jobs on this thread. */
function mainSlot(trainer) {
  let control = null;
  return {
    async run(job, { onProgress }) {
      control = jobControl();
      try {
        return await runJob(trainer, job.config, { control, onProgress, nextTurn: timerTurn });
      } finally {
        control = null;
      }
    },
    // Slices run on this thread, so none is stepping while a click handler calls this.
    pause: () => { control?.pause(); return Promise.resolve(); },
    resume: () => control?.resume(),
    cancel: () => control?.cancel(),
    close() {},
  };
}

/**
 * @param {{workerUrl: URL|null, trainerBase: URL|string, loadTrainer: () => Promise<object>,
 *   concurrency?: number}} options
 *   workerUrl null: never try Workers (the single file). loadTrainer gives the page's own trainer.
 */
export function createRunner({ workerUrl, trainerBase, loadTrainer, concurrency }) {
  const state = { mode: null, reason: '', paused: false, cancelled: false, running: false };
  let slots = [];
  const waiters = [];  // lanes waiting for a pause to end
  const wakeAll = () => { while (waiters.length) waiters.pop()(); };

  async function openSlots(count) {
    if (workerUrl && typeof Worker === 'function') {
      try {
        const first = await startWorker(workerUrl, trainerBase);
        const rest = await Promise.allSettled(Array.from({ length: count - 1 }, () => startWorker(workerUrl, trainerBase)));
        state.mode = 'workers';
        return [first, ...rest.filter((r) => r.status === 'fulfilled').map((r) => r.value)].map(workerSlot);
      } catch (e) {
        state.reason = String(e?.message ?? e);
      }
    } else {
      state.reason = workerUrl ? 'this browser has no Web Workers' : 'Workers cannot start from this file';
    }
    state.mode = 'main';
    return [mainSlot(await loadTrainer())];
  }

  return {
    /** 'workers' | 'main' once run() has started its slots; reason: why not workers. */
    get mode() { return state.mode; },
    get reason() { return state.reason; },
    get paused() { return state.paused; },
    get running() { return state.running; },
    get workers() { return state.mode === 'workers' ? slots.length : 0; },

    /**
     * Runs every job ({ id, config }); callbacks onStart(job), onProgress(job, progress),
     * onResult(job, result), onError(job, message), onReady(mode) once the slots are open.
     * Resolves when every started job has ended; after cancel() the jobs not yet started are
     * left out.
     */
    async run(jobs, { onStart = () => {}, onProgress = () => {}, onResult = () => {}, onError = () => {}, onReady = () => {} } = {}) {
      state.running = true;
      state.cancelled = false;
      state.paused = false;
      const cores = Math.max(1, Math.min(concurrency ?? navigator.hardwareConcurrency ?? 2, MAX_WORKERS));
      slots = await openSlots(Math.min(cores, jobs.length));
      onReady(state.mode);
      const queue = [...jobs];
      const lane = async (slot) => {
        while (queue.length && !state.cancelled) {
          while (state.paused && !state.cancelled) await new Promise((resolve) => waiters.push(resolve));
          if (state.cancelled) break;
          const job = queue.shift();
          onStart(job);
          try {
            onResult(job, await slot.run(job, { onProgress: (p) => onProgress(job, p) }));
          } catch (e) {
            onError(job, String(e?.message ?? e));
          }
        }
      };
      try {
        await Promise.all(slots.map(lane));
      } finally {
        for (const slot of slots) slot.close();
        slots = [];
        state.running = false;
        state.paused = false;
      }
    },
    /** Resolves once no slot is stepping: every progress report from before the pause is in. */
    pause() {
      if (!state.running || state.paused) return Promise.resolve();
      state.paused = true;
      return Promise.all(slots.map((slot) => slot.pause())).then(() => {});
    },
    resume() {
      if (!state.paused) return;
      state.paused = false;
      for (const slot of slots) slot.resume();
      wakeAll();
    },
    cancel() {
      if (!state.running) return;
      state.cancelled = true;
      for (const slot of slots) slot.cancel();
      wakeAll();
    },
  };
}
