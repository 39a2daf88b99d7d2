// Typography and agreement in every catalog, each a class of error a native reader notices at
// once and a translator can bring back with any edit:
//   - a count placeholder followed by a word that agrees with it is a plural block ("{beta}
//     оборотов" reads "32 оборотов");
//   - numbers in prose follow the language: its group mark and where it groups, its decimal
//     mark, ";" between the numbers of a vector when the decimal mark is a comma ("[0,51; −0,22]",
//     never "[0,51, −0,22]"), and a non-breaking space before % or a unit where the language sets a
//     space, so the number never ends one line and its unit starts the next;
//   - the language's quotation marks;
//   - in Russian, a non-breaking space before an em dash that follows a word, so no line starts
//     with the dash;
//   - no English left in a translation but the words its glossary keeps ("keep"), the words
//     the language spells as English does ("shared") and names ("keepPhrases").
// The glossary also lists the words a count agrees with ("counted", besides every word a plural
// block already counts), words that only look like one ("notCounted": sv rad, the radian) and
// placeholders that hold an index, not a count ("notCounts": "key {name}").
// Each test lists every violation with its key, so one run shows all that is left to fix.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LANGUAGES, PLURAL_BLOCK, loadMessages } from '../../web/i18n.js';
import { around, english, paragraphs, readJson, word } from './catalog-text.js';

const NBSP = '\u00a0';
const NNBSP = '\u202f';

// Per language: which numbers are grouped and with what, the decimal mark, whether % and units
// take a space, its quotation marks, its units (as written after a number).
const LOCALE = {
  en: { group: ',', groupFrom: 4, decimal: '.', spaceBeforePercent: false, quotes: ['\u201c', '\u201d'], units: ['ms', 'MB', 'GB', 'KB', 'MiB', 'px', 'rad'] },
  id: { group: '.', groupFrom: 4, decimal: ',', spaceBeforePercent: false, quotes: ['\u201c', '\u201d'], units: ['ms', 'MB', 'GB', 'KB', 'MiB', 'px', 'rad'] },
  sv: { group: NBSP, groupFrom: 4, decimal: ',', spaceBeforePercent: true, quotes: ['\u201d', '\u201d'], units: ['ms', 'MB', 'GB', 'KB', 'MiB', 'px', 'rad'] },
  // Russian leaves four-digit numbers whole (2048) and groups from five digits on (131 072).
  ru: { group: NBSP, groupFrom: 5, decimal: ',', spaceBeforePercent: true, quotes: ['\u00ab', '\u00bb'], units: ['мс', 'МБ', 'ГБ', 'КБ', 'МиБ', 'px', 'рад'], bindDash: true },
};

// Text that holds digits but is no number in prose: versions in names (Llama 3.1, PyTorch
// 2.6, Mistral v0.2), arXiv ids, exponents and indices of formulas (10000^(2i/d), θ_2),
// years (1900 to 2039, written without a group mark in every language here).
const NOT_PROSE_NUMBERS = [
  /\b(?:Llama|Qwen|Qwen2|PyTorch|Mistral|Python|Gemma|Phi|Node(?:\.js)?|Transformers|transformers|DeepSeek-V|ICLR|NeurIPS|ACL|arXiv:?|v|ECMAScript|Unicode|CUDA)[\s\u00a0]?\d+(?:\.\d+)+\+?/gu,
  /\d+(?:\.\d+)*\s?(?:B|M|k|K)\b/gu,
  /\d*\^\(?[^\s)]*\)?/gu,
  /\d+(?=\^)/gu,
  /[_‐-]\d+/gu,
  /(?<!\p{N}|\p{N}[.,\u00a0\u202f])(?:19|20)[0-3]\d(?!\p{N}|[.,\u00a0\u202f ]\d)/gu,
];

/** Placeholders, plural blocks and the non-numbers above blanked out of a paragraph. */
const prose = (text) => NOT_PROSE_NUMBERS.reduce((t, re) => t.replace(re, (m) => ' '.repeat(m.length)),
  text.replace(PLURAL_BLOCK, (m) => ' '.repeat(m.length)).replace(/\{\w+\}/g, (m) => '#'.repeat(m.length)));

