// The message catalogs: every part parses, keys carry their part's prefix, no key is defined
// twice, and every key the page's code asks for exists (a static scan of m.t/m.paras calls).
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { PARTS } from '../../web/catalog-parts.js';
import { LANGUAGES, LAB_PARTS, PLURAL_BLOCK, PLURAL_FORM, loadMessages } from '../../web/i18n.js';

const root = new URL('../../web/', import.meta.url);

async function catalog(lang) {
  const all = {};
  for (const part of [...PARTS, ...LAB_PARTS]) {
    const json = JSON.parse(await readFile(new URL(`i18n/${lang}/${part}.json`, root), 'utf8'));
    for (const [key, value] of Object.entries(json)) {
      assert.ok(key.startsWith(`${part}.`), `${lang}/${part}.json: key ${key} lacks the prefix ${part}.`);
      assert.ok(!(key in all), `${lang}: ${key} is defined twice`);
      assert.ok(typeof value === 'string' || (Array.isArray(value) && value.every((p) => typeof p === 'string')),
        `${lang}: ${key} must be a string or a list of strings`);
      all[key] = value;
    }
  }
  return all;
}

async function sources(dir = root) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const url = new URL(entry.name + (entry.isDirectory() ? '/' : ''), dir);
    if (entry.isDirectory()) out.push(...await sources(url));
    else if (entry.name.endsWith('.js')) out.push({ name: url.pathname, text: await readFile(url, 'utf8') });
  }
  return out;
}

test('every language has every catalog part, with prefixed, unique keys', async () => {
  for (const lang of LANGUAGES) await catalog(lang);
});

// A label of one or two words may rightly read the same in another language ("RoPE",
// "Position", "Token"); a phrase of three or more words left identical is an untranslated one.
// Placeholders, parenthesised formula parts and maths names (sin, pos, dim...) are not words.
const MATH = new Set(['sin', 'cos', 'pos', 'dim', 'exp', 'log', 'PE', 'max', 'min']);
const words = (text) => (text.replace(/\{\w+\}/g, ' ').replace(/\([^()]*\)/g, ' ').match(/[A-Za-z]{2,}/g) ?? [])
  .filter((w) => !MATH.has(w));

test('every translation has exactly the English keys, shapes and placeholders, and no English left', async () => {
  const en = await catalog('en');
  // The names a value fills in: {name} and the counts of plural blocks, {name, plural, ...}.
  const placeholders = (v) => {
    const text = [].concat(v).join(' ');
    const plurals = [...text.matchAll(PLURAL_BLOCK)].map((m) => `{${m[1]}}`);
    const plain = text.replace(PLURAL_BLOCK, ' ').match(/\{\w+\}/g) ?? [];
    return [...new Set([...plain, ...plurals])].sort().join();
  };
  for (const lang of LANGUAGES.filter((l) => l !== 'en')) {
    const tr = await catalog(lang);
    assert.deepEqual(Object.keys(tr).sort(), Object.keys(en).sort(), `${lang}: keys differ from English`);
    for (const [key, value] of Object.entries(en)) {
      const other = tr[key];
      assert.equal(Array.isArray(other), Array.isArray(value), `${lang} ${key}: string vs list`);
      if (Array.isArray(value)) assert.equal(other.length, value.length, `${lang} ${key}: paragraph count`);
      assert.equal(placeholders(other), placeholders(value), `${lang} ${key}: placeholders`);
      if (words([].concat(value).join(' ')).length >= 3) {
        assert.notDeepEqual(other, value, `${lang} ${key} is still English`);
      }
    }
  }
});

test('every plural block names forms its language has, ends with other, and leaves no brace behind', async () => {
  for (const lang of LANGUAGES) {
    const categories = new Set(new Intl.PluralRules(lang).resolvedOptions().pluralCategories);
    for (const [key, value] of Object.entries(await catalog(lang))) {
      for (const text of [].concat(value)) {
        for (const [block, , body] of text.matchAll(PLURAL_BLOCK)) {
          const forms = [...body.matchAll(PLURAL_FORM)].map((m) => m[1]);
          assert.ok(forms.includes('other'), `${lang} ${key}: ${block} has no other form`);
          for (const f of forms) assert.ok(categories.has(f), `${lang} ${key}: ${lang} has no plural form "${f}"`);
          for (const f of categories) assert.ok(f === 'other' || forms.includes(f) || !['one', 'few', 'many'].includes(f), `${lang} ${key}: the ${f} form is missing`);
        }
        // What is left once the blocks are filled: only {name} placeholders.
        const rest = text.replace(PLURAL_BLOCK, ' ');
        assert.ok(!/\{[^}]*[,{]/.test(rest), `${lang} ${key}: a malformed plural block in ${text}`);
      }
    }
  }
});

test('plural blocks pick the form Intl.PluralRules gives for the value as written', async () => {
  const parts = (lang, part) => Promise.resolve(part === 'page'
    ? { 'page.count': lang === 'ru' ? '{n, plural, one {# токен} few {# токена} many {# токенов} other {# токена}}' : '{n, plural, one {# token} other {# tokens}}' }
    : {});
  const ru = await loadMessages('ru', parts, ['page']);
  assert.deepEqual([1, 2, 5, 11, 21, 22, 25, 101].map((n) => ru.t('page.count', { n })),
    ['1 токен', '2 токена', '5 токенов', '11 токенов', '21 токен', '22 токена', '25 токенов', '101 токен']);
  // As shown: a formatted fraction takes the fraction form, grouped thousands count as a whole.
  assert.equal(ru.t('page.count', { n: ru.fixed(2, 1) }), '2,0 токена');
  assert.equal(ru.t('page.count', { n: ru.fixed(131072, 0) }), `${ru.fixed(131072, 0)} токена`);
  assert.equal(ru.t('page.count', { n: ru.fixed(1000, 0) }), `${ru.fixed(1000, 0)} токенов`);
  const en = await loadMessages('en', parts, ['page']);
  assert.deepEqual([1, 2, 0].map((n) => en.t('page.count', { n })), ['1 token', '2 tokens', '0 tokens']);
  assert.equal(en.t('page.count', { n: en.fixed(1, 1) }), '1.0 tokens');
  assert.equal(en.t('page.count', {}), '{n, plural, one {# token} other {# tokens}}', 'without its value a block stays as it is');
});

test('every literal key the page asks for exists in the English catalog', async () => {
  const en = await catalog('en');
  const missing = [];
  for (const { name, text } of await sources()) {
    for (const [, key] of text.matchAll(/\bm\.(?:t|paras)\(\s*'([a-zA-Z0-9_.-]+)'/g)) {
      if (!(key in en)) missing.push(`${name}: ${key}`);
    }
  }
  assert.deepEqual(missing, []);
});

test('every data-i18n key in index.html exists', async () => {
  const en = await catalog('en');
  const html = await readFile(new URL('../index.html', root), 'utf8');
  const keys = [...html.matchAll(/data-i18n="([^"]+)"/g)].map((x) => x[1]);
  assert.ok(keys.length > 0);
  for (const key of keys) assert.ok(key in en, `index.html asks for ${key}`);
});
