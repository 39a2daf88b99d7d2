// What the train step's sentences under the table and its readouts say about a set, decided from
// its records (aggregate.js) and kept free of words: which sentences, in which order, about which
// families and numbers. results-view.js puts them in the reader's language. DOM-free:
// tests/js/train-summary.test.js.
import { best, familiesWithRuns, fitCount, lengthAt, longestTraining, verdicts, widestSpread } from './aggregate.js';

export const HIGH = 0.9;  // "at or above 90 %" in the sentences and the readouts
export const LOW = 0.1;

/**
 * The sentences for `set` by metric `mt` ('exact' or 'tokens'): main (beside the figure: which
 * families learned the task, the verdict at 2×, the widest spread over seeds), later (the fold:
 * the verdicts at 1× and 4×) and verdict (the 2× sentence, for the spoken line; null without
 * one). Each sentence is { key, ...vars }: key the catalog key under train.
 *   sumAllLearned { seeds }            every family learned the task in every seed
 *   sumUnlearned { families }          families none of whose runs learned it
 *   sumPartly { partly: [{ family, fit, of }] }
 *   sumAtTrain / sumPast (+ 'One' for a set of one seed) { multiple, length, longest, high, low, mid, metric }
 *   sumSpread { family, length, min, max, seeds } / sumNoSpread { length } / sumOneSeed {} /
 *   sumNoLearnedPair { length }
 */
export function summaryPlan(set, mt) {
  const main = [];
  const later = [];
  let verdict = null;
  // Which families learned the task at the training lengths (fit.js), before anything past them.
  const counts = familiesWithRuns(set).map((f) => ({ family: f, ...fitCount(set, f) }));
  const none = counts.filter((c) => c.fit === 0).map((c) => c.family);
  const partly = counts.filter((c) => c.fit > 0 && c.fit < c.of);
  if (!none.length && !partly.length) main.push({ key: 'sumAllLearned', seeds: Math.max(...counts.map((c) => c.of)) });
  if (none.length) main.push({ key: 'sumUnlearned', families: none });
  if (partly.length) main.push({ key: 'sumPartly', partly });
  const oneSeed = Math.max(...counts.map((c) => c.of)) === 1;
  const longest = longestTraining(set.config);
  for (const multiple of [1, 2, 4]) {
    const v = verdicts(set, multiple, { metric: mt, high: HIGH, low: LOW });
    if (v.length === null) continue;
    // Past the training lengths, a multiple no family is judged at says nothing.
    if (multiple > 1 && !v.high.length && !v.low.length && !v.mid.length) continue;
    // A set of one seed has no "most seeds" to speak of.
    const sentence = {
      key: `${multiple === 1 ? 'sumAtTrain' : 'sumPast'}${oneSeed ? 'One' : ''}`,
      multiple, length: v.length, longest, high: v.high, low: v.low, mid: v.mid, metric: mt,
    };
    if (multiple === 2) verdict = sentence;
    (multiple === 2 ? main : later).push(sentence);
  }
  const wide = widestSpread(set, 2, mt);
  // No widest spread: one seed per family, or several but never two that learned the task.
  main.push(!wide ? { key: oneSeed ? 'sumOneSeed' : 'sumNoLearnedPair', length: lengthAt(set.config, 2) }
    : wide.max > wide.min ? { key: 'sumSpread', family: wide.family, length: wide.length, min: wide.min, max: wide.max, seeds: wide.n }
      : { key: 'sumNoSpread', length: wide.length });
  return { main, later, verdict };
}

/**
 * The readouts for `set` by metric `mt`: its task, its runs, the longest training length, how many
 * families score at or above 90 % at 2× in most seeds, and the best learned family there with its
 * mean (null when none has a score).
 */
export function readoutsOf(set, mt) {
  const top = best(set, 2, mt);
  return {
    task: set.task,
    runs: set.runs.length,
    longest: longestTraining(set.config),
    above: verdicts(set, 2, { metric: mt, high: HIGH, low: LOW }).high.length,
    best: top ? { family: top.family, mean: top.mean } : null,
  };
}