/**
 * Every number of a paragraph with the marks inside it: digits joined by one of . , NBSP NNBSP,
 * or a plain space when three digits follow (a group a plain space broke off).
 */
const NUMBER = /(?<![\p{L}\p{N}_])\d+(?:(?:[.,\u00a0\u202f]|\s(?=\d{3}(?!\d)))\d+)*(?![\p{L}\p{N}_])/gu;

const GROUP_MARK = { en: /,/g, id: /\./g, sv: /[\u00a0\u202f]/g, ru: /[\u00a0\u202f]/g };

/** What is wrong with a number as this language writes it, or null. */
function numberFaultFor(n, lang) {
  const loc = LOCALE[lang];
  if (n.includes(' ')) return 'a plain space inside a number (a line can break there): write a non-breaking one';
  const [whole, fraction, extra] = n.split(loc.decimal);
  if (extra !== undefined) return `more than one "${loc.decimal}" (a list? write "; " between its numbers)`;
  const stray = whole.replace(GROUP_MARK[lang], '').match(/\D/);
  if (stray) return `"${stray[0]}" inside a number (the decimal mark is "${loc.decimal}")`;
  const groups = whole.split(GROUP_MARK[lang]);
  if (groups.length > 1 && (groups[0].length > 3 || groups.slice(1).some((g) => g.length !== 3))) {
    return `groups of three digits only (is "${n.match(GROUP_MARK[lang])[0]}" a decimal mark? that is "${loc.decimal}")`;
  }
  const digits = groups.join('').length;
  if (groups.length === 1 && digits >= loc.groupFrom) return `${digits} digits without a group mark: write ${JSON.stringify(loc.group)} every three`;
  if (groups.length > 1 && digits < loc.groupFrom) return `${digits} digits take no group mark in this language`;
  if (fraction !== undefined && /\D/.test(fraction)) return 'a mark inside the fraction';
  return null;
}

for (const lang of LANGUAGES) {
  test(`${lang}: numbers in prose use the language's group and decimal marks`, async () => {
    const found = [];
    for (const { at, text } of await paragraphs(lang)) {
      const clean = prose(text);
      for (const m of clean.matchAll(NUMBER)) {
        const fault = numberFaultFor(m[0], lang);
        if (fault) found.push(`${at}: "${m[0]}": ${fault} ${around(text, m.index, m[0].length)}`);
      }
    }
    assert.deepEqual(found, [], `${lang}: numbers written another language's way`);
  });
}

// A vector or list of numbers with a decimal comma: "0,51, −0,22" cannot be read.
const COMMA_LIST = /\d,\d+,[\s\u00a0]*[−\-+]?\.?\d|\d,[\s\u00a0]+[−\-+]?\d+,\d/gu;
// A vector of whole numbers in brackets, "[0, 1, 0, 1]", beside vectors written "[0,51; 0,78]":
// one vector style per language (an interval such as "[−1, 1)" ends in a parenthesis and passes).
const COMMA_VECTOR = /\[[−\-+]?\d+(?:,\d+)?(?:,[\s\u00a0]+[−\-+]?\d+(?:,\d+)?)+\]/gu;

for (const lang of LANGUAGES.filter((l) => LOCALE[l].decimal === ',')) {
  test(`${lang}: numbers in a list are separated by "; " where the decimal mark is a comma`, async () => {
    const found = [];
    for (const { at, text } of await paragraphs(lang)) {
      for (const m of prose(text).matchAll(COMMA_LIST)) found.push(`${at}: "${m[0]}" ${around(text, m.index, m[0].length)}`);
      for (const m of text.matchAll(COMMA_VECTOR)) found.push(`${at}: "${m[0]}" ${around(text, m.index, m[0].length)}`);
    }
    assert.deepEqual(found, [], `${lang}: lists of decimals with commas between them`);
  });
}

