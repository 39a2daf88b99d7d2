// What a run set shows, summarised over its seeds: per family and test length the mean and the
// min–max of the accuracy (exact match or per token), the mean loss curve, the table at 1×,
// 1.5×, 2× and 4× the longest training length, and which families clear a threshold there.
// Plain arithmetic over the set's records (records.js); no family is treated differently.
//
// A run that did not fit (fit.js: below 95 % exact match at some training length) did not learn
// the task, so its score past the training lengths says nothing about generalising it: a family's
// numbers are over its runs that fit, and a family none of whose runs fit is shown over all its
// runs, marked as not having learned the task and left out of every verdict past the training
// lengths. A verdict holds only when it holds in most of the family's seeds.

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

/** The runs a family's numbers are over: those that fit, or all of them when none did. */
export function countedRuns(set, family) {
  return memo(set, `counted|${family}`, () => {
    const runs = set.runs.filter((r) => r.family === family);
    const fit = runs.filter((r) => r.fit);
    return fit.length ? fit : runs;
  });
}

/** How many of a family's runs fit its task: { fit, of }. */
export function fitCount(set, family) {
  const runs = set.runs.filter((r) => r.family === family);
  return { fit: runs.filter((r) => r.fit).length, of: runs.length };
}

/** Whether at least one of a family's runs learned the task (fit at every training length). */
export const learned = (set, family) => fitCount(set, family).fit > 0;

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
  const runs = countedRuns(set, family);
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
  const values = countedRuns(set, family)
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

/**
 * The verdict on each family at `multiple` × the longest training length: 'high' when in most of
 * its seeds (more than half of all its runs) a run that fit scores at least `high`, 'low' when in
 * most of them a run that fit scores below `low`, 'mid' otherwise (the seeds disagree, or sit in
 * between). Past the training lengths a family none of whose runs fit is in `unlearned` instead.
 */
export function verdicts(set, multiple, { metric = 'exact', high = 0.9, low = 0.1 } = {}) {
  const length = lengthAt(set.config, multiple);
  const out = { length, high: [], mid: [], low: [], unlearned: [] };
  for (const family of familiesWithRuns(set)) {
    if (multiple > 1 && !learned(set, family)) {
      out.unlearned.push(family);
      continue;
    }
    const runs = set.runs.filter((r) => r.family === family);
    const scores = runs.map((r) => ({ fit: r.fit || multiple <= 1, v: r.accuracy.find((a) => a.length === length)?.[metric] }))
      .filter((x) => x.v !== undefined);
    if (!scores.length) continue;
    const most = (ok) => 2 * scores.filter((x) => x.fit && ok(x.v)).length > runs.length;
    out[most((v) => v >= high) ? 'high' : most((v) => v < low) ? 'low' : 'mid'].push(family);
  }
  return out;
}

/** The learned family with the highest mean at `multiple` (the first in the set's order on a tie). */
export function best(set, multiple, metric = 'exact') {
  const length = lengthAt(set.config, multiple);
  let top = null;
  for (const family of familiesWithRuns(set)) {
    if (multiple > 1 && !learned(set, family)) continue;
    const a = accuracyAt(set, family, length, metric);
    if (a && (top === null || a.mean > top.mean)) top = { family, length, ...a };
  }
  return top;
}

/** The widest min–max spread over seeds at `multiple` among learned families, or null with one seed per family. */
export function widestSpread(set, multiple, metric = 'exact') {
  const length = lengthAt(set.config, multiple);
  let top = null;
  for (const family of familiesWithRuns(set)) {
    if (multiple > 1 && !learned(set, family)) continue;
    const a = accuracyAt(set, family, length, metric);
    if (a && a.n > 1 && (top === null || a.max - a.min > top.max - top.min)) top = { family, length, ...a };
  }
  return top;
}

/**
 * What a fix did to each family at `multiple` × the longest training length, seed by seed against
 * the plain run of the same seed: a seed moved up when both runs fit and the fix scores at least
 * `by` more; down when both fit and it scores at least `by` less; a fixed run that did not fit is
 * neither (it did not learn the task: `unfit` counts those).
 * { length, up: [{ family, from, to, seeds }], down: [...], unfit: [families whose fixed runs
 * mostly did not fit] }, each move only when it holds in most seeds; from/to are the means over
 * the seeds that moved.
 */
export function fixEffects(plain, fixed, multiple, { metric = 'exact', by = 0.2 } = {}) {
  const length = lengthAt(plain.config, multiple);
  const out = { length, up: [], down: [], unfit: [] };
  const score = (r) => r?.accuracy.find((a) => a.length === length)?.[metric];
  for (const family of familiesWithRuns(plain)) {
    const runs = plain.runs.filter((r) => r.family === family);
    const pairs = runs.map((p) => ({ p, f: fixed.runs.find((r) => r.family === family && r.seed === p.seed) })).filter((x) => x.f);
    if (!pairs.length) continue;
    const most = (list) => 2 * list.length > runs.length;
    const up = pairs.filter(({ p, f }) => p.fit && f.fit && score(f) - score(p) >= by);
    const down = pairs.filter(({ p, f }) => p.fit && f.fit && score(p) - score(f) >= by);
    const mean = (list, pick) => list.reduce((s, x) => s + (score(pick(x)) ?? 0), 0) / list.length;
    if (most(up)) out.up.push({ family, from: mean(up, (x) => x.p), to: mean(up, (x) => x.f), seeds: up.length, of: runs.length });
    else if (most(down)) out.down.push({ family, from: mean(down, (x) => x.p), to: mean(down, (x) => x.f), seeds: down.length, of: runs.length });
    if (most(pairs.filter(({ f }) => !f.fit))) out.unfit.push(family);
  }
  return out;
}
