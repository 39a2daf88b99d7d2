// Embedding a step in another page: the "Embed" button's ready-to-paste <iframe> snippet, and,
// inside the iframe, a message to the parent with the content's height whenever it changes.
// A course page listens for { type: 'posenc:height', step, height } (web/examples/course.js).
import { h } from './kit/dom.js';
import { paramsQuery } from './state.js';

/** The URL of this step in its current state, chrome-less. */
export function embedUrl(step, values) {
  const url = new URL(paramsQuery(step.id, step.params, values), location.href);
  url.searchParams.set('embed', '1');
  url.hash = '';
  return url.href;
}

export function embedSnippet(step, values, title) {
  const height = Math.ceil(document.getElementById(step.id)?.getBoundingClientRect().height ?? 600);
  // The title attribute is escaped by hand: the snippet is shown as text, never parsed here.
  const safeTitle = title.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<iframe src="${embedUrl(step, values)}" title="${safeTitle}" width="100%" height="${height}" loading="lazy"></iframe>`;
}

/** The Embed button and the panel it opens (a read-only snippet and a Copy button). */
export function embedPanel(step, values, m) {
  const code = h('textarea', { class: 'embed-code', readonly: true, rows: 3, 'aria-label': m.t('page.embedCode'), spellcheck: 'false' });
  const status = h('span', { class: 'embed-status', role: 'status' });
  const copy = h('button', { type: 'button', class: 'button', onClick: async () => {
    code.select();
    try {
      await navigator.clipboard.writeText(code.value);
      status.textContent = m.t('page.embedCopied');
    } catch {
      status.textContent = m.t('page.embedSelect');
    }
  } }, m.t('page.embedCopy'));
  const panel = h('div', { class: 'embed-panel', hidden: true },
    h('p', {}, m.t('page.embedHelp')), code, h('div', { class: 'embed-actions' }, copy, status));
  const button = h('button', { type: 'button', class: 'button', name: 'embed', 'aria-expanded': 'false', onClick: () => {
    const open = panel.hidden;
    panel.hidden = !open;
    button.setAttribute('aria-expanded', String(open));
    if (open) {
      code.value = embedSnippet(step, values, m.t(`titles.${step.id}`));
      status.textContent = '';
    }
  } }, m.t('page.embed'));
  return { button, panel };
}

/** Inside an iframe: tell the parent our height now and after every change of size. */
export function reportHeight(stepId) {
  if (window.parent === window) return;
  let last = 0;
  const send = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: 'posenc:height', step: stepId, height }, '*');
  };
  new ResizeObserver(send).observe(document.body);
  send();
}
