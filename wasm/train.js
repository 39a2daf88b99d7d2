// The trainer's JS API: `loadTrainer()` loads the trainer module (posenc-train-simd or -scalar)
// and returns functions that throw RangeError/TypeError on bad input (types: posenc.d.ts).
//
//   const tr = await loadTrainer();
//   const result = await tr.train({ task: 'repeat', family: 'rope' }, { onProgress, signal });
//
// train() runs in slices on the calling thread and yields between them, so a page stays
// responsive (the explainer runs it inside Web Workers); createRun() gives the run itself, for
// callers that drive the slices (pause, resume) themselves.

import { FAMILY_REGISTRY } from './families.gen.js';
import { loadModule } from './loader.js';

/** Every field of a training config, in the order the API documents them. */
export const TRAIN_FIELDS = [
  'task', 'family', 'trainLengths', 'testLengths', 'symbols', 'dModel', 'layers', 'heads', 'mlp',
  'steps', 'batch', 'learningRate', 'warmup', 'weightDecay', 'clip', 'seed', 'testExamples', 'base',
  't5Buckets', 't5MaxDistance', 'offset', 'nopeEvery', 'randomPositions', 'scalableSoftmax',
];
/**
 * The position families, in the registry's order (core/families/registry.hpp, through
 * wasm/families.gen.js), and the tasks, for code that needs them before the module loads; a
 * loaded trainer's `families` and `tasks` come from the module itself (tests/js/train-api.test.js
 * checks that the two agree).
 */
export const TRAIN_FAMILIES = FAMILY_REGISTRY.map((f) => f.name);
export const TRAIN_TASKS = ['copy', 'reverse', 'repeat', 'retrieval', 'offset'];
/**
 * The families familyAttention and the Lab draw (one head with stand-in weights): the registry's
 * first ones. The others (a mix of layers, a bias of trained weights only) only train.
 */
export const ATTENTION_FAMILIES = FAMILY_REGISTRY.filter((f) => f.figure).map((f) => f.name);

const MAX_LENGTHS = 256;

// A copy of the config that runs no caller code inside wasm: own enumerable keys only, arrays
// copied element by element here (a getter or a Proxy trap runs now, in JS, where its throw is
// harmless). Values keep their kind, so the bindings can reject a string where a number belongs.
function snapshotConfig(config) {
  if (config === null || typeof config !== 'object' || Array.isArray(config)) {
    throw new TypeError('config must be an object of training fields');
  }
  const copy = {};
  for (const key of Object.keys(config)) {
    const value = config[key];
    if (Array.isArray(value) || ArrayBuffer.isView(value)) {
      const length = value.length;
      if (!(length <= MAX_LENGTHS)) {
        throw new RangeError(`config.${key}.length must be at most ${MAX_LENGTHS}, got ${length}`);
      }
      copy[key] = Array.from({ length }, (_, i) => (typeof value[i] === 'bigint' ? String(value[i]) : value[i]));
    } else {
      copy[key] = typeof value === 'bigint' ? String(value) : value;
    }
  }
  return copy;
}

// An array argument copied here (a getter, a Proxy trap or a typed-array subclass's override runs
// in JS, not inside wasm); anything else goes on as it is, for the binding to reject by its kind.
const copyArray = (v) => {
  if (Array.isArray(v)) return Array.from(v);
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) return Float32Array.from(v);
  return v;
};

function unwrap(result) {
  if (result instanceof Error) throw result;
  return result;
}

// Yields to the event loop so a page can paint and take input between slices.
const nextTurn = typeof setImmediate === 'function'
  ? () => new Promise((resolve) => setImmediate(resolve))
  : () => new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(0);
  });

const now = () => (typeof performance === 'object' ? performance.now() : Date.now());

/**
 * Loads the trainer. Options as loadPosenc's: `simd` ('auto' | true | false), `baseUrl` (the
 * folder holding posenc-train-*.mjs/.wasm, default ./dist/ beside this file), `modules`
 * ({ simd: { factory, wasmBinary }, scalar: {...} } already in memory).
 */
