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
