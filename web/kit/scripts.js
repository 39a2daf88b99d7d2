// Superscript and subscript digits as text (axis ticks, legends, chips), where MathML cannot go:
// SVG text, canvas, catalog variables. A minus (hyphen-minus or U+2212) becomes the raised or
// lowered minus; anything else is kept.
const SUPER = '⁰¹²³⁴⁵⁶⁷⁸⁹';
const SUB = '₀₁₂₃₄₅₆₇₈₉';

const shift = (digits, minus) => (v) => String(v).replace(/[-\u2212\d]/g, (c) => (c >= '0' && c <= '9' ? digits[c] : minus));

/** 12 → "¹²", −3 → "⁻³". */
export const superscript = shift(SUPER, '⁻');

/** 12 → "₁₂", −3 → "₋₃". */
export const subscript = shift(SUB, '₋');

/** 10 to the power k as text: "10⁻³". */
export const powerOfTen = (k) => `10${superscript(k)}`;
