// Form controls with their labels and visible values. Every control carries name="<param>",
// the contract tests and embeds rely on.
import { h } from './dom.js';
import { bounds } from './params.js';

/**
 * A labelled range slider with its value shown beside it.
 * @returns {{el: HTMLElement, input: HTMLInputElement, set(value:number):void}}
 */
export function slider({ name, label, min, max, step = 1, value, onInput, format = String }) {
  const id = `ctl-${name}-${Math.random().toString(36).slice(2, 8)}`;
  // <output> is a live region of its own; the slider already speaks its value (aria-valuetext),
  // so the visible copy is hidden from screen readers rather than announced twice.
  const output = h('output', { for: id, class: 'slider-value', 'aria-hidden': 'true' }, format(value));
  const input = h('input', { type: 'range', id, name, min, max, step, value });
  // Only what changed is written: a step sets every control on every redraw, and writing the
  // same text again still replaces the text node, which the browser then lays out and paints.
  const sync = () => {
    const text = format(Number(input.value));
    if (output.textContent !== text) output.textContent = text;
    if (input.getAttribute('aria-valuetext') !== text) input.setAttribute('aria-valuetext', text);
  };
  input.addEventListener('input', () => {
    sync();
    onInput(Number(input.value));
  });
  sync();
  const el = h('div', { class: 'control slider' }, h('label', { for: id }, label), input, output);
  return {
    el,
    input,
    set(v) {
      if (input.value !== String(v)) input.value = String(v);
      sync();
    },
  };
}

/**
 * The slider of a step's parameter `name`: its range and grid from the step's params table
 * (kit/params.js), so they are stated once. `values` is the step's live values object: set()
 * follows a bound that depends on another value (a query position up to the length).
 * @returns {{el: HTMLElement, input: HTMLInputElement, set(value:number):void}}
 */
export function paramSlider(params, name, { label, values, onInput, format }) {
  const spec = params[name];
  const { min, max, step } = bounds(spec, values);
  const s = slider({ name, label, min, max, step, value: values[name], onInput, format });
  const setValue = s.set;
  s.set = (v) => {
    const now = bounds(spec, values);
    if (s.input.min !== String(now.min)) s.input.min = String(now.min);
    if (s.input.max !== String(now.max)) s.input.max = String(now.max);
    setValue(v);
  };
  return s;
}

/**
 * A group of mutually exclusive buttons (radio semantics, one tab stop, arrow keys move).
 * @returns {{el: HTMLElement, set(value):void}}
 */
export function choice({ name, label, options, value, onChange }) {
  const group = h('div', { class: 'control choice', role: 'radiogroup', 'aria-label': label });
  const inputs = options.map((o) => {
    const id = `ctl-${name}-${o.value}-${Math.random().toString(36).slice(2, 6)}`;
    const input = h('input', { type: 'radio', id, name, value: o.value });
    input.checked = String(o.value) === String(value);
    input.addEventListener('change', () => {
      if (input.checked) onChange(o.value);
    });
    group.append(h('span', { class: 'choice-item' }, input, h('label', { for: id }, o.label)));
    return input;
  });
  const labelled = h('div', { class: 'control-row' }, h('span', { class: 'control-label' }, label), group);
  return {
    el: labelled,
    set(v) {
      for (const input of inputs) {
        const checked = input.value === String(v);
        if (input.checked !== checked) input.checked = checked;
      }
    },
  };
}

/** A checkbox toggle. */
export function toggle({ name, label, checked, onChange }) {
  const id = `ctl-${name}-${Math.random().toString(36).slice(2, 8)}`;
  const input = h('input', { type: 'checkbox', id, name, role: 'switch' });
  input.checked = Boolean(checked);
  input.addEventListener('change', () => onChange(input.checked));
  return {
    el: h('div', { class: 'control toggle' }, input, h('label', { for: id }, label)),
    set(v) {
      if (input.checked !== Boolean(v)) input.checked = Boolean(v);
    },
  };
}

/** A plain button. */
export function button({ label, onClick, name }) {
  return h('button', { type: 'button', class: 'button', name, onClick }, label);
}
