// Every language on every step: the page speaks it (lang attribute, translated title), and every
// numeric readout is written in the locale's number format and parses back, with the locale's
// rules, to the exact value the core computed (data-value).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { LANGUAGES } from '../../web/i18n.js';
import { startBrowser } from './browser.js';
import { openStep, showStep } from './steps.js';
import { STEP_IDS, WHOLE_WALK } from './step-ids.js';

let b;
before(async () => { b = await startBrowser(); });
after(async () => { await b?.close(); });

/** Parses a number written the way `lang` writes it; NaN when the text is not a number. */
export function parseLocaleNumber(text, lang) {
  const parts = new Intl.NumberFormat(lang).formatToParts(-12345.6);
  const group = parts.find((p) => p.type === 'group').value;
  const decimal = parts.find((p) => p.type === 'decimal').value;
  let t = text.trim().replace(/[\u2212\u2012\u2013]/g, '-');
  if (!/^-?[\d\s\u00a0\u202f.,]+$/.test(t)) return NaN;
  t = t.split(group).join('').replace(/[\s\u00a0\u202f]/g, '');
  if (decimal !== '.') {
    if (t.includes('.')) return NaN;  // a point is not a decimal mark in this locale
    t = t.replace(decimal, '.');
  }
  return Number(t);
}

const titles = {};
async function title(lang, id) {
  const key = `${lang}/${id}`;
  if (!(key in titles)) {
    const part = JSON.parse(await readFile(new URL(`../../web/i18n/${lang}/titles.json`, import.meta.url), 'utf8'));
    titles[key] = part[`titles.${id}`];
  }
  return titles[key];
}

for (const lang of LANGUAGES) {
  test(`${lang}: every step speaks ${lang} and writes its numeric readouts in ${lang} format`, async () => {
    const decimal = new Intl.NumberFormat(lang).formatToParts(0.5).find((p) => p.type === 'decimal').value;
    let numeric = 0;
    const page = await openStep(b, STEP_IDS[0], `lang=${lang}`, { whole: true });
    assert.equal(await page.getAttribute('html', 'lang'), lang);
    for (const id of STEP_IDS) {
      await showStep(page, id);
      assert.equal((await page.textContent(`#${id} h2`)).trim(), await title(lang, id));
      const readouts = await page.$$eval(`#${id} [data-readout][data-value]`, (els) =>
        els.map((e) => ({ name: e.dataset.readout, text: e.textContent.trim(), value: Number(e.dataset.value) })));
      for (const r of readouts) {
        const parsed = parseLocaleNumber(r.text, lang);
        if (Number.isNaN(parsed)) continue;  // a word, not a number (e.g. a sentence name)
        numeric++;
        const digits = (r.text.split(decimal)[1] ?? '').replace(/\D/g, '').length;
        assert.ok(Math.abs(parsed - r.value) <= 0.5 * 10 ** -digits + 1e-9,
          `${lang} ${id} ${r.name}: "${r.text}" vs ${r.value}`);
        if (digits > 0) assert.ok(r.text.includes(decimal), `${lang} ${id} ${r.name}: "${r.text}" uses "${decimal}"`);
      }
      assert.deepEqual(page.errors, [], `${lang} ${id}`);
    }
    await page.close();
    assert.ok(!WHOLE_WALK || numeric >= 10, `${lang}: ${numeric} numeric readouts checked`);
  });
}

test('parseLocaleNumber reads each locale and rejects the other convention', () => {
  assert.equal(parseLocaleNumber('1.18', 'en'), 1.18);
  assert.equal(parseLocaleNumber('1,18', 'sv'), 1.18);
  assert.equal(parseLocaleNumber('−0,65', 'ru'), -0.65);
  assert.equal(parseLocaleNumber('10.000,5', 'id'), 10000.5);
  assert.ok(Number.isNaN(parseLocaleNumber('1.18', 'sv')));
  assert.ok(Number.isNaN(parseLocaleNumber('Dog bites man', 'en')));
});

test('the language switch reloads the same step in the same state in the chosen language', async () => {
  const page = await openStep(b, 'rope', 'qpos=5&kpos=11');
  assert.equal(await page.inputValue('select[name=lang]'), 'en');
  await Promise.all([page.waitForURL(/lang=ru/), page.selectOption('select[name=lang]', 'ru')]);
  await page.waitForSelector('body[data-ready=true]');
  assert.equal(await page.getAttribute('html', 'lang'), 'ru');
  assert.equal(await page.inputValue('#rope input[name=qpos]'), '5');
  assert.equal(await page.inputValue('#rope input[name=kpos]'), '11');
  assert.equal((await page.textContent('#rope h2')).trim(), await title('ru', 'rope'));
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('without ?lang the browser language picks the catalog, and an unknown language falls back to English', async () => {
  const swedish = await b.newPage();
  // The browser's preference list, as a Swedish system gives it (the page reads languages first).
  await swedish.addInitScript(() => {
    Object.defineProperty(navigator, 'language', { get: () => 'sv-SE' });
    Object.defineProperty(navigator, 'languages', { get: () => ['sv-SE', 'sv'] });
  });
  await swedish.goto(`${b.url}?step=order`);
  await swedish.waitForSelector('body[data-ready=true]');
  assert.equal(await swedish.getAttribute('html', 'lang'), 'sv');
  await swedish.close();
  // The first language of the list that the page has: German first, Russian second → Russian.
  const second = await b.newPage();
  await second.addInitScript(() => {
    Object.defineProperty(navigator, 'language', { get: () => 'de-DE' });
    Object.defineProperty(navigator, 'languages', { get: () => ['de-DE', 'ru-RU', 'en'] });
  });
  await second.goto(`${b.url}?step=order`);
  await second.waitForSelector('body[data-ready=true]');
  assert.equal(await second.getAttribute('html', 'lang'), 'ru');
  await second.close();
  const page = await openStep(b, 'order', 'lang=xx');
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
  await page.close();
});
