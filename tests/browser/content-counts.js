// How many FAQ entries and references the page must show: the English catalog's faq<n> pairs
// and the reference list, read here so the tests follow the content instead of a number
// copied into each of them.
import { readFileSync } from 'node:fs';
import { REFERENCES } from '../../web/references.js';

const content = JSON.parse(readFileSync(new URL('../../web/i18n/en/content.json', import.meta.url), 'utf8'));

export const FAQ_COUNT = Object.keys(content).filter((k) => /^content\.faq\d+\.q$/.test(k)).length;
export const REFERENCE_COUNT = REFERENCES.length;
