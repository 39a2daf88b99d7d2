// Step "vision", the formulas: each encoding's definition with the current base, training grid
// and grid size, and the line that states the cosine of the two chosen patches.
import { mm } from '../../kit/dom.js';
import { math, mathPieces, mfrac, mi, mn, mo, mrow, msub, msup, mtext, primed, stretchyMo } from '../../kit/math.js';
import { D, QUARTER } from './model.js';

const omegaK = () => msub(mi('ω'), mi('k'));
const fn = (name, ...arg) => mrow(mi(name), mo('\u2061'), mo('('), ...arg, mo(')'));
const sumK = () => mm('munderover', {}, mo('∑'), mrow(mi('k'), mo('='), mn('0')), mn(String(QUARTER - 1)));
const delta = (v) => mrow(mi('Δ'), mi(v));
const cosSum = () => mrow(mfrac(mn('1'), mn(String(D / 2))), sumK(),
  mrow(mo('['), fn('cos', omegaK(), delta('c')), mo('+'), fn('cos', omegaK(), delta('r')), mo(']')));

/** The chosen encoding's formulas, as MathML, for its base, training grid and grid size. */
export function formulas(m, method, base, train, n) {
  const omega = math(m.t('vision.omegaLabel', { base, quarter: QUARTER }),
    omegaK(), mo('='), msup(mn(m.fixed(base, 0)), mrow(mo('−'), mi('k'), mo('/'), mn(String(QUARTER)))),
    mtext(m.t('vision.omegaRange', { last: QUARTER - 1 })));
  if (method === 'sincos') {
    const half = (v) => mrow(fn('sin', omegaK(), mi(v)), mo(m.listSep), fn('cos', omegaK(), mi(v)));
    return [
      // Two pieces that sit on one line on wide screens and wrap on a phone.
      math(m.t('vision.sincosLabel'),
        mi('PE'), mo('('), mi('r'), mo(','), mi('c'), mo(')'), mo('='), mo('['), half('c'), mo('|')),
      math(m.t('vision.sincosRowLabel'), half('r'), mo(']')),
      omega,
      math(m.t('vision.cosLabel'), mi('cos'), mo('='), cosSum()),
    ];
  }
  if (method === 'rope') {
    return [
      math(m.t('vision.ropeLabel', { quarter: QUARTER }),
        msub(mi('θ'), mi('k')), mo('='), mi('c'), omegaK(), mtext(m.t('vision.ropeCols', { last: QUARTER - 1 })), mo(','),
        msub(mi('θ'), mrow(mn(String(QUARTER)), mo('+'), mi('k'))), mo('='), mi('r'), omegaK()),
      omega,
      math(m.t('vision.ropeCosLabel'), mi('cos'), mo('('), primed('q'), mo(','), primed('k'), mo(')'), mo('='), cosSum()),
    ];
  }
  return [
    math(m.t('vision.resizeLabel', { t: train, n }),
      mi('s'), mo('='), mrow(stretchyMo('('), mi('i'), mo('+'), mfrac(mn('1'), mn('2')), stretchyMo(')')), mo('·'), mfrac(mn(String(train)), mn(String(n))),
      mo('−'), mfrac(mn('1'), mn('2'))),
    math(m.t('vision.lerpLabel'),
      mrow(primed('E'), mo('['), mi('i'), mo(']')), mo('='),
      mrow(mo('('), mn('1'), mo('−'), mi('λ'), mo(')')), mi('E'), mo('['), fn('floor', mi('s')), mo(']'), mo('+'),
      mi('λ'), mi('E'), mo('['), fn('floor', mi('s')), mo('+'), mn('1'), mo(']')),
  ];
}

/** cos(first patch, second patch) = its value, with Δr and Δc where the encoding depends on them only. */
export function currentLine(m, method, { r, c, r2, c2, sim }) {
  const label = m.t('vision.nowLabel', { r, c, r2, c2, sim });
  const coords = (a, b) => mrow(mo('('), mn(String(a)), mo(m.listSep), mn(String(b)), mo(')'));
  const names = {
    sincos: () => [mi('PE'), mi('PE')],
    rope: () => [primed('q'), primed('k')],
    learned: () => [primed('E'), primed('E')],
  }[method]();
  // In pieces that wrap on a narrow phone (320 px): the cosine and its value, then the offsets
  // it depends on (sin-cos and RoPE).
  const cosine = [mi('cos'), mo('('), names[0], coords(r, c), mo(','), names[1], coords(r2, c2), mo(')'), mo('='), mn(sim)];
  if (method === 'learned') return mathPieces(label, cosine);
  return mathPieces(label, [...cosine, mo(',')], [delta('r'), mo('='), mn(String(r2 - r)), mo(m.listSep), delta('c'), mo('='), mn(String(c2 - c))]);
}
