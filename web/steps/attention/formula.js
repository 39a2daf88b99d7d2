// The attention step's score formula as MathML, and the wide space its readout line puts between
// the score and the probability.
import { familyScore } from '../../families.js';
import { math, mfrac, mi, mn, mo, mrow, msqrt, msub } from '../../kit/math.js';

export const mspace = () => mo('\u2003');

// s_ij for family f, as MathML (its right-hand side from web/families.js). The ALiBi head's slope
// (the model's, from the core): 1/2^k for eight heads, shown as that fraction.
export function scoreFormula(f, m, slope) {
  const sub = (name, idx) => msub(mi(name), mi(idx));
  const over = (...num) => mfrac(mrow(...num), msqrt(mi('d')));
  const plus = (x, p, idx) => mrow(mo('('), sub(x, idx), mo('+'), mi(p), mo('('), mi(idx), mo(')'), mo(')'));
  const turned = (r, x, idx) => mrow(mo('('), sub(r, idx), sub(x, idx), mo(')'));
  const slopeText = `1/${1 / slope}`;
  const parts = { content: over(sub('a', 'i'), mo('·'), sub('b', 'j')), over, sub, plus, turned, slope: mn(slopeText), mi, mo, mn, mrow };
  const lhs = [msub(mi('s'), mrow(mi('i'), mi('j'))), mo('=')];
  return math(m.t(`families.${f}.formula`, { slope: slopeText }), ...lhs, ...familyScore(f, parts));
}
