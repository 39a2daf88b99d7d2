// The catalogs' text for the lint tests (glossary.test.js, catalog-lint.test.js): every
// paragraph of a language with its key and index, so a translation's paragraph can be read
// beside the English one it translates.
import { readFile } from 'node:fs/promises';
import { PARTS } from '../../web/catalog-parts.js';
import { LAB_PARTS } from '../../web/i18n.js';

const root = new URL('../../web/i18n/', import.meta.url);
export const readJson = async (path) => JSON.parse(await readFile(new URL(path, root), 'utf8'));

/** Every paragraph of a language: { at: 'key[i]', key, i, text }. */
export async function paragraphs(lang) {
  const out = [];
  for (const part of [...PARTS, ...LAB_PARTS]) {
    for (const [key, value] of Object.entries(await readJson(`${lang}/${part}.json`))) {
      [].concat(value).forEach((text, i) => out.push({ at: `${key}[${i}]`, key, i, text }));
    }
  }
  return out;
}

/** The English paragraph each `at` translates. */
export async function english() {
  return new Map((await paragraphs('en')).map((p) => [p.at, p.text]));
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A whole-word, case-insensitive pattern for a phrase in any script (\b is ASCII-only). A
 * trailing * stands for any further letters ("сид*" matches сид, сида, сидами).
 */
export function word(phrase) {
  const stem = phrase.endsWith('*');
  const body = escape(stem ? phrase.slice(0, -1) : phrase);
  return new RegExp(`(?<![\\p{L}\\p{N}_-])${body}${stem ? '\\p{L}*' : ''}(?![\\p{L}\\p{N}_])`, 'giu');
}

/** The first match of any of the phrases in text, or null. */
export function findAny(phrases, text) {
  for (const phrase of phrases) {
    const m = word(phrase).exec(text);
    if (m) return m;
  }
  return null;
}

/** A stretch of text around a match, for a failure message. */
export const around = (text, index, length = 0) => `…${text.slice(Math.max(0, index - 30), index + length + 30)}…`;

/**
 * A paragraph as it reads for each plural category: every {name, plural, cat {…} …} block
 * replaced by its branch for that category (or its `other`), `#` by the count's place. So a
 * phrase that runs out of a block ("{n, plural, one {делит} other {делят}} последнюю корзину")
 * is found whole in one of the readings.
 */
export function pluralReadings(text) {
  const blocks = [];
  const open = /\{(\w+), plural,/g;
  for (let m; (m = open.exec(text));) {
    const branches = new Map();
    let i = m.index + m[0].length;
    for (;;) {
      const head = /^\s*(=?\w+)\s*\{/.exec(text.slice(i));
      if (!head) break;
      let depth = 1;
      let j = i + head[0].length;
      for (; j < text.length && depth; j++) depth += text[j] === '{' ? 1 : text[j] === '}' ? -1 : 0;
      branches.set(head[1], text.slice(i + head[0].length, j - 1).replace(/#/g, ' '));
      i = j;
    }
    const close = text.indexOf('}', i);
    blocks.push({ start: m.index, end: close + 1, branches });
    open.lastIndex = close + 1;
  }
  if (blocks.length === 0) return [text];
  const categories = new Set(blocks.flatMap((b) => [...b.branches.keys()]));
  return [...categories].map((cat) => {
    let out = '';
    let at = 0;
    for (const b of blocks) {
      out += text.slice(at, b.start) + (b.branches.get(cat) ?? b.branches.get('other') ?? ' ');
      at = b.end;
    }
    return out + text.slice(at);
  });
}
