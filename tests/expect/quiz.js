// Step 18, check yourself: what the page must show, computed here from the formulas.
// Used by tests/browser/quiz.test.js (Chromium) and the cross-engine suite (tests/engines/).
import { readFile } from 'node:fs/promises';

// The right option of each question, from the step's own table, read as text so the test does
// not import page code; its explanations and options from the English catalog.
export const source = await readFile(new URL('../../web/steps/quiz/model.js', import.meta.url), 'utf8');
export const KEYS = [...source.matchAll(/\{ key: '(\w+)', answer: (\d) \}/g)].map((x) => ({ key: x[1], answer: Number(x[2]) }));
export const en = JSON.parse(await readFile(new URL('../../web/i18n/en/quiz.json', import.meta.url), 'utf8'));

/** A state the cross-engine suite opens (question 5, nothing revealed yet), and its readouts. */
export function seed() {
  const q = 5;
  return {
    query: `q=${q}`,
    readouts: {
      question: { value: q, tol: 0 },
      score: { value: 0, tol: 0, text: `0 right of 0 revealed, ${KEYS.length} in all` },
    },
  };
}
