// The frame every step shares: its place ("Step 3 of 6"), title, subtitle, lead, then slots the
// step fills (controls, figure, readouts), its explanation (at most two short paragraphs: what
// the step exists to say), and a "Go deeper" fold holding everything past that. The fold is a
// native <details>: keyboard and screen readers know it as a disclosure; web/app.js opens it
// from ?deeper=1, writes its state back, opens it for printing and drops it when a step put
// nothing in it. The step's Save CSV buttons (web/downloads.js) go where the step says: under
// its figures (downloads: 'workbench') or at the end of its fold (downloads: 'deeper'), as the
// numbers behind the figures are depth.
import { h } from './dom.js';
import { place } from '../place.js';
import { canHover } from './pointer.js';

export function stepFrame(root, m, { id, index, total, downloads = 'workbench' }) {
  if (downloads !== 'workbench' && downloads !== 'deeper') throw new RangeError(`stepFrame: downloads is 'workbench' or 'deeper', not ${downloads}`);
  const slots = {
    controls: h('div', { class: 'controls' }),
    figure: h('div', { class: 'figure' }),
    readouts: h('div', { class: 'readouts-slot' }),
    notes: h('div', { class: 'notes' }),
    deeper: h('div', { class: 'deeper-body' }),
    // After the fold's body, so whatever the step appends there stays above the buttons.
    downloads: h('div', { class: 'downloads-slot' }),
  };
  const workbench = h('div', { class: 'workbench' }, slots.controls, slots.figure, slots.readouts);
  const fold = h('details', { class: 'deeper' }, h('summary', {}, m.t('page.deeper')), slots.deeper);
  (downloads === 'deeper' ? fold : workbench).append(slots.downloads);
  root.replaceChildren(...stepHead(m, { id, index, total }), workbench, slots.notes, fold);
  root.setAttribute('aria-labelledby', `${id}-title`);
  return slots;
}

/** A step's place ("Step 3 of 6"), title, subtitle and lead: the text above its workbench. */
export function stepHead(m, { id, index, total }) {
  const where = place(index, total);
  return [
    h('p', { class: 'step-count' }, m.t(where.group === 'idea' ? 'page.stepOf' : 'page.fieldOf', { n: where.n, total: where.of })),
    h('h2', { id: `${id}-title`, tabindex: '-1' }, m.t(`titles.${id}`)),
    h('p', { class: 'subtitle' }, glueFormulas(m.t(`${id}.subtitle`))),
    // A lead that says what the hand does ("click a patch") has a touch screen's text beside it.
    ...m.paras(!canHover() && m.has(`${id}.leadTouch`) ? `${id}.leadTouch` : `${id}.lead`).map((p) => h('p', { class: 'lead' }, glueFormulas(p))),
  ];
}

/**
 * What the opened step shows while the core loads: its head, set as the step will set it, and
 * a box that holds the room of its workbench (at least a screen: styles.css .step-pending), so
 * the text paints before the core is ready and nothing on the screen moves when the figures
 * replace the box.
 */
export function stepShell(root, m, { id, index, total }) {
  root.replaceChildren(...stepHead(m, { id, index, total }), h('div', { class: 'workbench step-pending', 'aria-busy': 'true' }));
  root.setAttribute('aria-labelledby', `${id}-title`);
}

/**
 * Paragraphs of a catalog key into an element. `formulas` maps a placeholder's name to a
 * function that makes its MathML (kit/math.js inlineMath): "{omega}" in the text becomes that
 * formula, so prose shows typeset maths, not "10000^(2i/d)". A formula keeps the punctuation
 * right after it (and an opening bracket right before it) on its line.
 */
export function paragraphs(el, m, key, vars, formulas = {}) {
  el.append(...m.paras(key, vars).map((p) => paragraph(p, formulas)));
}

const FORMULA = /(\(?)\{(\w+)\}([.,;:!?)…»”]*)/g;

/** One paragraph's text as a <p>, with the named formulas set as MathML. */
export function paragraph(text, formulas = {}) {
  return h('p', {}, ...richText(text, formulas));
}

// A formula left as text ("d/2 = 8", "cos 0 = 1", "0.36 + 0.16 = 0.52") must not break at a
// space inside it: students read "cos" / "0 = 1" and "(m −" / "n))" across two lines. A binary
// operator written with spaces on both sides is glued to its neighbours with no-break spaces,
// and so is a cos or sin to its argument. A dash in prose is – or —, never one of these.
const SPACED_OPERATOR = /(?<=\S) ([=≈−+×·≤≥<>]) (?=\S)/g;
// (Not before a Latin letter: Swedish "sin egen" is a word, not a sine.)
const FUNCTION_ARGUMENT = /(?<![\p{L}])(cos|sin) (?=[\p{N}(−\p{Script=Greek}])/gu;
export const glueFormulas = (text) => text.replace(SPACED_OPERATOR, '\u00a0$1\u00a0').replace(FUNCTION_ARGUMENT, '$1\u00a0');

/** A text's pieces: strings, and the named formulas as MathML (a label, a card's name). */
export function richText(text, formulas = {}) {
  text = glueFormulas(text);
  const parts = [];
  let at = 0;
  for (const match of text.matchAll(FORMULA)) {
    const [whole, before, name, after] = match;
    if (!formulas[name]) continue;
    parts.push(text.slice(at, match.index));
    parts.push(before || after ? h('span', { class: 'nowrap' }, before, formulas[name](), after) : formulas[name]());
    at = match.index + whole.length;
  }
  parts.push(text.slice(at));
  return parts.filter((x) => x !== '');
}
