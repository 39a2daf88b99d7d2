// Number texts the steps share beyond the catalog's m.fixed (web/i18n.js: the locale's digits,
// grouping and decimal mark, negatives with U+2212).
export const MINUS = '\u2212';

/** An integer with a real minus sign and no plus: "−3", "0", "4". */
export const signed = (v) => (v < 0 ? `${MINUS}${-v}` : String(v));

/** The three marks under a colour bar for −limit … +limit: "−x", "0", "+x", where `format`
 * writes x (default: as it is). */
export const symmetricMarks = (limit, format = String) => [`${MINUS}${format(limit)}`, '0', `+${format(limit)}`];

/** What Python's f"{x:.Nf}" prints for the same binary number, in the locale's decimal mark:
 * rounded half to even, no grouping. Returns (value, digits) => text; one Intl formatter per
 * digit count. */
export function pythonFixed(lang) {
  const formats = new Map();
  return (v, digits) => {
    if (!formats.has(digits)) {
      formats.set(digits, new Intl.NumberFormat(lang, {
        minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false, roundingMode: 'halfEven',
      }));
    }
    return formats.get(digits).format(v);
  };
}
