// Redrawing an SVG group in place: the kit's figures describe what to draw as [tag, attributes,
// text] parts, and patch reuses the elements the last drawing made, writing only what changed.
import { h } from './dom.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

const drawn = new WeakMap();

/**
 * Makes `group`'s children the parts [tag, attributes, text?] in order, reusing, in order, the
 * elements an earlier patch made (an old element whose tag is the part's) and writing only the
 * attributes and text that differ. Anything else a caller added to the group after a draw is
 * removed first, as a rebuild would have removed it.
 *
 * Where the next old element's tag is not the part's (a plot that drops a guide line or a series
 * before its points): if more old elements are left than parts (a surplus of s) and one of the
 * next s old elements has the part's tag, the old elements before it are removed and it is
 * reused; otherwise a new element replaces the old one while the old elements left are at least
 * as many as the parts left, and goes in before it while they are fewer. One part fewer near the
 * start then costs a removal, not a new element for every part after it (the extend step's 129
 * points were rebuilt whenever a guide line went).
 */
export function patch(group, parts) {
  for (const el of [...group.children]) if (!drawn.has(el)) el.remove();
  let el = group.firstElementChild;
  let left = group.childElementCount;  // old elements from el on
  for (let k = 0; k < parts.length; k++) {
    const [tag, attrs, text] = parts[k];
    if (el && el.localName !== tag) {
      // More old elements left than parts: if one of the next (surplus) old elements has this
      // tag, drop those before it.
      let ahead = el;
      for (let skip = left - (parts.length - k); ahead && ahead.localName !== tag && skip > 0; skip--) ahead = ahead.nextElementSibling;
      if (ahead?.localName === tag) {
        while (el !== ahead) {
          const next = el.nextElementSibling;
          el.remove();
          el = next;
          left--;
        }
      }
    }
    const had = el && el.localName === tag ? drawn.get(el) : null;
    if (!had) {
      const fresh = document.createElementNS(SVG_NS, tag);
      for (const name in attrs) write(fresh, name, attrs[name]);
      if (text !== undefined) fresh.textContent = text;
      drawn.set(fresh, { attrs, text });
      if (el && left >= parts.length - k) {
        const next = el.nextElementSibling;
        el.replaceWith(fresh);
        el = next;
        left--;
      } else if (el) el.before(fresh);
      else group.append(fresh);
      continue;
    }
    // The values as given are compared, not their text: the same number writes the same text,
    // and most of a redraw's numbers are the last one's (turning every value into text first cost
    // more than the writes it saved).
    for (const name in attrs) if (had.attrs[name] !== attrs[name]) write(el, name, attrs[name]);
    for (const name in had.attrs) if (!(name in attrs)) el.removeAttribute(name);
    had.attrs = attrs;
    if (had.text !== text) {
      el.textContent = text ?? '';
      had.text = text;
    }
    el = el.nextElementSibling;
    left--;
  }
  while (el) {
    const next = el.nextElementSibling;
    el.remove();
    el = next;
  }
}

/** An attribute as kit/dom.js writes it: none for null, undefined and false, '' for true. */
function write(el, name, v) {
  if (v === undefined || v === null || v === false) el.removeAttribute(name);
  else el.setAttribute(name, v === true ? '' : String(v));
}

// What an element was last filled with through legendItems or patchKeyed: the key it was filled
// for, and its first and last child then. If a caller has since added children or replaced them
// (a step that appends its own legend entry; a figure that puts back a kept drawing), the first
// or last child differs and the next call fills it again.
const filled = new WeakMap();
const stillFilled = (el, key) => {
  const f = filled.get(el);
  return f !== undefined && f.key === key && f.first === el.firstChild && f.last === el.lastChild;
};
const remember = (el, key) => filled.set(el, { key, first: el.firstChild, last: el.lastChild });

/**
 * The legend's entries, one per series with a label: a swatch in the series' class and the label.
 * Built again only when the labels or classes change (most redraws move the curves, not this).
 */
export function legendItems(legend, series) {
  const items = series.filter((l) => l.label);
  const key = JSON.stringify(items.map((l) => [l.cls, l.label]));
  if (stillFilled(legend, key)) return;
  legend.replaceChildren(...items.map((l) =>
    h('span', { class: `legend-item ${l.cls}` }, h('span', { class: 'swatch', 'aria-hidden': 'true' }), l.label)));
  remember(legend, key);
}

/**
 * patch(group, parts()) unless the group still holds what its last patch through here drew for
 * the same `key`: a plot's axes and ticks depend on its domains and size only, and most redraws
 * keep them.
 */
export function patchKeyed(group, key, parts) {
  if (stillFilled(group, key)) return;
  patch(group, parts());
  remember(group, key);
}
