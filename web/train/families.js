// How each position family looks in the train step's figures: a CSS class (its colour and dash
// pattern, train.css) and its name (web/families.js, from the catalog part families.json).
import { familyName } from '../families.js';

export { familyName };
export const familyClass = (family) => `fam fam-${family}`;

// One list formatter per language: a redraw writes several lists, and making the first costs
// milliseconds (2–7 ms in Chromium profiles).
const lists = new Map();

/** The page language's list formatter, made on first use. */
export function listFormat(m) {
  if (!lists.has(m.lang)) lists.set(m.lang, new Intl.ListFormat(m.lang, { type: 'conjunction' }));
  return lists.get(m.lang);
}

/** A list of family names in the page's language ("RoPE, ALiBi and NoPE"), or `none`. */
export function familyList(m, families, none) {
  if (!families.length) return none;
  return listFormat(m).format(families.map((f) => familyName(m, f)));
}
