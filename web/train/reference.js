// The reference run (web/data/train-reference.json, written by `npm run experiment`; its header
// in web/tools/experiment.mjs describes the file) as run sets of records.js's shape, one per
// task, and the trained pieces it keeps for seed 0: the learned table, the T5 biases and the
// attention maps of one test example at the longest training length and at twice it.
import { fitOf } from './fit.js';

/** The task whose reference run the learned and relative-bias steps show as "trained" (and the
 * train step opens on). */
export const DEFAULT_TASK = 'repeat';  // the trainer's default task (tests/js/train-reference.test.js)
/**
 * The task whose trained pieces the learned and relative-bias steps show: the trainer's default
 * task when the reference run reached it, else the first task the file holds.
 */
export const trainedTask = (data) => (data.tasks[DEFAULT_TASK] ? DEFAULT_TASK : Object.keys(data.tasks)[0]);
/** The task the train step opens on: the one whose rule is an offset, where families differ most. */
export const OPENING_TASK = 'offset';

/** Bytes 0..255 (base64) back to probabilities. */
export function decodeAttention(base64) {
  const text = atob(base64);
  const out = new Float32Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) / 255;
  return out;
}

/** The tasks the file holds, in its order. */
export const referenceTasks = (data) => Object.keys(data.tasks);

// Each task's set is made once per file and kept: the step asks for it on every render, and the
// same object each time lets the figures see that nothing changed (and keep their aggregates).
const sets = new WeakMap();  // file → Map(task → set)

/** The run set of one task, or null when the file has no such task. The same object for the same file and task. */
export function referenceSet(data, task) {
  if (!sets.has(data)) sets.set(data, new Map());
  const kept = sets.get(data);
  if (!kept.has(task)) kept.set(task, makeSet(data, task));
  return kept.get(task);
}

function makeSet(data, task) {
  const entry = data.tasks[task];
  if (!entry) return null;
  const { family, seed, ...config } = entry.config;
  const examples = config.testExamples;
  const made = (id, fields, runs) => ({
    id, source: 'reference', created: provenanceOf(data, task).date, task, size: null,
    config: { ...config, ...fields }, seeds: data.seeds, families: data.families, provenance: provenanceOf(data, task), runs,
  });
  const set = made(`reference-${task}`, {}, entry.runs.map((r) => {
    // The file keeps exact matches as counts of the test set.
    const accuracy = r.accuracy.map((a) => ({ length: a.length, exact: a.exact / examples, tokens: a.tokens }));
    return {
      family: r.family, seed: r.seed, status: r.status, divergence: '', steps: r.steps, seconds: r.seconds,
      loss: r.loss, exact: r.exact, accuracy, fit: fitOf(accuracy, config.trainLengths),
    };
  }));
  // Each fix's runs as a set of the same shape (no curves: the file keeps their accuracy only).
  set.fixes = {};
  for (const [fix, fixed] of Object.entries(entry.fixes ?? {})) {
    set.fixes[fix] = made(`reference-${task}-${fix}`, fixed.fields, fixed.runs.map((r) => {
      const accuracy = config.testLengths.map((length, i) => ({ length, exact: r.exact[i] / examples, tokens: r.tokens[i] }));
      return {
        family: r.family, seed: r.seed, status: r.status, divergence: '', steps: r.steps, seconds: r.seconds,
        loss: { steps: [], values: [] }, exact: { steps: [], values: [] }, accuracy, fit: fitOf(accuracy, config.trainLengths),
      };
    }));
    set.fixes[fix].fix = fix;
  }
  return set;
}

/**
 * Where one task's reference runs come from: { command, commit, date, wallSeconds, runSeconds,
 * jobs, cpu, fixes, invocations } (the file records each invocation that trained some of the
 * task's fixes: `invocations` lists them all, { command, commit, date, fixes }, the plain runs'
 * first; command, commit and date are that first one's).
 */
export function provenanceOf(data, task) {
  const p = data.provenance;
  const t = p.tasks?.[task];
  if (!t) return p;  // a file of the older format: one run for everything
  const first = t.runs.find((r) => r.fixes.includes('plain')) ?? t.runs[0];
  const invocations = [first, ...t.runs.filter((r) => r !== first)]
    .map(({ command, commit, date, fixes }) => ({ command, commit, date, fixes }));
  return {
    command: first.command, commit: first.commit, date: first.date, wallSeconds: t.wallSeconds, runSeconds: t.runSeconds,
    jobs: p.jobs, cpu: p.cpu, fixes: t.runs.flatMap((r) => r.fixes), invocations,
  };
}

/** The tasks the trainer offers that the file does not hold, and why: { task: 'dropped'|'not reached' }. */
export const missingTasks = (data) => data.provenance.missing ?? {};

/**
 * The trained pieces of one family (seed 0) of one task: { seed, table, bias, fire, inspections }, each
 * table { rows, cols, values: Float32Array }, each inspection { length, tokens, answerStart,
 * predicted, rows, attention: Float32Array (layers × heads × rows × rows) }; null when missing.
 * The same object for the same file, task and family (callers only read it); each piece is
 * decoded the first time it is read, so asking for the table does not decode the attention maps.
 */
export function referenceTrained(data, task, family) {
  if (!trained.has(data)) trained.set(data, new Map());
  const kept = trained.get(data);
  const key = `${task}|${family}`;
  if (!kept.has(key)) kept.set(key, trainedOf(data, task, family));
  return kept.get(key);
}

const trained = new WeakMap();  // file → Map(task|family → trained pieces)

function trainedOf(data, task, family) {
  const t = data.tasks[task]?.trained?.[family];
  if (!t) return null;
  const tensor = (x) => (x ? { rows: x.rows, cols: x.cols, values: Float32Array.from(x.values) } : null);
  const pieces = { seed: 0 };
  lazy(pieces, 'table', () => tensor(t.table));
  lazy(pieces, 'bias', () => tensor(t.bias));
  // FIRE's per-layer tensors ({ 'mlp.in.weight': tensor, ... } by name), or null.
  lazy(pieces, 'fire', () => t.fire?.map((layer) => Object.fromEntries(Object.entries(layer).map(([k, v]) => [k, tensor(v)]))) ?? null);
  lazy(pieces, 'inspections', () => t.inspections.map((x) => lazy({ ...x }, 'attention', () => decodeAttention(x.attention))));
  return pieces;
}

/** Gives `object` a property `name` worked out by `decode` the first time it is read, then kept. */
function lazy(object, name, decode) {
  return Object.defineProperty(object, name, {
    enumerable: true,
    configurable: true,
    get() {
      const value = decode();
      Object.defineProperty(object, name, { value, enumerable: true, writable: true });
      return value;
    },
  });
}
