// Small MathML pieces the three panels of step "relative-bias" share (their sizes and T5's
// bucket counts: model.js).
import { mm } from '../../kit/dom.js';
import { mi, mo, mrow, msub } from '../../kit/math.js';

export const sub = (base, index) => msub(mi(base), index);
export const fence = (...c) => mrow(mo('('), ...c, mo(')'));
export const mspace = () => mm('mspace', { width: '0.6em' });
