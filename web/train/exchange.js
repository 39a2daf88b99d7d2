// A run set as a JSON file, and back: export writes records.js's set with its typed arrays as
// plain number lists (a float32 survives the trip exactly: JSON keeps the double it widens to);
// import checks every field before anything is kept, and a file that is not JSON, or not a run
// set, or one with a field out of place is refused with an ImportError naming what is wrong.
import { TRAIN_FAMILIES, TRAIN_TASKS } from '../../wasm/train.js';
import { fitOf } from './fit.js';

export const FORMAT = 'posenc-train-runs';
export const VERSION = 1;
const MAX_BYTES = 64 * 1024 * 1024;
const MAX_RUNS = 64;
const STATUSES = ['done', 'cancelled', 'diverged'];

/** A refused import: `key` names the catalog message (train.import.<key>), `vars` fill it. */
export class ImportError extends Error {
  constructor(key, vars = {}) {
    super(`${key}: ${JSON.stringify(vars)}`);
    this.name = 'ImportError';
    this.key = key;
    this.vars = vars;
  }
}

const plain = (a) => (ArrayBuffer.isView(a) ? Array.from(a) : a);

/** The JSON text of one set. */
export function exportSet(set) {
  const { id, created, task, size, config, seeds, families } = set;
  const runs = set.runs.map((r) => ({
    family: r.family, seed: r.seed, status: r.status, divergence: r.divergence ?? '', steps: r.steps, seconds: r.seconds,
    loss: r.loss, exact: r.exact, accuracy: r.accuracy,
    log: r.log ? { loss: plain(r.log.loss), exact: plain(r.log.exact) } : null,
    parameters: r.parameters ? { tensors: r.parameters.tensors, values: plain(r.parameters.values) } : null,
  }));
  return JSON.stringify({ format: FORMAT, version: VERSION, exported: new Date().toISOString(),
    set: { id, source: 'yours', created, task, size, config, seeds, families, runs } });
}

// [CHECKS] --------------------------------------------------------------------------------------
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isInt = (v, lo = 0, hi = Number.MAX_SAFE_INTEGER) => Number.isInteger(v) && v >= lo && v <= hi;
const bad = (field) => { throw new ImportError('field', { field }); };

function want(ok, field) {
  if (!ok) bad(field);
}

function numbers(v, field, { lo = -Infinity, hi = Infinity } = {}) {
  want(Array.isArray(v) && v.every((x) => typeof x === 'number' && Number.isFinite(x) && x >= lo && x <= hi), field);
  return v;
}

function curve(v, field) {
  want(isObject(v), field);
  numbers(v.steps, `${field}.steps`, { lo: 0 });
  numbers(v.values, `${field}.values`);
  want(v.steps.length === v.values.length, `${field}.values`);
  return { steps: v.steps, values: v.values };
}

function parameters(v, field) {
  if (v === null || v === undefined) return undefined;
  want(isObject(v) && Array.isArray(v.tensors), `${field}.tensors`);
  const values = numbers(v.values, `${field}.values`);
  const tensors = v.tensors.map((t, k) => {
    const at = `${field}.tensors[${k}]`;
    want(isObject(t) && typeof t.name === 'string', `${at}.name`);
    want(isInt(t.rows, 1) && isInt(t.cols, 1) && isInt(t.offset) && t.offset + t.rows * t.cols <= values.length, `${at}.offset`);
    return { name: t.name, rows: t.rows, cols: t.cols, offset: t.offset, decay: Boolean(t.decay) };
  });
  return { tensors, values: Float32Array.from(values) };
}

// Every step's loss and exact share; JSON writes a diverged step's non-finite loss as null.
function log(v, field, steps) {
  if (v === null || v === undefined) return undefined;
  want(isObject(v), field);
  const series = (a, name) => {
    want(Array.isArray(a) && a.length === steps && a.every((x) => x === null || Number.isFinite(x)), `${field}.${name}`);
    return Float32Array.from(a, (x) => x ?? NaN);
  };
  return { loss: series(v.loss, 'loss'), exact: series(v.exact, 'exact') };
}

