// One shape for every run set the step shows, the reference run's and the reader's alike:
//
//   set  { id, source: 'reference' | 'yours', created (ISO date), task, size ('tiny' | 'small' |
//          null), config (the resolved config every run of the set shares, without family and
//          seed), seeds (the seeds asked for), families, runs, provenance? (reference only) }
//   run  { family, seed, status ('done' | 'cancelled' | 'diverged'), divergence, steps, seconds,
//          loss: { steps, values }, exact: { steps, values } (the batch loss and exact-match
//          curves, at most 200 points), accuracy: [{ length, exact, tokens }] (shares of the
//          test set), fit (exact match >= 95 % at every training length: fit.js), and for the
//          reader's runs log?: { loss, exact } (Float32Array, every step) and parameters?:
//          { tensors, values: Float32Array } }
// A run's own config is the set's with its family and seed.
//
// A trained model's pieces come out of its parameters by tensor name (core/train/model.hpp).
import { windowedCurve } from './curve.js';
import { fitOf } from './fit.js';

/** The run record of a trainer result (wasm/train.js train(), or the worker's copy of it). */
export function recordOf(result) {
  const { config } = result;
  return {
    family: config.family,
    seed: config.seed,
    status: result.status,
    divergence: result.divergence ?? '',
    steps: result.steps,
    seconds: result.seconds,
    loss: windowedCurve(result.log.loss),
    exact: windowedCurve(result.log.exact),
    accuracy: result.accuracy.map((a) => ({ length: a.length, exact: a.exact, tokens: a.tokens })),
    fit: fitOf(result.accuracy, config.trainLengths),
    log: { loss: result.log.loss, exact: result.log.exact },
    parameters: result.parameters,
  };
}

/** The config a set's runs share: the resolved config without family and seed. */
export function sharedConfig(config) {
  const { family, seed, ...rest } = config;
  return rest;
}

/** One tensor of a run's parameters as { rows, cols, values: Float32Array }, or null. */
export function tensorOf(parameters, name) {
  const t = parameters?.tensors.find((x) => x.name === name);
  if (!t) return null;
  return { rows: t.rows, cols: t.cols, values: parameters.values.subarray(t.offset, t.offset + t.rows * t.cols) };
}

/** The run of a family a set's figures of one model use: the lowest seed's. */
export function firstRun(set, family) {
  return set.runs.filter((r) => r.family === family).sort((a, b) => a.seed - b.seed)[0] ?? null;
}
