// One term per concept: each language's glossary (web/i18n/<lang>/glossary.json) names the
// term a concept is written with and the other spellings that must not appear anywhere in that
// language's catalogs; a test fails on the first catalog value that uses one.
//
// A term may also say where its concept is: "en" lists the English words that carry it. Then,
// paragraph by paragraph against the English it translates, "required" asks that one of the
// term's "forms" appear wherever the English has the concept (so a hatched band is never
// called dashed, a seed is never written two ways), and "only" that its forms appear nowhere
// else (so one word never stands for two things, as streckad for dashed and hatched).
// "enExcept" lists English phrases where the word means something else ("dotted with": a dot
// product, not a line style).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LANGUAGES } from '../../web/i18n.js';
import { around, english, findAny, paragraphs, pluralReadings, readJson, word } from './catalog-text.js';

/**
 * A paragraph with placeholders ({query}) and allowed phrases cut out, its plural blocks read
 * for every category in turn (catalog-text.js pluralReadings), joined by a line break that no
 * phrase spans.
 */
const clean = (text, allow = []) => pluralReadings(text)
  .map((reading) => allow.reduce((t, phrase) => t.replace(word(phrase), ' '), reading.replace(/\{\w+\}/g, ' ')))
  .join(' \n ');

for (const lang of LANGUAGES) {
  test(`${lang}: the glossary's terms are used and none of their other spellings appear`, async () => {
    const glossary = await readJson(`${lang}/glossary.json`);
    const all = await paragraphs(lang);
    assert.ok(glossary.terms.length >= 4, `${lang}: a glossary with a few terms`);
    const found = [];
    for (const { use, forms = [use], avoid = [], allow = [] } of glossary.terms) {
      assert.ok(all.some(({ text }) => findAny(forms, text)), `${lang}: "${use}" is a glossary term but never used`);
      for (const { at, text } of all) {
        const cleaned = clean(text, allow);
        for (const bad of avoid) {
          const m = word(bad).exec(cleaned);
          if (m) found.push(`${at}: "${m[0]}" (write "${use}") in ${around(cleaned, m.index, m[0].length)}`);
        }
      }
    }
    assert.deepEqual(found, [], `${lang}: spellings the glossary rules out`);
  });

  test(`${lang}: a glossary term tied to an English word is written where the English has it, and only there`, async () => {
    const glossary = await readJson(`${lang}/glossary.json`);
    const tied = glossary.terms.filter((t) => t.en);
    assert.ok(tied.length >= 5, `${lang}: terms for seed, dashed, dotted, hatched, offset, stand-in`);
    const en = await english();
    const found = [];
    for (const { use, forms = [use], en: enWords, enExcept = [], required = false, only = false, allow = [] } of tied) {
      for (const { at, text } of await paragraphs(lang)) {
        const source = clean(en.get(at), enExcept);
        const has = findAny(forms, clean(text, allow));
        const concept = findAny(enWords, source);
        if (lang === 'en') continue;  // the English is its own source: only the avoid list applies
        if (required && concept && !has) found.push(`${at}: the English says "${concept[0]}", write "${use}": ${text.slice(0, 120)}`);
        if (only && has && !concept) found.push(`${at}: "${has[0]}" is "${enWords[0]}" only, the English has none: ${around(text, has.index, has[0].length)}`);
      }
    }
    assert.deepEqual(found, [], `${lang}: glossary terms out of place`);
  });
}

test('a phrase that runs out of a plural block is read whole', () => {
  const readings = pluralReadings('все {n, plural, one {# расстояние делит} few {# расстояния делят} other {# расстояний делят}} последнюю корзину');
  assert.deepEqual(readings.map((r) => word('делят последнюю корзину').test(r)), [false, true, true]);
  assert.equal(pluralReadings('no block here').length, 1);
  assert.ok(pluralReadings('{a, plural, one {# x} other {# xs}} and {b, plural, other {# y}}')
    .some((r) => r === '  xs and   y'));
});

test('the whole-word pattern knows Cyrillic, hyphens and a trailing * for endings', () => {
  assert.ok(word('вложение').test('это вложение слова'));
  assert.ok(!word('вложение').test('вложениями'));
  assert.ok(word('сид*').test('по сидам'));
  assert.ok(!word('сид*').test('засидка'));
  assert.ok(word('key').test('a key, then'));
  assert.ok(!word('key').test('keyvalue'));
  assert.ok(!word('layer').test('multi-layer'));
  assert.ok(word('putus-putus').test('garis putus-putus.'));
});
