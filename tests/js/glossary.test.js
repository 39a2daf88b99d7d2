// One term per concept: each language's glossary (web/i18n/<lang>/glossary.json) names the
// term a concept is written with and the other spellings that must not appear anywhere in that
// language's catalogs; a test fails on the first catalog value that uses one.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { PARTS } from '../../web/catalog-parts.js';
import { LANGUAGES, LAB_PARTS } from '../../web/i18n.js';

const root = new URL('../../web/i18n/', import.meta.url);
const json = async (path) => JSON.parse(await readFile(new URL(path, root), 'utf8'));

/** Every catalog string of a language with the key it belongs to. */
async function strings(lang) {
  const out = [];
  for (const part of [...PARTS, ...LAB_PARTS]) {
    for (const [key, value] of Object.entries(await json(`${lang}/${part}.json`))) {
      for (const text of [].concat(value)) out.push({ key, text });
    }
  }
  return out;
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A whole-word, case-insensitive pattern for a phrase, for any script (\b is ASCII-only). */
const word = (phrase) => new RegExp(`(?<![\\p{L}\\p{N}_-])${escape(phrase)}(?![\\p{L}\\p{N}_])`, 'giu');

for (const lang of LANGUAGES) {
  test(`${lang}: the glossary's terms are used and none of their other spellings appear`, async () => {
    const glossary = await json(`${lang}/glossary.json`);
    const all = await strings(lang);
    assert.ok(glossary.terms.length >= 4, `${lang}: a glossary with a few terms`);
    const found = [];
    for (const { use, avoid, allow = [] } of glossary.terms) {
      assert.ok(all.some(({ text }) => word(use).test(text)), `${lang}: "${use}" is a glossary term but never used`);
      for (const { key, text } of all) {
        // Placeholders ({query}) and allowed phrases (names, titles, a gloss in parentheses) are
        // cut out before the search.
        const cleaned = allow.reduce((t, phrase) => t.replace(word(phrase), ' '), text.replace(/\{\w+\}/g, ' '));
        for (const bad of avoid) {
          const m = word(bad).exec(cleaned);
          if (m) found.push(`${key}: "${m[0]}" (write "${use}") in …${cleaned.slice(Math.max(0, m.index - 30), m.index + 40)}…`);
        }
      }
    }
    assert.deepEqual(found, [], `${lang}: spellings the glossary rules out`);
  });
}

test('the whole-word pattern knows Cyrillic and hyphens', () => {
  assert.ok(word('вложение').test('это вложение слова'));
  assert.ok(!word('вложение').test('вложениями'));
  assert.ok(word('key').test('a key, then'));
  assert.ok(!word('key').test('key-value'.replace('key-', 'keyvalue')));
  assert.ok(!word('layer').test('multi-layer'));
});
