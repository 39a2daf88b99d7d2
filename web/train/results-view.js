// The train step's results for the set on screen: loss curves (live while the set trains),
// accuracy against length, the 1×–4× table, the sentences under it and the readouts, every one
// computed from the set's records (aggregate.js; which sentences and readout numbers: summary.js). A render redraws only the parts whose inputs
// changed: opening the store, a family picked for the closer look or the per-token switch leave
// the other figures as they are.
import { h } from '../kit/dom.js';
import { quietReadoutRow, readout } from '../kit/readout.js';
import { accuracyFigure } from './accuracy-figure.js';
import { accuracyTableView } from './accuracy-table.js';
import { best, meanLoss } from './aggregate.js';
import { windowedCurve } from './curve.js';
import { familyList, familyName, listFormat } from './families.js';
import { fixesView } from './fixes-view.js';
import { lossFigure } from './loss-figure.js';
import { readoutsOf, summaryPlan } from './summary.js';
const LIVE_POINTS = 100;  // points of a live loss curve

/** Whether two lists hold the same things (by identity), in order. */
const same = (a, b) => a !== null && a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * @param {{m:object, t:(key:string, vars?:object)=>string, values:object,
 *   live:(set:object)=>{jobs:object[]}|null}} o
 *   live: the training of `set` while it trains (its jobs' loss logs), else null.
 */
export function resultsView({ m, t, values, live }) {
  const pct = (v, digits = 0) => m.fixed(100 * v, digits);
  const loss = lossFigure(m);
  const accuracy = accuracyFigure(m);
  const table = accuracyTableView(m);
  const summary = h('div', { class: 'train-summary' });
  // The sentences at the longest training length and at 4×: beside the table, in the fold.
  const more = h('div', { class: 'train-summary train-summary-more' });
  const fixes = fixesView(m, t);
  // What a screen reader hears when the set on screen changes (a task picked, a run finished):
  // the task and the sentence at twice the training length, the figure's verdict.
  // It is the step's one live readouts row (the page's rule for every step), kept off screen: the
  // figure and its sentences above say the same to the eye.
  const spokenText = h('p', { class: 'train-spoken' });
  const spoken = h('div', { class: 'sr-only' }, h('div', { class: 'readouts', 'aria-live': 'polite' }, spokenText));
  const out = {
    task: readout('task', t('outTask')),
    runs: readout('runs', t('outRuns')),
    longest: readout('longest', t('outLongest')),
    above: readout('above90', t('outAbove')),
    best: readout('best', t('outBest')),
    bestValue: readout('best-value', t('outBestValue')),
  };
  const metric = () => (values.tokens ? 'tokens' : 'exact');
  const phone = () => Boolean(globalThis.matchMedia?.('(max-width: 560px)').matches);  // the accuracy plot's height follows it
  // What each part last drew from: the set, its number of runs (a set only gains runs), and the
  // choices the part depends on. null: drawn empty, or not yet.
  const drawn = { loss: null, accuracy: null, numbers: null };
  const changed = (part, inputs) => {
    if (same(drawn[part], inputs)) return false;
    drawn[part] = inputs;
    return true;
  };

  // The loss curves sit in the step's fold: while it is closed the live ones are not drawn (four
  // times a second, that was most of the page's main-thread work while a set trained); the render
  // that opening the fold makes, or the set's end, draws them.
  const folded = () => Boolean(loss.el.closest('details:not([open])'));

  /** The loss curves: the set's records, or the live logs of the set that is training. */
  function drawLoss(s) {
    const running = live(s);
    if (running && folded()) {
      drawn.loss = null;
      return;
    }
    const curves = [];
    for (const family of s.families) {
      if (running) {
        const series = running.jobs.filter((j) => j.family === family && j.losses.length).map((j) => j.losses);
        if (!series.length) continue;
        const n = Math.min(...series.map((x) => x.length));
        const mean = Array.from({ length: n }, (_, i) => series.reduce((a, x) => a + x[i], 0) / series.length);
        const c = windowedCurve(mean, LIVE_POINTS);
        curves.push({ family, steps: c.steps, values: c.values });
      } else {
        const c = meanLoss(s, family);
        if (c) curves.push({ family, steps: c.steps, values: c.mean });
      }
    }
    loss.draw(curves, s.config.steps, running ? null : { set: s, version: s.runs.length });
    // Live curves change without a new run: the next render draws them again.
    drawn.loss = running ? null : [s, s.runs.length];
  }

  // The sentences of each set and metric, written once and kept until the set gains runs.
  const sentences = new WeakMap();  // set → { count, parts: Map(metric → [h4, p...]) }
  function sentencesOf(s, mt = metric()) {
    let k = sentences.get(s);
    if (!k || k.count !== s.runs.length) sentences.set(s, k = { count: s.runs.length, parts: new Map() });
    if (!k.parts.has(mt)) k.parts.set(mt, summaryOf(s, mt));
    return k.parts.get(mt);
  }

  function drawSummary(s) {
    const parts = sentencesOf(s);
    summary.replaceChildren(...parts.main);
    more.replaceChildren(...parts.more);
  }

  // The sentences summary.js picks, in the reader's language.
  function summaryOf(s, mt) {
    const list = (fams) => familyList(m, fams, t('nobody'));
    const text = ({ key, ...v }) => {
      switch (key) {
        case 'sumUnlearned': return t(key, { list: list(v.families) });
        case 'sumPartly': return t(key, {
          list: listFormat(m).format(v.partly.map((c) => t('familyLearnedIn', { family: familyName(m, c.family), fit: c.fit, of: c.of }))),
        });
        case 'sumSpread': return t(key, { family: familyName(m, v.family), length: v.length, min: pct(v.min), max: pct(v.max), seeds: v.seeds });
        case 'sumAtTrain': case 'sumAtTrainOne': case 'sumPast': case 'sumPastOne': return t(key, {
          multiple: v.multiple, length: v.length, longest: v.longest, high: list(v.high), low: list(v.low), mid: list(v.mid),
          metric: t(v.metric === 'exact' ? 'metricWordExact' : 'metricWordTokens'),
        });
        default: return t(key, v);  // sumAllLearned { seeds }, sumNoSpread/sumNoLearnedPair { length }, sumOneSeed
      }
    };
    const plan = summaryPlan(s, mt);
    return {
      main: [h('h3', { class: 'train-summary-title' }, t('summaryTitle')), ...plan.main.map((p) => h('p', {}, text(p)))],
      more: plan.later.map((p) => h('p', {}, text(p))),
      verdict: plan.verdict ? text(plan.verdict) : '',
    };
  }

  function drawNumbers(s) {
    table.draw(s, metric());
    drawSummary(s);
    fixes.draw(s);
    const r = readoutsOf(s, metric());
    out.task.set(t(`task.${r.task}`));
    spokenText.textContent = [t(`task.${r.task}`), sentencesOf(s).verdict].filter(Boolean).join('. ');
    out.runs.set(m.fixed(r.runs, 0), r.runs);
    out.longest.set(m.fixed(r.longest, 0), r.longest);
    out.above.set(m.fixed(r.above, 0), r.above);
    out.best.set(r.best ? familyName(m, r.best.family) : '—');
    if (r.best) out.bestValue.set(pct(r.best.mean, 1), 100 * r.best.mean);
    else out.bestValue.set('—');
  }

  return {
    /** What the step shows first: accuracy against length, its sentences at 2×, what the fixes did. */
    els: [accuracy.el, summary, fixes.sentences],
    /** The fold's tables: plain against each fix (bars), the 1×–4× table and its other sentences. */
    tables: [fixes.el, table.el, more],
    /** The fold's loss curves. */
    loss: loss.el,
    /** The readouts: in the fold, so not a live region; `spoken` speaks for the first screen. */
    readouts: quietReadoutRow(out.task, out.runs, out.longest, out.above, out.best, out.bestValue),
    spoken,
    drawLoss,
    /**
     * Works out ahead what drawing `set` with the current choices needs (its aggregates, its
     * table and sentences, its loss drawing), so showing it later only puts them on screen. For
     * idle time.
     */
    prepare(set) {
      for (const family of set.families) meanLoss(set, family);
      for (const mt of ['exact', 'tokens']) {
        accuracy.prepare(set, mt);
        table.prepare(set, mt);
        sentencesOf(set, mt);
        best(set, 2, mt);
      }
      fixes.prepare(set);
      // Its loss curves drawn too, for loss-figure.js to keep, and the drawing on screen put back
      // in the same task (nothing is painted between): drawing a set's hundreds of points was most
      // of a first switch to it (~5 ms in WebKit), putting a kept drawing back is ~1 ms. Only
      // when the drawing on screen is a kept one (not live curves, not an empty plot).
      const onScreen = drawn.loss;
      if (onScreen && onScreen[0] !== set && !live(set)) {
        drawLoss(set);
        drawLoss(onScreen[0]);
      }
    },
    /** Draws `view.set` (see the step's shown()); without a set, `why` in the table. */
    draw(view, why) {
      const s = view.set;
      if (!s) {
        drawn.loss = drawn.accuracy = drawn.numbers = null;
        loss.draw([], 1);
        table.empty(why);
        summary.replaceChildren();
        more.replaceChildren();
        fixes.draw(null);
        for (const r of Object.values(out)) r.set('—');
        spokenText.textContent = why;  // why nothing is shown (loading, not reached, dropped)
        return;
      }
      if (!same(drawn.loss, [s, s.runs.length]) || live(s)) drawLoss(s);
      if (changed('accuracy', [s, s.runs.length, metric(), values.family, phone()])) {
        accuracy.draw(s, { metric: metric(), focus: values.family });
      }
      if (changed('numbers', [s, s.runs.length, metric()])) drawNumbers(s);
    },
  };
}
