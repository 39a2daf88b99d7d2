// The reference run's headline tables, as markdown (for the experiment log and the notes): per
// task, per family, plain and with each fix: how many seeds fit, and the exact match at the
// training lengths, just past them (up to twice the longest) and far past them (up to four
// times), each the mean over those lengths of one run, then the median over seeds with the
// spread (lowest–highest). A run that did not fit is left out of the past-the-training columns
// (it did not learn the task there), and the cell says over how many seeds it is.
//
//   node web/tools/reference-summary.mjs [FILE]
import { readFileSync } from 'node:fs';

import { REFERENCE } from './experiment.mjs';

const data = JSON.parse(readFileSync(process.argv[2] ?? REFERENCE, 'utf8'));

const median = (v) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const pct = (x) => `${Math.round(100 * x)}`;

function cell(values, of) {
  if (!values.length) return '—';
  const m = median(values), lo = Math.min(...values), hi = Math.max(...values);
  const spread = lo === hi ? '' : ` (${pct(lo)}–${pct(hi)})`;
  return `${pct(m)}${spread}${values.length < of ? ` [${values.length}]` : ''}`;
}

for (const [task, entry] of Object.entries(data.tasks)) {
  const { trainLengths, testLengths, testExamples } = entry.config;
  const longest = Math.max(...trainLengths);
  const bands = {
    train: testLengths.map((n, i) => (trainLengths.includes(n) ? i : -1)).filter((i) => i >= 0),
    near: testLengths.map((n, i) => (n > longest && n <= 2 * longest ? i : -1)).filter((i) => i >= 0),
    far: testLengths.map((n, i) => (n > 2 * longest ? i : -1)).filter((i) => i >= 0),
  };
  const mean = (exact, idx) => idx.reduce((s, i) => s + exact[i], 0) / idx.length / testExamples;
  const fixes = ['plain', ...Object.keys(entry.fixes)];  // the fixes the run reached for this task
  console.log(`\n### ${task} (train ${trainLengths[0]}–${longest}; near ${longest + 1}–${2 * longest}; far ${2 * longest + 1}–${Math.max(...testLengths)})\n`);
  console.log(`| family | ${fixes.map((f) => `${f}: fit | train | near | far`).join(' | ')} |`);
  console.log(`|---|${fixes.map(() => '---|---:|---:|---:').join('|')}|`);
  for (const family of data.families) {
    const cells = fixes.map((fix) => {
      const runs = fix === 'plain'
        ? entry.runs.filter((r) => r.family === family).map((r) => ({ fit: r.fit, exact: r.accuracy.map((a) => a.exact) }))
        : entry.fixes[fix].runs.filter((r) => r.family === family).map((r) => ({ fit: r.fit, exact: r.exact }));
      const fit = runs.filter((r) => r.fit);
      return [`${fit.length}/${runs.length}`, cell(runs.map((r) => mean(r.exact, bands.train)), runs.length),
        cell(fit.map((r) => mean(r.exact, bands.near)), runs.length), cell(fit.map((r) => mean(r.exact, bands.far)), runs.length)].join(' | ');
    });
    console.log(`| ${family} | ${cells.join(' | ')} |`);
  }
}
console.log(`\n(exact match, %: median over seeds (lowest–highest); [n]: over the n seeds that fit, the others left out.)`);
for (const [task, p] of Object.entries(data.provenance.tasks)) {
  const runs = p.runs.map((r) => `${r.fixes.join('+')}: ${Math.round(r.wallSeconds)} s wall, ${Math.round(r.runSeconds)} s of runs ` +
    `(${r.command}, commit ${r.commit.slice(0, 7)}, ${r.date})`);
  console.log(`Provenance, ${task}: ${Math.round(p.wallSeconds)} s wall with ${data.provenance.jobs} jobs; ${runs.join('; ')}.`);
}
for (const [task, why] of Object.entries(data.provenance.missing ?? {})) console.log(`Not in the file: ${task} (${why}).`);
