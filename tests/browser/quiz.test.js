// Step "quiz" in Chromium: answer by mouse and by keyboard, reveal, the score, the polite
// announcement, the answers table, the question in the URL (round trip and clamping). The
// questions against the catalogs and the answer checking and scoring rules are
// tests/js/quiz-model.test.js.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startBrowser } from './browser.js';
import { openStep, percentile, readout, setSlider, updateTimes, urlParams, pageUrl } from './steps.js';
// The right answers and the English catalog: shared with the cross-engine suite.
import { KEYS, en } from '../expect/quiz.js';

let b;
before(async () => { b = await startBrowser(); });
after(async () => { await b?.close(); });

const score = (page) => readout(page, 'quiz', 'score');
const option = (page, k) => page.locator('#quiz .quiz-option input').nth(k);

test('mouse: pick, reveal, score; the reveal is announced politely and the table follows', async () => {
  const page = await openStep(b, 'quiz');
  assert.deepEqual((await urlParams(page)), { step: 'quiz', q: '1' });
  assert.equal((await readout(page, 'quiz', 'question')).value, 1);
  assert.equal((await score(page)).value, 0);
  assert.equal(await page.isHidden('#quiz .quiz-answer'), true);
  // Reveal before picking does nothing but ask for an answer.
  assert.equal(await page.getAttribute('#quiz button[name=reveal]', 'aria-disabled'), 'true');
  await page.click('#quiz button[name=reveal]', { force: true });  // marked off, yet a press reaches it
  assert.equal(await page.isHidden('#quiz .quiz-answer'), true);
  assert.match(await page.textContent('#quiz .quiz-hint'), /Pick an answer/);

  // Question 1: the right option, by clicking its label.
  const q1 = KEYS[0];
  await page.locator('#quiz .quiz-option label').nth(q1.answer).click();
  assert.equal(await option(page, q1.answer).isChecked(), true);
  assert.equal(await page.getAttribute('#quiz button[name=reveal]', 'aria-disabled'), 'false');
  assert.equal((await score(page)).value, 0, 'picking alone scores nothing');
  await page.click('#quiz button[name=reveal]');
  assert.equal(await page.isVisible('#quiz .quiz-answer'), true);
  assert.equal(await page.textContent('#quiz .quiz-verdict'), 'Right.');
  assert.equal((await page.textContent('#quiz .quiz-why')).trim(), en[`quiz.${q1.key}.why`].join(''));
  const live = await page.$eval('#quiz .quiz-announcer', (el) => ({ live: el.getAttribute('aria-live'), text: el.textContent }));
  assert.equal(live.live, 'polite');
  assert.ok(live.text.startsWith('Right.') && live.text.includes(en[`quiz.${q1.key}.why`][0].slice(0, 40)), live.text);
  assert.equal((await score(page)).value, 1);
  assert.match((await score(page)).text, /^1 right of 1 revealed, 8 in all$/);
  // After the reveal the pick is fixed: the other options are disabled.
  const disabled = await page.$$eval('#quiz .quiz-option input', (els) => els.map((e) => e.disabled));
  assert.deepEqual(disabled, [0, 1, 2, 3].map((k) => k !== q1.answer));
  assert.equal(await page.getAttribute(`#quiz .quiz-option:nth-child(${q1.answer + 1})`, 'data-state'), 'right');

  // Question 2 by the Next button: a wrong option.
  await page.click('#quiz button[name=next]');
  assert.deepEqual((await urlParams(page)), { step: 'quiz', q: '2' });
  const q2 = KEYS[1];
  const wrong = (q2.answer + 1) % 4;
  await page.locator('#quiz .quiz-option label').nth(wrong).click();
  await page.click('#quiz button[name=reveal]');
  const verdict = await page.textContent('#quiz .quiz-verdict');
  assert.ok(verdict.startsWith('Not quite.') && verdict.includes(en[`quiz.${q2.key}.options`][q2.answer]), verdict);
  assert.equal(await page.getAttribute(`#quiz .quiz-option:nth-child(${wrong + 1})`, 'data-state'), 'wrong');
  assert.equal(await page.getAttribute(`#quiz .quiz-option:nth-child(${q2.answer + 1})`, 'data-state'), 'right');
  assert.match(await page.textContent(`#quiz .quiz-option:nth-child(${q2.answer + 1}) .quiz-tag`), /right answer/);
  assert.equal((await score(page)).value, 1);
  assert.match((await score(page)).text, /^1 right of 2 revealed/);
  const rows = await page.$$eval('#quiz .quiz-table tbody tr', (trs) => trs.map((tr) => tr.dataset.result));
  assert.deepEqual(rows, ['right', 'wrong', 'open', 'open', 'open', 'open', 'open', 'open']);

  // Back to question 1: its answer and explanation are still there.
  await page.click('#quiz button[name=prev]');
  assert.equal(await option(page, q1.answer).isChecked(), true);
  assert.equal(await page.textContent('#quiz .quiz-verdict'), 'Right.');
  // Start over clears everything and goes to question 1.
  await page.click('#quiz button[name=restart]');
  assert.equal((await score(page)).value, 0);
  assert.equal(await page.isHidden('#quiz .quiz-answer'), true);
  assert.equal(await option(page, q1.answer).isChecked(), false);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('keyboard only: arrows pick, Enter reveals, all eight right gives 8; the questions move by slider', async (t) => {
  const page = await openStep(b, 'quiz');
  for (let n = 0; n < KEYS.length; n++) {
    const { answer } = KEYS[n];
    // Into the radio group: focus the first option, arrow down to the right one.
    await option(page, 0).focus();
    await page.keyboard.press('Space');
    for (let k = 0; k < answer; k++) await page.keyboard.press('ArrowDown');
    assert.equal(await option(page, answer).isChecked(), true, `question ${n + 1}`);
    assert.equal(await page.evaluate(() => document.activeElement.type), 'radio');
    await page.locator('#quiz button[name=reveal]').focus();
    await page.keyboard.press('Enter');
    assert.equal(await page.textContent('#quiz .quiz-verdict'), 'Right.', `question ${n + 1}`);
    assert.equal((await score(page)).value, n + 1);
    // Next question by the slider and an arrow key.
    if (n < KEYS.length - 1) {
      await page.locator('#quiz input[name=q]').focus();
      await page.keyboard.press('ArrowRight');
      assert.equal((await urlParams(page)).q, String(n + 2));
      assert.equal((await readout(page, 'quiz', 'question')).value, n + 2);
    }
  }
  assert.match((await score(page)).text, /^8 right of 8 revealed/);
  // At the last question Next is marked off and changes nothing; Home on the slider goes back.
  assert.equal(await page.getAttribute('#quiz button[name=next]', 'aria-disabled'), 'true');
  await page.locator('#quiz button[name=next]').focus();
  await page.keyboard.press('Enter');
  assert.equal((await urlParams(page)).q, '8');
  await page.locator('#quiz input[name=q]').focus();
  await page.keyboard.press('Home');
  assert.equal((await urlParams(page)).q, '1');
  const times = await updateTimes(page, 'quiz');
  t.diagnostic(`update p95 ${percentile(times, 95).toFixed(2)} ms over ${times.length}`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the URL opens a question, and bad values of q are clamped', async () => {
  for (const [query, want] of [['q=5', 5], ['q=99', 8], ['q=-2', 1], ['q=abc', 1], ['q=3.6', 4]]) {
    const page = await openStep(b, 'quiz', query);
    assert.equal((await urlParams(page)).q, String(want), query);
    assert.equal(await page.inputValue('#quiz input[name=q]'), String(want));
    const legend = await page.textContent('#quiz legend');
    assert.ok(legend.startsWith(`Question ${want} of 8.`) && legend.includes(en[`quiz.${KEYS[want - 1].key}.text`]), legend);
    assert.deepEqual(page.errors, []);
    await page.close();
  }
  const page = await openStep(b, 'quiz', 'q=2');
  await setSlider(page, 'quiz', 'q', 7);
  const url = await pageUrl(page);
  await page.close();
  const again = await b.newPage();
  await again.goto(url);
  await again.waitForSelector('body[data-ready=true]');
  assert.equal(await again.inputValue('#quiz input[name=q]'), '7');
  assert.ok((await again.textContent('#quiz legend')).includes(en[`quiz.${KEYS[6].key}.text`]));
  await again.close();
});

test('every question sits inside its card\'s border, at 1280 and at 375 px, however many lines it takes', async () => {
  for (const width of [1280, 375]) {
    const page = await openStep(b, 'quiz');
    await page.setViewportSize({ width, height: 900 });
    for (let q = 1; q <= 8; q++) {
      await setSlider(page, 'quiz', 'q', q);
      // A fieldset draws its top border through its legend: a legend of two lines had the
      // border between them. The question must start inside the card, below its border and
      // top padding (the box of a legend on the border starts at the card's own top).
      const { legend, inside, lines } = await page.evaluate(() => {
        const l = document.querySelector('#quiz legend');
        const c = document.querySelector('#quiz fieldset');
        const cs = getComputedStyle(c);
        return {
          legend: l.getBoundingClientRect().top,
          inside: c.getBoundingClientRect().top + parseFloat(cs.borderTopWidth) + parseFloat(cs.paddingTop),
          lines: Math.round(l.getBoundingClientRect().height / parseFloat(getComputedStyle(l).lineHeight)),
        };
      });
      assert.ok(legend >= inside - 0.5, `${width} px, question ${q} (${lines} lines): starts at ${legend}, above the inside of its card at ${inside}`);
    }
    await page.close();
  }
});
