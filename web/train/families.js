// How each position family looks in the train step's figures: a CSS class (its colour and dash
// pattern, train.css) and its name from the catalog (families.json: families.<family>).
export const familyClass = (family) => `fam fam-${family}`;
export const familyName = (m, family) => m.t(`families.${family}`);

/** A list of family names in the page's language ("RoPE, ALiBi and NoPE"), or `none`. */
export function familyList(m, families, none) {
  if (!families.length) return none;
  return new Intl.ListFormat(m.lang, { type: 'conjunction' }).format(families.map((f) => familyName(m, f)));
}
