// Colour theme: light, dark, or whatever the system prefers (the default). The header's three
// buttons choose one and localStorage remembers it; ?theme=light|dark|system overrides both for
// one page load (tests, embeds) without being remembered. The palettes live in styles.css: a
// data-theme attribute on <html> forces one, its absence follows prefers-color-scheme.
import { h } from './kit/dom.js';
import { flushUrl, replaceUrl } from './state.js';

export const THEMES = ['light', 'dark', 'system'];
const KEY = 'posenc-theme';

function stored() {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;  // storage blocked (privacy settings, sandboxed iframe): follow the system
  }
}

function remember(theme) {
  try {
    if (theme === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, theme);
  } catch {
    // not remembered; the choice still holds for this page
  }
}

/** The theme to start with: the URL's, else the remembered one, else the system's. */
export function initialTheme(query = new URLSearchParams(location.search)) {
  const asked = query.get('theme');
  if (THEMES.includes(asked)) return asked;
  const saved = stored();
  return THEMES.includes(saved) ? saved : 'system';
}

/** Puts the theme on the page: data-theme="light"|"dark", or none to follow the system. */
export function applyTheme(theme) {
  const root = document.documentElement;
  if (theme === 'light' || theme === 'dark') root.dataset.theme = theme;
  else delete root.dataset.theme;
}

/**
 * The header's theme switch: three buttons (Light, Dark, System) in a labelled group, the
 * current one aria-pressed. Choosing one applies it, remembers it, and drops ?theme= from the
 * address so the choice is what a reload shows.
 */
export function themeSwitch(m, current) {
  const buttons = THEMES.map((theme) => h('button', {
    type: 'button', class: 'theme-option', 'data-theme-option': theme,
    'aria-pressed': String(theme === current),
    onClick: () => choose(theme),
  }, m.t(`page.theme.${theme}`)));
  function choose(theme) {
    applyTheme(theme);
    remember(theme);
    for (const b of buttons) b.setAttribute('aria-pressed', String(b.dataset.themeOption === theme));
    // From the latest URL: one still waiting was made with ?theme and would bring it back.
    const query = new URLSearchParams(flushUrl());
    if (query.has('theme')) {
      query.delete('theme');
      const rest = String(query);
      replaceUrl(rest ? `?${rest}` : location.pathname);
      flushUrl();
    }
  }
  return h('div', { class: 'theme-switch', role: 'group', 'aria-label': m.t('page.theme') },
    h('span', { class: 'theme-label', 'aria-hidden': 'true' }, m.t('page.theme')), buttons);
}
