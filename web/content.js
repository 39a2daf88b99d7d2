// The text after the steps: in short, key ideas, FAQ, references. Plain text from the catalog;
// works without WebAssembly.
import { h } from './kit/dom.js';
import { REFERENCES } from './references.js';

// The FAQ: every content.faq<n>.q / .a pair of the catalog, n = 1, 2, … in order, so a new
// entry is a catalog change only.
function faqNumbers(m) {
  const numbers = [];
  for (let n = 1; m.has(`content.faq${n}.q`); n++) numbers.push(n);
  return numbers;
}

export function renderContent(root, m) {
  const faq = faqNumbers(m).map((n) => h('details', { class: 'faq-item' },
    h('summary', {}, m.t(`content.faq${n}.q`)),
    ...m.paras(`content.faq${n}.a`).map((p) => h('p', {}, p))));
  root.replaceChildren(
    h('section', { id: 'in-short', class: 'prose' },
      h('h2', {}, m.t('content.short.title')),
      ...m.paras('content.short.body').map((p) => h('p', {}, p))),
    h('section', { id: 'key-ideas', class: 'prose' },
      h('h2', {}, m.t('content.ideas.title')),
      h('ul', { class: 'ideas' }, ...m.paras('content.ideas.list').map((p) => h('li', {}, p)))),
    h('section', { id: 'faq', class: 'prose' },
      h('h2', {}, m.t('content.faq.title')), ...faq),
    h('section', { id: 'references', class: 'prose' },
      h('h2', {}, m.t('content.refs.title')),
      h('ol', { class: 'references' }, ...REFERENCES.map((r) => h('li', { id: `ref-${r.id}` },
        `${r.authors} (${r.year}). `,
        h('a', { href: r.url, rel: 'noopener' }, r.title),
        `. ${r.venue}.`)))),
  );
}
