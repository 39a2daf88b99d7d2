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

// Per family and test length over seeds: mean, min and max of a list of { family, seed, length,
// exact, tokens } rows (shares of the test set).
export function aggregate(rows, metric = 'exact') {
  const out = new Map();
  for (const r of rows) {
    const key = `${r.family}|${r.length}`;
    if (!out.has(key)) out.set(key, []);
    out.get(key).push(r[metric]);
  }
  return (family, length) => {
    const v = out.get(`${family}|${length}`);
    return v && { mean: v.reduce((a, x) => a + x, 0) / v.length, min: Math.min(...v), max: Math.max(...v), n: v.length };
  };
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
 * A state the cross-engine suite opens (the reference run of the retrieval task, before anyone
 * trains), what to wait for (the reference run has loaded), and its readouts.
 */
export function seed() {
  const task = 'retrieval';
  const { config, runs } = DATA.tasks[task];
  const at = aggregate(referenceRows(task));
  const means = FAMILIES.map((f) => at(f, lengthAt(config, 2)).mean);
  const top = means.indexOf(Math.max(...means));
  return {
    query: `task=${task}`,
    ready: '#train[data-train-ready][data-train-store]',
    readouts: {
      runs: { value: runs.length, tol: 0 },
      longest: { value: Math.max(...config.trainLengths), tol: 0 },
      above90: { value: means.filter((v) => v >= 0.9).length, tol: 0 },
      best: { text: NAMES[FAMILIES[top]] },
      'best-value': { value: 100 * means[top], tol: 1e-9, text: fmt(1).format(100 * means[top]) },
    },
  };
}