for (const lang of LANGUAGES) {
  test(`${lang}: % and units follow a number the language's way, never broken from it`, async () => {
    const { spaceBeforePercent, units } = LOCALE[lang];
    const found = [];
    const unit = units.map((u) => u.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
    // A number, or a placeholder that holds one, then a plain space or no space.
    const percent = spaceBeforePercent ? /(?:\d|\})( ?)%/gu : /(?:\d|\})([ \u00a0\u202f])%/gu;
    const plainUnit = new RegExp(`(?:\\d|\\})( )(?:${unit})(?![\\p{L}\\p{N}])`, 'gu');
    for (const { at, text } of await paragraphs(lang)) {
      const t = text.replace(PLURAL_BLOCK, (m) => ' '.repeat(m.length));
      for (const m of t.matchAll(percent)) {
        found.push(`${at}: ${spaceBeforePercent ? (m[1] ? 'a plain space before %: write a non-breaking one' : 'no space before %: write a non-breaking one') : 'no space before % in this language'} ${around(text, m.index, 2)}`);
      }
      for (const m of t.matchAll(plainUnit)) found.push(`${at}: a plain space before a unit: write a non-breaking one ${around(text, m.index, m[0].length)}`);
    }
    assert.deepEqual(found, [], `${lang}: % and units`);
  });
}

for (const lang of LANGUAGES) {
  test(`${lang}: quotations use the language's marks`, async () => {
    const [open, close] = LOCALE[lang].quotes;
    const others = ['"', '\u201c', '\u201d', '\u201e', '\u00ab', '\u00bb'].filter((q) => q !== open && q !== close);
    const found = [];
    for (const { at, text } of await paragraphs(lang)) {
      // Russian quotes inside quotes with „…“ (U+201E, U+201C); a pair of them is fine there.
      const t = lang === 'ru' ? text.replace(/\u201e[^\u201c\u00bb]*\u201c/g, (m) => ' '.repeat(m.length)) : text;
      for (const q of others) {
        const i = t.indexOf(q);
        if (i >= 0) found.push(`${at}: ${JSON.stringify(q)} (write ${open}…${close}) ${around(text, i, 1)}`);
      }
      if (open !== close) {
        const opens = t.split(open).length - 1;
        const closes = t.split(close).length - 1;
        if (opens !== closes) found.push(`${at}: ${opens} ${open} against ${closes} ${close}`);
      } else if ((t.split(open).length - 1) % 2) found.push(`${at}: an odd number of ${open}`);
    }
    assert.deepEqual(found, [], `${lang}: quotation marks`);
  });
}

// Russian binds a dash to the word before it ("слово\u00a0— …"): with a plain space there, a
// line can start with the dash. A dash that opens a paragraph has no word before it.
for (const lang of LANGUAGES.filter((l) => LOCALE[l].bindDash)) {
  test(`${lang}: an em dash after a word follows a non-breaking space`, async () => {
    const found = [];
    for (const { at, text } of await paragraphs(lang)) {
      for (const m of text.matchAll(/\S —/gu)) found.push(`${at}: a plain space before —: write a non-breaking one ${around(text, m.index, 3)}`);
    }
    assert.deepEqual(found, [], `${lang}: dashes that can start a line`);
  });
}

// Words that a Latin-script sentence shares with English without being English (maths names).
const MATHS = new Set(['sin', 'cos', 'exp', 'log', 'ln', 'pos', 'dim', 'max', 'min', 'pi', 'mod', 'softmax', 'argmax',
  'phi', 'theta', 'omega', 'alpha', 'beta', 'gamma', 'lambda', 'sigma', 'iy', 'vs']);
