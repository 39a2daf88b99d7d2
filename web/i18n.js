// Message catalogs: every user-visible string comes from web/i18n/<lang>/<part>.json, one part
// per step plus the page and its closing content. Keys are prefixed by their part
// ("rope.lead"); a value is a string or a list of paragraphs. Text is always set with
// textContent, so neither a catalog nor a URL can inject markup.
//
// Placeholders are {name}. A count that a noun must agree with is a plural block,
// {name, plural, one {# токен} few {# токена} many {# токенов} other {# токена}}: the form is
// chosen by Intl.PluralRules for the language and the value (as shown, so "2,0" is a fraction),
// and # stands for the value. Forms hold plain text and #, no other placeholders.
import { whenIdle } from './kit/idle.js';

export const LANGUAGES = ['en', 'id', 'sv', 'ru'];
// What every page needs at once: the page's own text and every step's title (the navigation).
// A step's own parts (its manifest's parts, web/steps/index.js; the position families' names,
// 'families', are one of them for the steps that name families) are loaded when the step is
// first needed, and the text after the steps (CONTENT_PARTS) once the first step shows; every
// part the explainer has is listed in web/catalog-parts.js.
export const PAGE_PARTS = ['page', 'titles'];
export const CONTENT_PARTS = ['content'];
/** A plural block and, inside it, one form. */
export const PLURAL_BLOCK = /\{(\w+), plural,((?:\s*(?:zero|one|two|few|many|other)\s*\{[^{}]*\})+)\s*\}/g;
export const PLURAL_FORM = /(zero|one|two|few|many|other)\s*\{([^{}]*)\}/g;
// The Lab's part (web/lab.html and the module it runs): not the explainer's, so the single file,
// which has no Lab, leaves it out; the catalog tests check it with the others.
export const LAB_PARTS = ['lab'];

/** Fetches one catalog part from web/i18n/ (the hosted page; the single file inlines them). */
export async function fetchPart(code, part) {
  const res = await fetch(new URL(`./i18n/${code}/${part}.json`, import.meta.url));
  if (!res.ok) throw new Error(`catalog ${code}/${part} failed to load (${res.status})`);
  return res.json();
}

/**
 * The catalog of one language with `parts` loaded; `m.load(part)` adds another (once) before a
 * step that needs it is built.
 */
/**
 * Where a language starts grouping digits, when Intl's own default differs from its typesetting:
 * Russian leaves four-digit numbers whole (2048) and groups from five digits on (131 072), as its
 * prose does (tests/js/catalog-lint.test.js checks both). 'min2' is in every engine since 2023; an
 * older one reads any string as true and groups four digits too, which is only a style slip.
 */
export const GROUPING = { ru: 'min2' };
/** The catalog a language asks for: its own when the explainer has it, else English. */
export const catalogLanguage = (lang) => (LANGUAGES.includes(lang) ? lang : 'en');

export async function loadMessages(lang, loadPart = fetchPart, parts = PAGE_PARTS) {
  const code = catalogLanguage(lang);
  const messages = {};
  const loading = new Map();
  const load = (part) => {
    if (!loading.has(part)) loading.set(part, loadPart(code, part).then((json) => { Object.assign(messages, json); }));
    return loading.get(part);
  };
  await Promise.all(parts.map(load));
  const formats = new Map();
  const format = (digits) => {
    if (!formats.has(digits)) {
      formats.set(digits, new Intl.NumberFormat(code, {
        minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: GROUPING[code] ?? 'auto',
      }));
    }
    return formats.get(digits);
  };
  // Making a formatter can cost milliseconds inside an update (docs/benchmarks.md), so the ones the page writes with (0 to 6 digits) are made when the page is idle after load.
  // (WebKit has no requestIdleCallback: half a second later instead.)
  if (globalThis.document) whenIdle(() => { for (let digits = 0; digits <= 6; digits++) format(digits); }, { fallback: 500 });
  const lookup = (key) => {
    const text = messages[key];
    if (text === undefined) throw new Error(`missing message ${key}`);
    return text;
  };
  // The plural category of a value as the page writes it: a number, or its text in this
  // locale (group marks and spaces dropped, the decimal mark read, visible fraction digits kept).
  const decimalMark = format(1).formatToParts(0.5).find((p) => p.type === 'decimal').value;
  const pluralRules = new Map();
  const category = (value) => {
    let n = value;
    let digits = 0;
    if (typeof value !== 'number') {
      const text = String(value).replace(/[\s\u00a0\u202f]/g, '').replace(/\u2212/g, '-');
      const [whole, fraction = ''] = text.split(decimalMark);
      digits = fraction.length;
      n = Number(`${whole.replace(/[.,]/g, '')}.${fraction || '0'}`);
    }
    if (!Number.isFinite(n)) return 'other';
    if (!pluralRules.has(digits)) pluralRules.set(digits, new Intl.PluralRules(code, { minimumFractionDigits: digits }));
    return pluralRules.get(digits).select(n);
  };
  const fillPlural = (text, vars) => text.replace(PLURAL_BLOCK, (block, name, body) => {
    if (vars[name] === undefined) return block;
    const forms = Object.fromEntries([...body.matchAll(PLURAL_FORM)].map(([, cat, form]) => [cat, form]));
    return (forms[category(vars[name])] ?? forms.other).replace(/#/g, String(vars[name]));
  });
  const fillVars = (text, vars) => fillPlural(text, vars).replace(/\{(\w+)\}/g, (_, name) => String(vars[name] ?? `{${name}}`));
  return {
    lang: code,
    load,
    /** The message for key with {name} placeholders filled from vars. */
    t(key, vars = {}) {
      const text = lookup(key);
      return fillVars(Array.isArray(text) ? text.join(' ') : text, vars);
    },
    /** A message that is a list of paragraphs, each with placeholders filled. */
    paras(key, vars = {}) {
      const text = lookup(key);
      return (Array.isArray(text) ? text : [text]).map((p) => fillVars(p, vars));
    },
    has: (key) => key in messages,
    /** What separates numbers in a list: a semicolon where the decimal mark is a comma. */
    listSep: format(1).formatToParts(0.5).find((p) => p.type === 'decimal').value === ',' ? ';' : ',',
    /**
     * A number with exactly `digits` fraction digits in the locale's format, negative ones with
     * the minus sign U+2212 that the prose uses (Intl gives en, id and ru a hyphen-minus).
     */
    fixed: (value, digits) => format(digits).format(value).replace('-', '\u2212'),
  };
}

/** Fills every [data-i18n] element's text from the catalog. */
export function applyMessages(root, m) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = m.t(el.dataset.i18n);
}

/**
 * The language a page opens in: ?lang= when given (loadMessages falls back to English for an
 * unknown one), else the first of the browser's languages the catalogs have, else English.
 * The explainer (web/app.js) and the Lab (web/lab.js) both choose with it.
 */
export function initialLanguage(query = new URLSearchParams(location.search),
  preferred = globalThis.navigator?.languages?.length ? navigator.languages : [globalThis.navigator?.language]) {
  const asked = query.get('lang');
  if (asked !== null) return asked;
  for (const tag of preferred) {
    const code = String(tag ?? '').slice(0, 2).toLowerCase();
    if (LANGUAGES.includes(code)) return code;
  }
  return 'en';
}
