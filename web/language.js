// The header's language switch. Each language is named in itself (so a reader finds their own
// whatever the page's current language); choosing one reloads the page with ?lang=<code>, and
// since every control's state is in the URL, the reader lands on the same step in the same state.
import { h } from './kit/dom.js';
import { LANGUAGES } from './i18n.js';
import { flushUrl } from './state.js';

const NAMES = { en: 'English', id: 'Bahasa Indonesia', sv: 'Svenska', ru: 'Русский' };

export function languageSwitch(m) {
  const id = 'lang-select';
  const select = h('select', { id, name: 'lang', class: 'lang-select' },
    LANGUAGES.map((code) => {
      const option = h('option', { value: code, lang: code }, NAMES[code] ?? code);
      option.selected = code === m.lang;
      return option;
    }));
  select.addEventListener('change', () => {
    // In the state shown, not the one the address bar last took.
    const url = new URL(flushUrl(), location.href);
    url.searchParams.set('lang', select.value);
    url.hash = location.hash;  // resolving a bare ?query drops the #fragment: keep it
    location.assign(url.href);
  });
  return h('div', { class: 'lang-switch' }, h('label', { for: id, class: 'theme-label' }, m.t('page.language')), select);
}