function config(v) {
  want(isObject(v), 'set.config');
  want(Array.isArray(v.trainLengths) && v.trainLengths.length > 0 && v.trainLengths.every((n) => isInt(n, 1, 256)), 'set.config.trainLengths');
  want(Array.isArray(v.testLengths) && v.testLengths.length > 0 && v.testLengths.every((n) => isInt(n, 1, 1024)), 'set.config.testLengths');
  for (const key of ['symbols', 'dModel', 'layers', 'heads', 'mlp', 'steps', 'batch', 'testExamples']) {
    want(isInt(v[key], 1), `set.config.${key}`);
  }
  return v;
}

function run(v, k, set) {
  const at = `set.runs[${k}]`;
  want(isObject(v), at);
  want(set.families.includes(v.family), `${at}.family`);
  want(isInt(v.seed, 0, 4294967295), `${at}.seed`);
  want(STATUSES.includes(v.status), `${at}.status`);
  want(isInt(v.steps, 0, set.config.steps), `${at}.steps`);
  want(typeof v.seconds === 'number' && v.seconds >= 0, `${at}.seconds`);
  want(Array.isArray(v.accuracy) && v.accuracy.length > 0, `${at}.accuracy`);
  const accuracy = v.accuracy.map((a, j) => {
    const where = `${at}.accuracy[${j}]`;
    want(isObject(a) && set.config.testLengths.includes(a.length), `${where}.length`);
    for (const m of ['exact', 'tokens']) want(typeof a[m] === 'number' && a[m] >= 0 && a[m] <= 1, `${where}.${m}`);
    return { length: a.length, exact: a.exact, tokens: a.tokens };
  });
  return {
    family: v.family, seed: v.seed, status: v.status, divergence: typeof v.divergence === 'string' ? v.divergence : '',
    steps: v.steps, seconds: v.seconds, loss: curve(v.loss, `${at}.loss`), exact: curve(v.exact, `${at}.exact`),
    // Worked out from the accuracy, never taken from the file.
    accuracy, fit: fitOf(accuracy, set.config.trainLengths),
    log: log(v.log, `${at}.log`, v.steps), parameters: parameters(v.parameters, `${at}.parameters`),
  };
}

/** The set in a file's text, checked; throws ImportError. */
export function importSet(text) {
  if (typeof text !== 'string' || text.length > MAX_BYTES) throw new ImportError('size', { max: MAX_BYTES / 1024 / 1024 });
  let doc;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new ImportError('json', { message: e.message });
  }
  if (!isObject(doc) || doc.format !== FORMAT) throw new ImportError('format');
  if (doc.version !== VERSION) throw new ImportError('version', { version: String(doc.version), supported: VERSION });
  const s = doc.set;
  want(isObject(s), 'set');
  want(TRAIN_TASKS.includes(s.task), 'set.task');
  want(Array.isArray(s.families) && s.families.length > 0 && s.families.every((f) => TRAIN_FAMILIES.includes(f)), 'set.families');
  want(Array.isArray(s.seeds) && s.seeds.every((x) => isInt(x, 0, 4294967295)), 'set.seeds');
  want(typeof s.created === 'string' && !Number.isNaN(Date.parse(s.created)), 'set.created');
  want(s.size === null || s.size === undefined || ['tiny', 'small'].includes(s.size), 'set.size');
  const set = { id: typeof s.id === 'string' ? s.id : '', source: 'yours', created: s.created, task: s.task, size: s.size ?? null,
    config: config(s.config), seeds: s.seeds, families: s.families };
  want(set.config.task === undefined || set.config.task === set.task, 'set.config.task');
  want(Array.isArray(s.runs) && s.runs.length > 0 && s.runs.length <= MAX_RUNS, 'set.runs');
  set.runs = s.runs.map((r, k) => run(r, k, set));
  return set;
}
