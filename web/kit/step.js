// The frame every step shares: "Step n of N", title, subtitle, lead, then slots the step fills
// (controls, figure, readouts) and its explanation paragraphs.
import { h } from './dom.js';

export function stepFrame(root, m, { id, index, total }) {
  const slots = {
    controls: h('div', { class: 'controls' }),
    figure: h('div', { class: 'figure' }),
    readouts: h('div', { class: 'readouts-slot' }),
    notes: h('div', { class: 'notes' }),
  };
  root.replaceChildren(
    h('p', { class: 'step-count' }, m.t('page.stepOf', { n: index + 1, total })),
    h('h2', { id: `${id}-title`, tabindex: '-1' }, m.t(`titles.${id}`)),
    h('p', { class: 'subtitle' }, m.t(`${id}.subtitle`)),
    ...m.paras(`${id}.lead`).map((p) => h('p', { class: 'lead' }, p)),
    h('div', { class: 'workbench' }, slots.controls, slots.figure, slots.readouts),
    slots.notes,
  );
  root.setAttribute('aria-labelledby', `${id}-title`);
  return slots;
}

/** Paragraphs of a catalog key into an element. */
export function paragraphs(el, m, key, vars) {
  el.append(...m.paras(key, vars).map((p) => h('p', {}, p)));
}
