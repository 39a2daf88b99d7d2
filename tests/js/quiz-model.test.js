// web/steps/quiz/model.js: the questions against the catalogs (four options and an explanation
// for each, in every language; the right option among them, the right answers spread over the
// positions), and the answer checking: a reveal needs a pick and fixes it, the verdict is the
// right option's, the table's result, the options' marks, the score and the running totals,
// over seeded random sessions checked against this file's own bookkeeping.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { COUNT, QUESTIONS, quizModel } from '../../web/steps/quiz/model.js';
import { prng } from './helpers.js';

const LANGS = ['en', 'id', 'sv', 'ru'];
const catalog = (lang) => JSON.parse(readFileSync(new URL(`../../web/i18n/${lang}/quiz.json`, import.meta.url), 'utf8'));

test('eight questions, each with four options and its explanation in every catalog; the right answers spread over the positions', () => {
  assert.equal(COUNT, 8);
  for (const lang of LANGS) {
    const c = catalog(lang);
    for (const { key, answer } of QUESTIONS) {
      assert.equal(c[`quiz.${key}.options`]?.length, 4, `${lang} ${key}`);
      assert.ok(Number.isInteger(answer) && answer >= 0 && answer < 4, key);
      assert.ok(c[`quiz.${key}.why`].join(' ').length > 150, `${lang} ${key}: an explanation`);
      assert.equal(typeof c[`quiz.${key}.text`], 'string', `${lang} ${key}: the question`);
    }
  }
  assert.equal(new Set(QUESTIONS.map((q) => q.answer)).size, 4);
});

test('a reveal needs a pick and fixes it; the verdict, the marks, restart', () => {
  const model = quizModel();
  const { answer } = QUESTIONS[3];
  const wrong = (answer + 1) % 4;
  assert.equal(model.reveal(3), 'pickFirst');
  assert.equal(model.revealed(3), false);
  assert.equal(model.result(3), 'open');
  assert.equal(model.pick(3, wrong), true);
  assert.equal(model.result(3), 'picked');
  assert.deepEqual(model.score().right, 0, 'picking alone scores nothing');
  assert.equal(model.reveal(3), 'wrong');
  assert.equal(model.reveal(3), 'already');
  assert.equal(model.pick(3, answer), false, 'the pick is fixed after the reveal');
  assert.equal(model.picked(3), wrong);
  assert.equal(model.result(3), 'wrong');
  assert.deepEqual([0, 1, 2, 3].map((k) => model.optionState(3, k)), [0, 1, 2, 3].map((k) => (k === answer ? 'right' : k === wrong ? 'wrong' : '')));
  assert.deepEqual([0, 1, 2, 3].map((k) => model.optionState(4, k)), ['', '', '', ''], 'an unrevealed question marks nothing');
  model.pick(0, QUESTIONS[0].answer);
  assert.equal(model.reveal(0), 'right');
  assert.deepEqual(model.score(), { right: 1, answered: 2, rightSoFar: [1, 1, 1, 1, 1, 1, 1, 1], revealedSoFar: [1, 1, 1, 2, 2, 2, 2, 2] });
  model.restart();
  assert.deepEqual(model.score(), { right: 0, answered: 0, rightSoFar: Array(8).fill(0), revealedSoFar: Array(8).fill(0) });
  assert.deepEqual(QUESTIONS.map((_, n) => model.result(n)), Array(8).fill('open'));
});

test('seeded random sessions: results, score and running totals follow this file\'s own bookkeeping', () => {
  const rnd = prng(42);
  for (let session = 0; session < 200; session++) {
    const model = quizModel();
    const pick = Array(COUNT).fill(null);
    const shown = Array(COUNT).fill(false);
    for (let move = 0; move < 30; move++) {
      const n = rnd.int(0, COUNT - 1);
      const r = rnd.next();
      if (r < 0.5) {
        const k = rnd.int(0, 3);
        assert.equal(model.pick(n, k), !shown[n]);
        if (!shown[n]) pick[n] = k;
      } else if (r < 0.95) {
        const want = pick[n] === null ? 'pickFirst' : shown[n] ? 'already' : pick[n] === QUESTIONS[n].answer ? 'right' : 'wrong';
        assert.equal(model.reveal(n), want);
        if (pick[n] !== null) shown[n] = true;
      } else {
        model.restart();
        pick.fill(null);
        shown.fill(false);
      }
      const right = (k) => shown[k] && pick[k] === QUESTIONS[k].answer;
      const results = pick.map((p, k) => (!shown[k] ? (p === null ? 'open' : 'picked') : right(k) ? 'right' : 'wrong'));
      assert.deepEqual(QUESTIONS.map((_, k) => model.result(k)), results);
      const s = model.score();
      assert.equal(s.right, QUESTIONS.filter((_, k) => right(k)).length);
      assert.equal(s.answered, shown.filter(Boolean).length);
      QUESTIONS.forEach((_, k) => {
        assert.equal(s.rightSoFar[k], QUESTIONS.slice(0, k + 1).filter((__, j) => right(j)).length);
        assert.equal(s.revealedSoFar[k], shown.slice(0, k + 1).filter(Boolean).length);
      });
    }
  }
});
