// Readout cards: a label and a number. The element with data-readout="<name>" shows the number
// as text in the page's locale; data-value keeps the unrounded number for tests and exports.
import { h } from './dom.js';

/** phrase: the value is words ("dim 4 = 2i: sine", a sentence), which may wrap between them on
 * a phone; a number stays on one line. */
export function readout(name, label, { phrase = false } = {}) {
  const value = h('span', { class: phrase ? 'readout-value readout-phrase' : 'readout-value', 'data-readout': name }, '—');
  // Atomic: a change is read out with its label ("Angle 1.58"), not as a bare number.
  const el = h('div', { class: 'readout', 'aria-atomic': 'true' }, h('span', { class: 'readout-label' }, label), value);
  return {
    el,
    value,
    /** Shows `text` and records the exact `number`; unchanged text is left alone (not re-announced). */
    set(text, number) {
      if (value.textContent !== text) value.textContent = text;
      if (number === undefined) delete value.dataset.value;
      else if (value.dataset.value !== String(number)) value.dataset.value = String(number);
    },
  };
}

/** A row of readouts that announces changes politely to screen readers: the one live region
 * a control change speaks through (figures redraw silently). */
export function readoutRow(...cards) {
  return h('div', { class: 'readouts', 'aria-live': 'polite' }, ...cards.map((c) => c.el));
}

/** A step's second row of readouts (in its Go deeper fold): not a live region, so that a control
 * change still speaks once, through the step's main row; a reader reaches these by reading on. */
export function quietReadoutRow(...cards) {
  return h('div', { class: 'readouts' }, ...cards.map((c) => c.el));
}