const LATIN_WORD = /(?<![\p{L}\p{N}_])[A-Za-z][A-Za-z'’-]*[A-Za-z](?![\p{L}\p{N}_])/gu;

/**
 * The English catalogs' words, lower-cased, split into those the English ever writes in lower
 * case (ordinary words) and the rest (names and acronyms: RoPE, Llama, Hugging Face).
 */
async function englishWords() {
  const ordinary = new Set();
  const all = new Set();
  for (const text of (await english()).values()) {
    for (const [w] of text.replace(PLURAL_BLOCK, ' ').replace(/\{\w+\}/g, ' ').matchAll(LATIN_WORD)) {
      all.add(w.toLowerCase());
      if (w === w.toLowerCase()) ordinary.add(w.toLowerCase());
    }
  }
  return { ordinary, all };
}

for (const lang of LANGUAGES.filter((l) => l !== 'en')) {
  test(`${lang}: no English left but the glossary's kept words and names`, async () => {
    const glossary = await readJson(`${lang}/glossary.json`);
    // "keep": English terms the language's ML writers use as they are; "shared": words of the
    // language that English spells the same (Swedish position, Indonesian model).
    const keep = new Set([...(glossary.keep ?? []), ...(glossary.shared ?? [])].map((w) => w.toLowerCase()));
    const phrases = [...(glossary.keepPhrases ?? []), ...glossary.terms.flatMap((t) => t.allow ?? [])];
    const { ordinary } = await englishWords();
    const found = new Map();
    for (const { at, text } of await paragraphs(lang)) {
      // Code is not prose: paths and identifiers (core/transformer_xl.hpp, rotate_half, clip(…)).
      const code = text.replace(PLURAL_BLOCK, ' ').replace(/\{\w+\}/g, ' ').replace(/[\w.-]*[/_][\w./-]*|\w+(?=\()/g, ' ');
      const t = phrases.reduce((s, p) => s.replace(word(p), ' '), code);
      for (const [w] of t.matchAll(LATIN_WORD)) {
        const lower = w.toLowerCase();
        if (MATHS.has(lower) || keep.has(lower)) continue;
        // A Cyrillic text has no Latin word of its own; a Latin-script one shares many with
        // English, and only the English catalogs' ordinary words count there.
        if (w.length > 1 && w === w.toUpperCase()) continue;  // acronyms and names: RULER, BERT
        const english = lang === 'ru' ? (ordinary.has(lower) || !/[A-Z0-9]/.test(w.slice(1)) && w[0] === w[0].toLowerCase()) : ordinary.has(lower);
        if (english) found.set(`${at}: ${w}`, `${at}: "${w}" is English (keep it in the glossary, or translate it)`);
      }
    }
    assert.deepEqual([...found.values()], [], `${lang}: English words`);
  });
}

test('the number reader accepts each language\'s own forms and rejects the others\'', () => {
  const ok = { en: ['1,024', '131,072.5', '0.51', '16'], id: ['1.024', '131.072,5', '0,51'], sv: [`1${NBSP}024`, `131${NBSP}072,5`, '0,51'], ru: ['1024', `131${NBSP}072,5`, '0,51'] };
  const bad = { en: ['1024', '0,51'], id: ['1024', '0.51', '10000'], sv: ['1024', '1 024', '0.51'], ru: [`1${NBSP}024`, '131072', '131 072', '0.51'] };
  for (const lang of LANGUAGES) {
    for (const n of ok[lang]) assert.equal(numberFaultFor(n, lang), null, `${lang} ${n}`);
    for (const n of bad[lang]) assert.notEqual(numberFaultFor(n, lang), null, `${lang} ${n}`);
  }
  assert.equal(prose('Llama 3.1 at 10000^(2i/d) in 2023').match(NUMBER), null);
  assert.ok(COMMA_LIST.test('[0,51, −0,22, 0,88]'));
  assert.ok(!COMMA_LIST.test('[0,51; −0,22; 0,88]'));
  assert.equal('[0, 1, 0, 1] [0,51, 0,78] [0; 1; 0; 1] [−1, 1)'.match(COMMA_VECTOR).length, 2);
});

// The page's readouts (web/i18n.js m.fixed, Intl with the language's grouping) must write numbers
// the way the prose does, or a readout of 2048 would sit beside "2048" written otherwise.
test('every language writes a readout\'s number the way its prose writes it', async () => {
  for (const lang of LANGUAGES) {
    const m = await loadMessages(lang, async () => ({}), []);
    for (const v of [16, 999, 1024, 2048, 9999, 10000, 131072, 1000000]) {
      for (const digits of [0, 2]) {
        const text = m.fixed(v, digits);
        assert.equal(numberFaultFor(text, lang), null, `${lang} ${v}: "${text}"`);
      }
    }
  }
});

// The Lab's catalogs (lab.json, and families.json, which web/lab.js hands over too) are filled by
// the Lab's C++ (wasm/lab/lab_text.cpp trf), which
// replaces {name} and knows no plural blocks: a block there would be shown as it is written. Its
// counts are written so that no word agrees with them ("turns in the training length: {turns}").
test('the catalogs the Lab reads hold no plural block, in every language', async () => {
  const found = [];
  for (const lang of LANGUAGES) {
    const parts = { ...(await readJson(`${lang}/lab.json`)), ...(await readJson(`${lang}/families.json`)) };
    for (const [key, value] of Object.entries(parts)) {
      for (const text of [].concat(value)) if (text.match(PLURAL_BLOCK)) found.push(`${lang} ${key}`);
    }
  }
  assert.deepEqual(found, [], 'plural blocks the Lab cannot fill');
});

// A count placeholder followed by a word that agrees with it: "{beta} оборотов" reads "32
// оборотов", "{n} tokens" reads "1 tokens". The words that agree with a count are the glossary's
// "counted" words and every word a plural block of the language already counts (its forms);
// a placeholder followed within three words (no punctuation between) by one of them must be a
// plural block. Indonesian has no plural forms after numbers: nothing to agree with.
// (Nouns in -ений/-аний, such as значений, end like adjectives and are not skipped.)
const BETWEEN = { ru: /^(?![\p{L}-]+[ае]ний$)[\p{L}-]+(?:ых|их|ые|ие|ый|ий|ой|ая|ую|ыми|ими)$/u };

for (const lang of LANGUAGES.filter((l) => new Intl.PluralRules(l).resolvedOptions().pluralCategories.length > 1)) {
  test(`${lang}: a count placeholder followed by a word that agrees with it is a plural block`, async () => {
    const glossary = await readJson(`${lang}/glossary.json`);
    const all = await paragraphs(lang);
    const counted = new Set((glossary.counted ?? []).filter((w) => !w.endsWith('*')).map((w) => w.toLowerCase()));
    const stems = (glossary.counted ?? []).filter((w) => w.endsWith('*')).map((w) => w.slice(0, -1).toLowerCase());
    for (const { text } of all) {
      for (const [, , body] of text.matchAll(PLURAL_BLOCK)) {
        for (const [, form] of body.matchAll(/(?:zero|one|two|few|many|other)\s*\{([^{}]*)\}/g)) {
          // The word right after # agrees with the count (a noun, or an adjective before one);
          // prepositions and "из них" ("# из них успевает") do not.
          const after = form.split('#')[1]?.match(/[\p{L}-]+/gu) ?? [];
          const w = after.find((x) => !/^(?:из|них|of|av)$/u.test(x));
          if (w) counted.add(w.toLowerCase());
        }
      }
    }
    for (const w of glossary.notCounted ?? []) counted.delete(w.toLowerCase());
    // "notCounts": placeholders that hold an index or a share, not a count ("Элемент {d} вектора").
    const notCounts = new Set(glossary.notCounts ?? []);
    const agrees = (w) => counted.has(w.toLowerCase()) || stems.some((s) => w.toLowerCase().startsWith(s));
    const found = [];
    for (const { at, text } of all) {
      const rest = text.replace(PLURAL_BLOCK, (m) => '#'.repeat(m.length));
      for (const m of rest.matchAll(/\{(\w+)\}((?:[ \u00a0][\p{L}-]+){1,4})/gu)) {
        // The word after the count, past the words that agree on the way to it (Russian
        // adjectives and "из них": "{pairs} независимых случайных пар", "{n} из них успевают").
        const words = m[2].trim().split(/[ \u00a0]/);
        let i = 0;
        while (i < words.length - 1 && BETWEEN[lang]?.test(words[i])) i++;
        if (i < words.length - 1 && words[i] === 'из' && words[i + 1] === 'них') i += 2;
        const w = words[i];
        if (w && agrees(w) && !notCounts.has(`${at.replace(/\[\d+\]$/, '')} {${m[1]}}`)) found.push(`${at}: {${m[1]}} ${w}: make it a plural block ${around(text, m.index, m[0].length)}`);
      }
    }
    assert.deepEqual(found, [], `${lang}: counts without a plural block`);
  });
}
