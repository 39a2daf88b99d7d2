// Readout cards: a label and a number. The element with data-readout="<name>" shows the number
// as text in the page's locale; data-value keeps the unrounded number for tests and exports.
import { h } from './dom.js';

export function readout(name, label) {
  const value = h('span', { class: 'readout-value', 'data-readout': name }, '—');
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
