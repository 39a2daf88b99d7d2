// Readout cards: a label and a number. The element with data-readout="<name>" shows the number
// as text in the page's locale; data-value keeps the unrounded number for tests and exports.
import { h } from './dom.js';

export function readout(name, label) {
  const value = h('span', { class: 'readout-value', 'data-readout': name }, '—');
  const el = h('div', { class: 'readout' }, h('span', { class: 'readout-label' }, label), value);
  return {
    el,
    value,
    /** Shows `text` and records the exact `number`. */
    set(text, number) {
      value.textContent = text;
      if (number === undefined) delete value.dataset.value;
      else value.dataset.value = String(number);
    },
  };
}

/** A row of readouts that announces changes politely to screen readers. */
export function readoutRow(...cards) {
  return h('div', { class: 'readouts', 'aria-live': 'polite' }, ...cards.map((c) => c.el));
}
