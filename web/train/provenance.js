// The line above the train step's results: where the set on screen comes from (the reference
// run's command, commit, date and machine, or the reader's own setup and when it ran), or why
// nothing is shown yet. Dates are written in UTC in the page's language.
import { longestTraining } from './aggregate.js';
import { listFormat } from './families.js';
import { fixOf } from './fixes.js';

/**
 * A set's date (ISO) as text. One formatter for the step, made when the step is built: making
 * the first one loads the language's calendar data, which took longer than drawing the results.
 */
export function dateWriter(m) {
  const format = new Intl.DateTimeFormat(m.lang, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
  return (iso) => format.format(new Date(iso));
}

/**
 * The line for `view` ({ set, kind }: see the step's shown()); `task` is the task chosen,
 * `dataError` why the reference run failed to load (or null).
 */
export function describeSet({ m, t, date }, { set: s, kind }, { task, dataError, missing }) {
  if (kind === 'loading') return t('loadingReference');
  if (kind === 'missing') {
    if (dataError) return t('referenceFailed', { message: dataError });
    // A task the trainer offers that the reference run left out says why (the file records it).
    const why = missing?.[task];
    return t(why === 'dropped' ? 'referenceDropped' : why === 'not reached' ? 'referenceNotReached' : 'referenceNoTask', { task: t(`task.${task}`) });
  }
  const lengths = `${Math.min(...s.config.trainLengths)}–${longestTraining(s.config)}`;
  if (s.source === 'reference') {
    const p = s.provenance;
    // A task trained in several invocations (plain first, a fix later) names each one's command,
    // commit and date, in order; an older file has one.
    const calls = p.invocations ?? [p];
    const list = (items) => listFormat(m).format([...new Set(items)]);
    return [kind === 'fallback' ? t('noOwnRuns') : '', t('provenance', {
      task: t(`task.${s.task}`), lengths, steps: m.fixed(s.config.steps, 0), seeds: s.seeds.length,
      command: list(calls.map((c) => c.command)), commit: list(calls.map((c) => String(c.commit).slice(0, 10))),
      date: list(calls.map((c) => date(c.date))), wall: m.fixed(p.wallSeconds, 0),
      jobs: p.jobs ?? p.cores, cpu: p.cpu, d: s.config.dModel, layers: s.config.layers, heads: s.config.heads,
      fixes: s.fixes && Object.keys(s.fixes).length ? listFormat(m).format(Object.keys(s.fixes).map((f) => t(`fix.${f}`))) : t('nobody'),
    })].filter(Boolean).join(' ');
  }
  return t('yoursLine', {
    task: t(`task.${s.task}`), lengths, steps: m.fixed(s.config.steps, 0), size: s.size ? t(`size.${s.size}`) : '—',
    seeds: s.seeds.length, runs: s.runs.length, date: date(s.created), fix: t(`fix.${fixOf(s.config)}`),
    status: t(`setStatus.${s.status ?? 'done'}`),
  });
}

/**
 * The short line above the figure: whose run, how many seeds, where it trained; the whole
 * provenance (`line`, from describeSet) is in the fold. Without a set, `line` says why.
 */
export function describeOrigin({ m, t, date }, { set: s, kind }, line) {
  if (!s) return line;
  if (s.source === 'reference') {
    return [kind === 'fallback' ? t('noOwnRuns') : '', t('originReference', { task: t(`task.${s.task}`), seeds: s.seeds.length })]
      .filter(Boolean).join(' ');
  }
  return t('originYours', { task: t(`task.${s.task}`), seeds: s.seeds.length, date: date(s.created), fix: t(`fix.${fixOf(s.config)}`) });
}
