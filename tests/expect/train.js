// Step 15, train short, test long (the reference run): what the page must show, computed here from the formulas.
// Used by tests/browser/train.test.js (Chromium) and the cross-engine suite (tests/engines/).
import { readFileSync } from 'node:fs';

import { TRAIN_FAMILIES } from '../../wasm/train.js';

export const DATA = JSON.parse(readFileSync(new URL('../../web/data/train-reference.json', import.meta.url), 'utf8'));
export const FAMILIES = TRAIN_FAMILIES;
// The families' English names, as the catalog gives them (families.<name>).
const WORDS = JSON.parse(readFileSync(new URL('../../web/i18n/en/families.json', import.meta.url), 'utf8'));
export const NAMES = Object.fromEntries(FAMILIES.map((f) => [f, WORDS[`families.${f}`]]));

export const fmt = (digits) => new Intl.NumberFormat('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/**
 * Which runs of a list of { family, seed, length, exact, tokens } rows fit their task: exact match
 * at least 95 % at every training length of `config`. Map 'family|seed' → boolean.
 */
export function fitOfRows(rows, config) {
  const fit = new Map();
  for (const r of rows) {
    const key = `${r.family}|${r.seed}`;
    if (!fit.has(key)) fit.set(key, true);
    if (config.trainLengths.includes(r.length) && !(r.exact >= 0.95)) fit.set(key, false);
  }
  return fit;
}

/** The families with at least one run that fit. */
export function learnedFamilies(rows, config) {
  const fit = fitOfRows(rows, config);
  return [...new Set(rows.map((r) => r.family))].filter((f) => [...fit].some(([k, v]) => v && k.startsWith(`${f}|`)));
}

// Per family and test length: mean, min and max over the family's seeds that fit (over all its
// seeds when none did), of a list of rows (shares of the test set).
export function aggregate(rows, config, metric = 'exact') {
  const fit = fitOfRows(rows, config);
  const learned = learnedFamilies(rows, config);
  const out = new Map();
  for (const r of rows) {
    if (learned.includes(r.family) && !fit.get(`${r.family}|${r.seed}`)) continue;
    const key = `${r.family}|${r.length}`;
    if (!out.has(key)) out.set(key, []);
    out.get(key).push(r[metric]);
  }
  return (family, length) => {
    const v = out.get(`${family}|${length}`);
    return v && { mean: v.reduce((a, x) => a + x, 0) / v.length, min: Math.min(...v), max: Math.max(...v), n: v.length };
  };
}

/**
 * The families at or above 90 % at `length` in most seeds (more than half of all a family's
 * seeds, counting only seeds that fit); past the training lengths only families that learned.
 */
export function highInMostSeeds(rows, config, length) {
  const fit = fitOfRows(rows, config);
  const past = length > Math.max(...config.trainLengths);
  const learned = learnedFamilies(rows, config);
  return [...new Set(rows.map((r) => r.family))].filter((f) => {
    if (past && !learned.includes(f)) return false;
    const at = rows.filter((r) => r.family === f && r.length === length);
    return 2 * at.filter((r) => (fit.get(`${f}|${r.seed}`) || !past) && r.exact >= 0.9).length > at.length;
  });
}

/** The reference run's rows of one task, exact matches turned back into shares. */
export function referenceRows(task) {
  const t = DATA.tasks[task];
  return t.runs.flatMap((r) => r.accuracy.map((a) => ({
    family: r.family, seed: r.seed, length: a.length, exact: a.exact / t.config.testExamples, tokens: a.tokens,
  })));
}

/** The test length standing for k × the longest training length (the nearest tested one). */
export function lengthAt(config, k) {
  const want = k * Math.max(...config.trainLengths);
  return config.testLengths.reduce((best, n) => (Math.abs(n - want) < Math.abs(best - want) ? n : best));
}

/**
 * A state the cross-engine suite opens (the reference run of the offset task, before anyone
 * trains), what to wait for (the reference run has loaded), and its readouts.
 */
export function seed() {
  const task = 'offset';
  const { config, runs } = DATA.tasks[task];
  const rows = referenceRows(task);
  const at = aggregate(rows, config);
  const twice = lengthAt(config, 2);
  const learned = learnedFamilies(rows, config);
  const means = FAMILIES.map((f) => (learned.includes(f) ? at(f, twice).mean : -1));
  const top = means.indexOf(Math.max(...means));
  return {
    query: `task=${task}`,
    ready: '#train[data-train-ready][data-train-store]',
    readouts: {
      runs: { value: runs.length, tol: 0 },
      longest: { value: Math.max(...config.trainLengths), tol: 0 },
      above90: { value: highInMostSeeds(rows, config, twice).length, tol: 0 },
      best: { text: NAMES[FAMILIES[top]] },
      'best-value': { value: 100 * means[top], tol: 1e-9, text: fmt(1).format(100 * means[top]) },
    },
  };
}
