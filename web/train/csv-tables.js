// The train step's Save CSV tables for the set on screen (or none): accuracy at 1×–4× the
// longest training length, accuracy at every tested length, and every run's scores.
import { accuracyAt, accuracyByLength, familiesWithRuns, lengthAt, MULTIPLES } from './aggregate.js';

export function csvTables(s, t) {
  const families = s ? familiesWithRuns(s) : [];
  return [
    {
      name: 'accuracy', label: t('csvAccuracy'),
      header: ['family', 'metric', 'multiple', 'length', 'mean', 'min', 'max', 'seeds'],
      rows: s ? ['exact', 'tokens'].flatMap((mt) => families.flatMap((f) => MULTIPLES.map((k) => {
        const length = lengthAt(s.config, k);
        const c = accuracyAt(s, f, length, mt) ?? {};
        return [f, mt, k, length, c.mean ?? '', c.min ?? '', c.max ?? '', c.n ?? 0];
      }))) : [],
    },
    {
      name: 'by-length', label: t('csvByLength'),
      header: ['family', 'length', 'exact_mean', 'exact_min', 'exact_max', 'tokens_mean', 'tokens_min', 'tokens_max'],
      rows: s ? families.flatMap((f) => {
        const e = accuracyByLength(s, f, 'exact');
        const k = accuracyByLength(s, f, 'tokens');
        return e.lengths.map((n, i) => [f, n, e.mean[i], e.min[i], e.max[i], k.mean[i], k.min[i], k.max[i]]);
      }) : [],
    },
    {
      name: 'runs', label: t('csvRuns'),
      header: ['set', 'family', 'seed', 'status', 'steps', 'seconds', 'length', 'exact', 'tokens'],
      rows: s ? s.runs.flatMap((r) => r.accuracy.map((a) => [s.id, r.family, r.seed, r.status, r.steps, r.seconds, a.length, a.exact, a.tokens])) : [],
    },
  ];
}
