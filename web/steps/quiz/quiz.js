// Step "quiz": a self-check in the manner of an interview card. One question at a time (URL
// parameter q); the reader picks an answer first, then reveals the explanation, which is
// announced politely. The score counts right answers among the revealed ones; a table lists
// every question with its state. Answers live in memory only: a reload starts afresh.
import { h } from '../../kit/dom.js';
import { button, paramSlider } from '../../kit/controls.js';
import { LinePlot } from '../../kit/lineplot.js';
import { tickLabel } from '../../kit/ticks.js';
import { readout, readoutRow } from '../../kit/readout.js';
import { paragraphs, stepFrame } from '../../kit/step.js';

import { COUNT, QUESTIONS, quizModel } from './model.js';

export const id = 'quiz';

export const params = {
  q: { type: 'int', min: 1, max: COUNT, default: 1 },
};

export function mount(root, { m, values, setter, index, total }) {
  const slots = stepFrame(root, m, { id, index, total, downloads: 'deeper' });
  // Per question: the option picked (or null) and whether it has been revealed (model.js).
  const model = quizModel();

  // Controls: which question, by slider or by the two buttons. At the ends a button is marked
  // aria-disabled (not disabled) so keyboard focus stays on it.
  const questionSlider = paramSlider(params, 'q', {
    label: m.t('quiz.question'), values,
    format: (v) => m.t('quiz.questionOf', { n: v, total: COUNT }),
    onInput: (v) => set({ q: v }),
  });
  const prev = button({ name: 'prev', label: m.t('quiz.prev'), onClick: () => { if (values.q > 1) set({ q: values.q - 1 }); } });
  const next = button({ name: 'next', label: m.t('quiz.next'), onClick: () => { if (values.q < COUNT) set({ q: values.q + 1 }); } });
  const restart = button({ name: 'restart', label: m.t('quiz.restart'), onClick: () => {
    model.restart();
    set({ q: 1 });
  } });
  slots.controls.append(questionSlider.el,
    h('div', { class: 'quiz-nav', role: 'group', 'aria-label': m.t('quiz.navGroup') }, prev, next, restart));

  // The question card.
  const legend = h('legend', { class: 'quiz-question' });
  const options = h('div', { class: 'quiz-options' });
  const fieldset = h('fieldset', { class: 'quiz-card' }, legend, options);
  const reveal = button({ name: 'reveal', label: m.t('quiz.reveal'), onClick: () => {
    const n = values.q - 1;
    const verdictNow = model.reveal(n);
    if (verdictNow === 'pickFirst') hint.textContent = m.t('quiz.pickFirst');
    if (verdictNow !== 'right' && verdictNow !== 'wrong') return;
    const right = verdictNow === 'right';
    // The announcement: verdict, the right answer when missed, then the explanation.
    announcer.textContent = [
      m.t(right ? 'quiz.right' : 'quiz.wrong'),
      right ? '' : m.t('quiz.rightWas', { answer: optionText(n, QUESTIONS[n].answer) }),
      m.paras(`quiz.${QUESTIONS[n].key}.why`).join(' '),
    ].filter(Boolean).join(' ');
    set({});
  } });
  reveal.classList.add('primary');
  const hint = h('span', { class: 'quiz-hint' });
  const verdict = h('p', { class: 'quiz-verdict' });
  const explanation = h('div', { class: 'quiz-why' });
  const answerPanel = h('div', { class: 'quiz-answer', hidden: true }, verdict, explanation);
  // Only a reveal speaks through this region (visually hidden); the card shows the same text.
  const announcer = h('p', { class: 'sr-only quiz-announcer', 'aria-live': 'polite' });

  const table = h('table', { class: 'quiz-table' });
  // Running totals over the questions: right answers and revealed ones, question by question.
  const fig = h('figure', { class: 'quiz-fig' }, h('figcaption', {}, m.t('quiz.figCaption')));
  const plot = new LinePlot(fig, {
    xLabel: m.t('quiz.plotX'), yLabel: m.t('quiz.plotY'), label: '',
    format: tickLabel(m), cursorX: (v) => m.fixed(v, 0), cursorY: (v) => m.fixed(v, 0),
    keysHint: m.t('page.plotKeys'),
  });
  // The question first; the table of answers and the running totals are depth (the Score
  // readout says the same in one line), in the Go deeper fold.
  slots.figure.append(
    fieldset,
    h('div', { class: 'quiz-actions' }, reveal, hint),
    answerPanel, announcer);
  slots.deeper.append(h('div', { class: 'quiz-results' }, h('div', { class: 'quiz-table-wrap table-scroller' }, table), fig));

  const out = {
    question: readout('question', m.t('quiz.readQuestion')),
    score: readout('score', m.t('quiz.readScore'), { phrase: true }),
  };
  slots.readouts.append(readoutRow(out.question, out.score));
  paragraphs(slots.notes, m, 'quiz.notes');

  const optionText = (n, k) => m.paras(`quiz.${QUESTIONS[n].key}.options`)[k];
  const uid = Math.random().toString(36).slice(2, 8);
  let built = -1;  // the question whose options are in the DOM

  function buildOptions(n) {
    const texts = m.paras(`quiz.${QUESTIONS[n].key}.options`);
    options.replaceChildren(...texts.map((text, k) => {
      const inputId = `quiz-${uid}-${n}-${k}`;
      const input = h('input', { type: 'radio', id: inputId, name: `answer-${uid}`, value: String(k) });
      input.addEventListener('change', () => {
        if (!input.checked || !model.pick(n, k)) return;
        hint.textContent = '';
        set({});
      });
      return h('div', { class: 'quiz-option' }, input,
        h('label', { for: inputId }, h('span', { class: 'quiz-mark', 'aria-hidden': 'true' }), h('span', { class: 'quiz-text' }, text)),
        h('span', { class: 'quiz-tag' }));
    }));
    built = n;
  }

  function render() {
    const n = values.q - 1;
    const q = QUESTIONS[n];
    if (built !== n) {
      buildOptions(n);
      hint.textContent = '';
    }
    legend.textContent = m.t('quiz.legend', { n: n + 1, total: COUNT, text: m.t(`quiz.${q.key}.text`) });
    const done = model.revealed(n);
    [...options.children].forEach((row, k) => {
      const input = row.querySelector('input');
      input.checked = model.picked(n) === k;
      input.disabled = done && model.picked(n) !== k;  // after the reveal the pick is fixed
      const tag = row.querySelector('.quiz-tag');
      tag.id = `${input.id}-tag`;
      if (done) input.setAttribute('aria-describedby', tag.id);  // "right answer" / "your answer"
      else input.removeAttribute('aria-describedby');
      const state = model.optionState(n, k);
      row.dataset.state = state;
      row.querySelector('.quiz-mark').textContent = state === 'right' ? '✓' : state === 'wrong' ? '✗' : '';
      tag.textContent = state === 'right' ? m.t('quiz.tagRight') : state === 'wrong' ? m.t('quiz.tagWrong') : '';
    });
    reveal.setAttribute('aria-disabled', String(done || model.picked(n) === null));
    answerPanel.hidden = !done;
    if (done) {
      const right = model.result(n) === 'right';
      verdict.textContent = right ? m.t('quiz.right') : `${m.t('quiz.wrong')} ${m.t('quiz.rightWas', { answer: optionText(n, q.answer) })}`;
      verdict.dataset.right = String(right);
      explanation.replaceChildren(...m.paras(`quiz.${q.key}.why`).map((p) => h('p', {}, p)));
    }

    const { right: score, answered, rightSoFar, revealedSoFar } = model.score();
    out.question.set(m.t('quiz.questionOf', { n: n + 1, total: COUNT }), n + 1);
    out.score.set(m.t('quiz.scoreText', { right: score, answered, total: COUNT }), score);

    table.replaceChildren(
      h('caption', {}, m.t('quiz.tableCaption')),
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col' }, m.t('quiz.colNumber')),
        h('th', { scope: 'col' }, m.t('quiz.colTopic')),
        h('th', { scope: 'col' }, m.t('quiz.colResult')))),
      h('tbody', {}, ...QUESTIONS.map((question, k) => {
        const result = model.result(k);
        return h('tr', { 'data-result': result, 'aria-current': k === n ? 'true' : null },
          h('td', {}, String(k + 1)),
          h('td', {}, m.t(`quiz.${question.key}.topic`)),
          h('td', {}, m.t(`quiz.result.${result}`)));
      })));

    const xs = QUESTIONS.map((_, k) => k + 1);
    plot.draw({
      xDomain: [1, COUNT], yDomain: [0, COUNT],
      series: [
        { x: xs, y: revealedSoFar, cls: 'b', label: m.t('quiz.legendRevealed') },
        { x: xs, y: rightSoFar, cls: 'a', points: true, cursor: true, label: m.t('quiz.legendRight') },
      ],
      markers: [{ x: n + 1, y: rightSoFar[n], cls: 'a' }],
    });
    plot.svg.setAttribute('aria-label', m.t('quiz.plotAlt', { right: score, answered, total: COUNT, n: n + 1, upto: rightSoFar[n] }));

    questionSlider.set(values.q);
    prev.setAttribute('aria-disabled', String(values.q <= 1));
    next.setAttribute('aria-disabled', String(values.q >= COUNT));
  }

  const set = setter(render);

  render();
  return {
    tables: () => [{
      name: 'answers', label: m.t('quiz.csv'),
      header: ['question', 'picked', 'right', 'revealed'],
      rows: QUESTIONS.map((question, k) => [k + 1, model.picked(k) === null ? '' : model.picked(k) + 1, question.answer + 1, model.revealed(k) ? 1 : 0]),
    }],
  };
}
