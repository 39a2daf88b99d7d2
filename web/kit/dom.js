// Building DOM without markup strings: text always becomes text nodes, attributes go through
// setAttribute, so nothing from a catalog or a URL is ever parsed as HTML.
const SVG_NS = 'http://www.w3.org/2000/svg';
const MATHML_NS = 'http://www.w3.org/1998/Math/MathML';

function build(doc, ns, tag, attrs, children) {
  const el = ns ? doc.createElementNS(ns, tag) : doc.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === 'dataset') {
      Object.assign(el.dataset, value);
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** An HTML element: h('p', { class: 'x' }, 'text', h('b', {}, 'bold')). */
export function h(tag, attrs = {}, ...children) {
  return build(document, null, tag, attrs, children);
}

/** An SVG element. */
export function s(tag, attrs = {}, ...children) {
  return build(document, SVG_NS, tag, attrs, children);
}

/** A MathML element. */
export function mm(tag, attrs = {}, ...children) {
  return build(document, MATHML_NS, tag, attrs, children);
}

/** Replaces an element's children. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}
