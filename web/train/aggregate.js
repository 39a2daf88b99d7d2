// What a run set shows, summarised over its seeds: per family and test length the mean and the
// min–max of the accuracy (exact match or per token), the mean loss curve, the table at 1×,
// 1.5×, 2× and 4× the longest training length, and which families clear a threshold there.
// Plain arithmetic over the set's records (records.js); no family is treated differently.

export const MULTIPLES = [1, 1.5, 2, 4];
export const METRICS = ['exact', 'tokens'];

export const longestTraining = (config) => Math.max(...config.trainLengths);

/** The test length that stands for `multiple` × the longest training length: that length if it
 * was tested, else the nearest tested one (the lower on a tie). */
export function lengthAt(config, multiple) {
  const want = multiple * longestTraining(config);
  let best = null;
  for (const n of config.testLengths) {
    if (best === null || Math.abs(n - want) < Math.abs(best - want)) best = n;
  }
  return best;
}

function spread(values) {
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    sum += v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return { mean: sum / values.length, min, max, n: values.length };
}

// Every aggregate of a set is worked out once and kept until the set's runs change (a set only
// gains runs, while it trains): the step asks for the same ones on every render, and a reader
// going back and forth between tasks or metrics should not pay for them again. Callers only
// read what these functions return.
const kept = new WeakMap();  // set → { runs, count, values: Map(key → value) }

function memo(set, key, compute) {
  let k = kept.get(set);
  if (!k || k.runs !== set.runs || k.count !== set.runs.length) {
    k = { runs: set.runs, count: set.runs.length, values: new Map() };
    kept.set(set, k);
  }
  if (!k.values.has(key)) k.values.set(key, compute());
  return k.values.get(key);
}

/** The families of a set that have at least one run, in the set's order. */
export function familiesWithRuns(set) {
  return memo(set, 'families', () => set.families.filter((f) => set.runs.some((r) => r.family === f)));
}

/**
 * Accuracy of one family against test length over its seeds: { lengths, mean, min, max, seeds }
 * (arrays over the lengths every run of the family was scored at), or null without runs.
 */
export function accuracyByLength(set, family, metric = 'exact') {
  return memo(set, `byLength|${family}|${metric}`, () => byLength(set, family, metric));
}

function byLength(set, family, metric) {
  const runs = set.runs.filter((r) => r.family === family);
  if (!runs.length) return null;
  // Each run's scores by length (the first score of a length, as find() would take it).
  const scores = runs.map((r) => {
    const at = new Map();
    for (const a of r.accuracy) if (!at.has(a.length)) at.set(a.length, a);
    return at;
  });
  const lengths = runs[0].accuracy.map((a) => a.length).filter((n) => scores.every((at) => at.has(n)));
  const out = { lengths, mean: [], min: [], max: [], seeds: runs.map((r) => r.seed) };
  for (const n of lengths) {
    const s = spread(scores.map((at) => at.get(n)[metric]));
    out.mean.push(s.mean);
    out.min.push(s.min);
    out.max.push(s.max);
  }
  return out;
}

/** One family's accuracy at one length: { mean, min, max, n }, or null. */
export function accuracyAt(set, family, length, metric = 'exact') {
  return memo(set, `at|${family}|${length}|${metric}`, () => at(set, family, length, metric));
}

function at(set, family, length, metric) {
  const values = set.runs.filter((r) => r.family === family)
    .map((r) => r.accuracy.find((a) => a.length === length)?.[metric])
    .filter((v) => v !== undefined);
  return values.length ? spread(values) : null;
}

/** The mean loss curve of a family over its seeds, on the points all of them have. */
export function meanLoss(set, family) {
  return memo(set, `loss|${family}`, () => lossOf(set, family));
}

function lossOf(set, family) {
  const runs = set.runs.filter((r) => r.family === family);
  if (!runs.length) return null;
  const points = Math.min(...runs.map((r) => r.loss.steps.length));
  const steps = runs[0].loss.steps.slice(0, points);
  const mean = steps.map((_, i) => runs.reduce((acc, r) => acc + r.loss.values[i], 0) / runs.length);
  return { steps, mean };
}

/** The table: a row per family with runs, a cell per multiple ({ multiple, length, ...spread }). */
export function accuracyTable(set, metric = 'exact') {
  return familiesWithRuns(set).map((family) => ({
    family,
    cells: MULTIPLES.map((multiple) => {
      const length = lengthAt(set.config, multiple);
      return { multiple, length, ...accuracyAt(set, family, length, metric) };
    }),
  }));
}

/** The families at or above `high`, below `low` and in between, by mean accuracy at `multiple`. */
export function verdicts(set, multiple, { metric = 'exact', high = 0.9, low = 0.1 } = {}) {
  const length = lengthAt(set.config, multiple);
  const out = { length, high: [], mid: [], low: [] };
  for (const family of familiesWithRuns(set)) {
    const a = accuracyAt(set, family, length, metric);
    if (!a) continue;
    out[a.mean >= high ? 'high' : a.mean < low ? 'low' : 'mid'].push(family);
  }
  return out;
}

/** The family with the highest mean at `multiple` (the first in the set's order on a tie). */
export function best(set, multiple, metric = 'exact') {
  const length = lengthAt(set.config, multiple);
  let top = null;
  for (const family of familiesWithRuns(set)) {
    const a = accuracyAt(set, family, length, metric);
    if (a && (top === null || a.mean > top.mean)) top = { family, length, ...a };
  }
  return top;
}

/** The widest min–max spread over seeds at `multiple`, or null with one seed per family. */
export function widestSpread(set, multiple, metric = 'exact') {
  const length = lengthAt(set.config, multiple);
  let top = null;
  for (const family of familiesWithRuns(set)) {
    const a = accuracyAt(set, family, length, metric);
    if (a && a.n > 1 && (top === null || a.max - a.min > top.max - top.min)) top = { family, length, ...a };
  }
  return top;
}