export async function loadTrainer(options = {}) {
  const { module: m, simd } = await loadModule('posenc-train', new URL('./dist/', import.meta.url), options);

  /** A run: configure once, then step it in slices; dispose() frees its memory. */
  function createRun(config) {
    const safe = snapshotConfig(config);
    const native = new m.TrainRun();
    const failed = native.configure(safe);
    if (failed instanceof Error) {
      native.delete();
      throw failed;
    }
    let disposed = false;
    const live = () => {
      if (disposed) throw new TypeError('the run was disposed');
      return native;
    };
    const run = {
      /** { steps, finished, diverged, divergence, config, parameterCount, vocab, maxPositions } */
      status: () => unwrap(live().status()),
      /** Takes up to `count` steps; returns how many were taken. */
      step: (count = 1) => unwrap(live().run(count)),
      /** Loss, exact-match share, gradient norm and learning rate of every step from `from` on. */
      log: (from = 0) => unwrap(live().log(from)),
      /** Accuracy at every test length, or at one. */
      evaluate: (length) => unwrap(live().evaluate(length)),
      /** Test example `index` of `length` through the model: tokens, predictions, attention. */
      inspect: (length, index = 0) => unwrap(live().inspect(length, index)),
      /** { tensors: [{ name, rows, cols, offset, decay }], values: Float32Array } */
      parameters: () => unwrap(live().parameters()),
      /** Replaces the parameters (a saved run's), e.g. to inspect it. */
      setParameters: (values) => unwrap(live().setParameters(copyArray(values))),
      dispose: () => {
        if (!disposed) native.delete();
        disposed = true;
      },
    };
    return Object.freeze(run);
  }

  /**
   * Trains one run to the end (or until `signal` aborts, or the loss diverges) and returns
   * { config, status: 'done'|'cancelled'|'diverged', divergence, steps, log, accuracy,
   * parameters, seconds }. Whatever ends it, the result holds everything done so far, scored on
   * the test set. onProgress({ steps, total, loss, exact, stepsPerSecond, secondsLeft }) after
   * each slice of about sliceMs milliseconds.
   */
  async function train(config, { onProgress, signal, sliceMs = 40 } = {}) {
    if (onProgress !== undefined && typeof onProgress !== 'function') {
      throw new TypeError('onProgress must be a function');
    }
    if (!(Number.isFinite(sliceMs) && sliceMs >= 1 && sliceMs <= 10000)) {
      throw new RangeError(`sliceMs must be a number in [1, 10000], got ${sliceMs}`);
    }
    const run = createRun(config);
    try {
      const start = now();
      const total = run.status().config.steps;
      let cancelled = false;
      for (;;) {
        if (signal?.aborted) {
          cancelled = true;
          break;
        }
        const sliceStart = now();
        let taken = 0;
        do taken += run.step(1);
        while (!run.status().finished && now() - sliceStart < sliceMs);
        const status = run.status();
        if (onProgress) {
          const seconds = (now() - start) / 1000;
          const last = run.log(Math.max(0, status.steps - 1));
          onProgress({
            steps: status.steps, total, loss: last.loss[0], exact: last.exact[0],
            stepsPerSecond: status.steps / seconds,
            secondsLeft: status.finished ? 0 : (total - status.steps) * seconds / status.steps,
          });
        }
        if (status.finished || taken === 0) break;
        await nextTurn();
      }
      const status = run.status();
      return {
        config: status.config,
        status: status.diverged ? 'diverged' : cancelled ? 'cancelled' : 'done',
        divergence: status.divergence,
        steps: status.steps,
        log: run.log(0),
        accuracy: run.evaluate(),
        parameters: run.parameters(),
        seconds: (now() - start) / 1000,
      };
    } finally {
      run.dispose();
    }
  }

  return Object.freeze({
    simd,
    /** The registry's families and the tasks, as the module has them. */
    families: Object.freeze(m.trainFamilies()),
    tasks: Object.freeze(m.trainTasks()),
    /** Every field of a preset ('tiny', 'small'). */
    preset: (name) => unwrap(m.trainPreset(name)),
    /** The config a run would use: every field, defaults filled in, test lengths resolved. */
    config: (config) => unwrap(m.trainConfig(snapshotConfig(config))),
    /** `count` test examples of one length: { tokens: Int32Array, answerStart }. */
    examples: (config, length, count = 1) => unwrap(m.trainExamples(snapshotConfig(config), length, count)),
    /**
     * How the task's token ids are laid out: { symbols, pairs, values, bos, sep, eos, size }.
     * Ids below `symbols` are symbols (retrieval: keys); retrieval's pair token of key k and value
     * v is symbols + k·values + v, its value token v is symbols + pairs + v.
     */
    vocabulary: (config) => unwrap(m.trainVocabulary(snapshotConfig(config))),
    /** Cosine similarity of the rows and their first two principal components. */
    analyseTable: (table, rows, cols) => unwrap(m.analyseTable(copyArray(table), rows, cols)),
    createRun,
    train,
  });
}
