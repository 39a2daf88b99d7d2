// What the three panels of step "relative-bias" share: their sizes, T5's bucket counts and small
// MathML pieces.
import { mm } from '../../kit/dom.js';
import { mi, mo, mrow, msub } from '../../kit/math.js';

export const SHAW_LEN = 16;
export const XL_LEN = 24;
export const XL_DIM = 16;
export const XL_BASE = 10000;
export const T5_LEN = { min: 16, max: 512, step: 16 };
export const T5_PRESET = { nb: 32, maxd: 128, bidir: true };

// T5's buckets per direction and how many of them are exact (one distance each).
export const perSide = (nb, bidir) => (bidir ? nb / 2 : nb);
export const exactCount = (nb, bidir) => Math.floor(perSide(nb, bidir) / 2);

export const sub = (base, index) => msub(mi(base), index);
export const fence = (...c) => mrow(mo('('), ...c, mo(')'));
export const mspace = () => mm('mspace', { width: '0.6em' });
