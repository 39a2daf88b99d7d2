// Step "quiz", what it decides: the questions and their right options, the reader's picks and
// reveals (in memory only: a reload starts afresh), and what the card, the table, the score and
// the running totals read from them. No numbers from the core. DOM-free:
// tests/js/quiz-model.test.js. The view (quiz.js) shows the texts from the catalog.

// Each question's catalog key and the index of its right option (options are in the catalog).
export const QUESTIONS = [
  { key: 'why', answer: 1 },
  { key: 'frequencies', answer: 2 },
  { key: 'models', answer: 0 },
  { key: 'where', answer: 3 },
  { key: 'relative', answer: 1 },
  { key: 'learned', answer: 0 },
  { key: 'longer', answer: 2 },
  { key: 'swap', answer: 3 },
];
export const COUNT = QUESTIONS.length;

/** The reader's answers, questions numbered from 0. */
export function quizModel() {
  const picked = QUESTIONS.map(() => null);   // the option picked, or null
  const revealed = QUESTIONS.map(() => false);

  const isRight = (n) => picked[n] === QUESTIONS[n].answer;
  /** 'open' (nothing picked), 'picked', 'right' or 'wrong' (revealed). */
  const result = (n) => (!revealed[n] ? (picked[n] === null ? 'open' : 'picked') : isRight(n) ? 'right' : 'wrong');
  /** Running totals, question by question: how many of questions 0..k count. */
  const running = (counts) => {
    let total = 0;
    return QUESTIONS.map((_, k) => (total += counts(k) ? 1 : 0));
  };

  return {
    picked: (n) => picked[n],
    revealed: (n) => revealed[n],
    /** Picks option k of question n; a revealed question keeps its pick. Returns whether it took. */
    pick(n, k) {
      if (revealed[n]) return false;
      picked[n] = k;
      return true;
    },
    /**
     * Reveals question n: 'pickFirst' when nothing is picked, 'already' when revealed before,
     * else 'right' or 'wrong'.
     */
    reveal(n) {
      if (picked[n] === null) return 'pickFirst';
      if (revealed[n]) return 'already';
      revealed[n] = true;
      return isRight(n) ? 'right' : 'wrong';
    },
    restart() {
      picked.fill(null);
      revealed.fill(false);
    },
    result,
    /** Option k of question n after its reveal: 'right' (the right option), 'wrong' (picked, not right) or ''. */
    optionState(n, k) {
      if (!revealed[n]) return '';
      if (k === QUESTIONS[n].answer) return 'right';
      return picked[n] === k ? 'wrong' : '';
    },
    /** Right answers among the revealed, how many are revealed, and the running totals of both. */
    score() {
      return {
        right: QUESTIONS.reduce((s, _, k) => s + (revealed[k] && isRight(k) ? 1 : 0), 0),
        answered: revealed.filter(Boolean).length,
        rightSoFar: running((k) => revealed[k] && isRight(k)),
        revealedSoFar: running((k) => revealed[k]),
      };
    },
  };
}
