// The reference run (web/data/train-reference.json, written by `npm run experiment`; its header
// in web/tools/experiment.mjs describes the file) as run sets of records.js's shape, one per
// task, and the trained pieces it keeps for seed 0: the learned table, the T5 biases and the
// attention maps of one test example at the longest training length and at twice it.

/** The task whose reference run the learned and relative-bias steps show as "trained" (and the
 * train step opens on). */
export const DEFAULT_TASK = 'repeat';  // the trainer's default task (tests/js/train-reference.test.js)

/** Bytes 0..255 (base64) back to probabilities. */
export function decodeAttention(base64) {
  const text = atob(base64);
  const out = new Float32Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) / 255;
  return out;
}

/** The tasks the file holds, in its order. */
export const referenceTasks = (data) => Object.keys(data.tasks);

/** The run set of one task, or null when the file has no such task. */
export function referenceSet(data, task) {
  const entry = data.tasks[task];
  if (!entry) return null;
  const { family, seed, ...config } = entry.config;
  const examples = config.testExamples;
  return {
    id: `reference-${task}`,
    source: 'reference',
    created: data.provenance.date,
    task,
    size: null,
    config,
    seeds: data.seeds,
    families: data.families,
    provenance: data.provenance,
    runs: entry.runs.map((r) => ({
      family: r.family, seed: r.seed, status: r.status, divergence: '', steps: r.steps, seconds: r.seconds,
      loss: r.loss, exact: r.exact,
      // The file keeps exact matches as counts of the test set.
      accuracy: r.accuracy.map((a) => ({ length: a.length, exact: a.exact / examples, tokens: a.tokens })),
    })),
  };
}

/**
 * The trained pieces of one family (seed 0) of one task: { seed, table, bias, inspections }, each
 * table { rows, cols, values: Float32Array }, each inspection { length, tokens, answerStart,
 * predicted, rows, attention: Float32Array (layers × heads × rows × rows) }; null when missing.
 */
export function referenceTrained(data, task, family) {
  const t = data.tasks[task]?.trained?.[family];
  if (!t) return null;
  const tensor = (x) => (x ? { rows: x.rows, cols: x.cols, values: Float32Array.from(x.values) } : null);
  return {
    seed: 0,
    table: tensor(t.table),
    bias: tensor(t.bias),
    inspections: t.inspections.map((x) => ({ ...x, attention: decodeAttention(x.attention) })),
  };
}
