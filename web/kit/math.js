// Native MathML (no fonts to download). Small constructors so formulas read like the maths:
// math(mi('PE'), mo('('), ...). Numbers are passed in already formatted for the locale.
import { h, mm } from './dom.js';

export const mi = (text) => mm('mi', {}, text);
export const mn = (text) => mm('mn', {}, text);
// Brackets keep their text size unless asked to stretch (stretchyMo): Firefox and WebKit size a
// formula for its fences' largest stretch, which leaves gaps between formulas set side by side
// (seen as a wide gap in the RoPE identity, tests/out/engines/*-rope.png). Chromium does not.
const FENCES = new Set(['(', ')', '[', ']', '{', '}', '|', '‖']);
export const mo = (text) => mm('mo', FENCES.has(text) ? { stretchy: 'false' } : {}, text);
/** A bracket that grows with what it encloses: around fractions. */
export const stretchyMo = (text) => mm('mo', {}, text);
export const mtext = (text) => mm('mtext', {}, text);
export const mrow = (...c) => mm('mrow', {}, ...c);
export const msup = (base, exp) => mm('msup', {}, base, exp);
export const msub = (base, sub) => mm('msub', {}, base, sub);
export const mfrac = (num, den) => mm('mfrac', {}, num, den);
export const msqrt = (...c) => mm('msqrt', {}, ...c);
/**
 * A primed name, x′: the name alone in its <mi> (a one-letter <mi> is set in italic; "θ′" in one
 * <mi> is two characters, set upright) and the prime after it as an operator.
 */
export const primed = (name) => mrow(mi(name), mo('′'));

/**
 * A formula inside a sentence (kit/step.js paragraphs): inline, its label the words a screen
 * reader says. A <math> is one box, so a line never breaks inside it.
 */
export function inlineMath(label, ...children) {
  return mm('math', { class: 'math-inline', 'aria-label': label }, mrow(...children));
}

/** A display-style formula with an accessible label. */
export function math(label, ...children) {
  return mm('math', { display: 'block', 'aria-label': label }, mrow(...children));
}

/**
 * One formula in pieces, each a list of children, that sit on one line where there is room and
 * wrap between them where there is not: MathML breaks no lines by itself, and a formula wider
 * than a phone would scroll. The label is the whole formula's, on the group (role math); the
 * pieces are its picture.
 */
export function mathPieces(label, ...pieces) {
  return h('span', { class: 'math-pieces', role: 'math', 'aria-label': label },
    pieces.map((children) => mm('math', { display: 'block', 'aria-hidden': 'true' }, mrow(...children))));
}
