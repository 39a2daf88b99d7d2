// What the three panels of step "relative-bias" share: their sizes, the T5 settings made
// consistent, and small MathML pieces.
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

/** The T5 values made consistent: len on its 16 grid, nb even, maxd above the exact range, the
 * pair inside the sequence (the core rejects maxd <= exact: its log would be 0 or negative). */
export function t5Consistent(v) {
  const len = Math.min(T5_LEN.max, Math.max(T5_LEN.min, Math.round(v.len / T5_LEN.step) * T5_LEN.step));
  const nb = Math.max(4, 2 * Math.round(v.nb / 2));
  const maxd = Math.max(v.maxd, exactCount(nb, v.bidir) + 1);
  return { len, nb, maxd, ti: Math.min(v.ti, len - 1), tj: Math.min(v.tj, len - 1) };
}

export const sub = (base, index) => msub(mi(base), index);
export const fence = (...c) => mrow(mo('('), ...c, mo(')'));
export const mspace = () => mm('mspace', { width: '0.6em' });
