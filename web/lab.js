// The Lab page (web/lab.html): loads the Lab's own WebAssembly module (wasm/lab/, Dear ImGui on
// a WebGL2 canvas) and keeps the address bar in step with its state. The explainer never loads
// this file; it only links here ("Open the Lab", "Open this state in the Lab").
//
// Like the explainer it follows the page's language (?lang=, else the browser's languages:
// web/i18n.js initialLanguage) with the same catalogs (web/i18n/<lang>/lab.json, whose strings
// the module shows too) and the page's theme (?theme=, the remembered choice, else the system's,
// followed live: web/theme.js). It runs the SIMD module where the loader's probe validates SIMD
// and the scalar one elsewhere; without WebGL2 it says why and links back to the steps.
//
// window.posencLab is a small hook for scripts and tests: set(key, value), apply(query),
// state(), readout(name, a, b) (a number the Lab shows, see wasm/lab/lab_model.hpp),
// stat(name) (frameMs, maxFrameMs, intervalMs, computeMs, frames, len, missingGlyphs, dark),
// settled() (the figures show the current state), error() (the core's message when it refused
// the parameters), simd (which module runs).

import { simdSupported } from '../wasm/loader.js';
import { initialLanguage, loadMessages } from './i18n.js';
import { languageSwitch } from './language.js';
import { applyTheme, initialTheme, themeSwitch } from './theme.js';
import { familyStep } from './families.js';  // the explainer's step for each family, for the way back
import { replaceUrl } from './state.js';  // within the engines' limits on history calls

// Where the module and the catalogs live relative to this file, and the explainer relative to
// the page; the bundler (web/tools/build-dist.mjs) rewrites them for dist/.
const LAB_BASE = typeof __POSENC_LAB_BASE__ === 'undefined' ? '../wasm/dist/' : __POSENC_LAB_BASE__;
const I18N_BASE = typeof __POSENC_LAB_I18N__ === 'undefined' ? './i18n/' : __POSENC_LAB_I18N__;
const EXPLAINER = typeof __POSENC_EXPLAINER__ === 'undefined' ? '../index.html' : __POSENC_EXPLAINER__;

const PAGE_WIDE = ['lang', 'theme'];

const status = document.getElementById('lab-status');
const canvas = document.getElementById('lab-canvas');
const back = document.getElementById('lab-back');
const initial = new URLSearchParams(location.search);

/** The explainer's address for a Lab state (the matching step, the shared parameters). */
function explainerHref(query) {
  const state = new URLSearchParams(query);
  const there = new URLSearchParams({ step: familyStep(state.get('family')) ?? 'order' });
  for (const [k, v] of state) if (k !== 'family') there.set(k, v);
  for (const name of PAGE_WIDE) if (initial.has(name)) there.set(name, initial.get(name));
  return `${EXPLAINER}?${there}`;
}

/** Writes the Lab's state into the address bar and into the link back to the explainer. */
function writeState(query) {
  const state = new URLSearchParams(query);
  for (const name of PAGE_WIDE) if (initial.has(name)) state.set(name, initial.get(name));
  replaceUrl(`?${state}`);
  back.href = explainerHref(query);
}

// Escape hands the keyboard back to the page (Dear ImGui keeps Tab for its own controls), unless
// Dear ImGui needs it itself: to close a list or leave a field being edited.
let busy = () => false;
canvas.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && !busy()) back.focus();
});
// Emscripten's GLFW listens on the whole window and swallows Tab and Backspace: keys typed
// while the canvas does not have focus stay with the page.
for (const type of ['keydown', 'keyup', 'keypress']) {
  window.addEventListener(type, (e) => {
    if (document.activeElement !== canvas) e.stopImmediatePropagation();
  }, true);
}

/** Is the page dark now: a forced theme, else the system's preference. */
const systemDark = matchMedia('(prefers-color-scheme: dark)');
const isDark = () => {
  const forced = document.documentElement.dataset.theme;
  return forced ? forced === 'dark' : systemDark.matches;
};

/** Says why the Lab cannot run, with a link back to the explainer's steps. */
function unavailable(m, key) {
  canvas.hidden = true;
  document.getElementById('lab-help').hidden = true;
  const link = document.createElement('a');
  link.id = 'lab-steps';
  link.href = explainerHref(location.search);
  link.textContent = m.t('lab.page.noWebgl2Link');
  status.replaceChildren(`${m.t(key)} `, link, '.');
  document.body.dataset.ready = 'unavailable';
}

let messages = null;  // the catalog, once loaded (for the message of a failed start)

async function main() {
  back.href = explainerHref(location.search);
  const theme = initialTheme(initial);
  applyTheme(theme);
  // The catalog parts lab.json and families.json go to the module as they are; 'page' gives the
  // switches' words.
  const labStrings = {};
  const loadPart = async (code, part) => {
    const res = await fetch(new URL(`${I18N_BASE}${code}/${part}.json`, import.meta.url));
    if (!res.ok) throw new Error(`catalog ${code}/${part} failed to load (${res.status})`);
    const json = await res.json();
    if (part === 'lab' || part === 'families') Object.assign(labStrings, json);
    return json;
  };
  const m = await loadMessages(initialLanguage(initial), loadPart, ['page', 'lab', 'families']);
  messages = m;
  document.documentElement.lang = m.lang;
  document.title = m.t('lab.page.title');
  document.querySelector('meta[name=description]')?.setAttribute('content', m.t('lab.page.description'));
  for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = m.t(el.dataset.i18n);
  canvas.setAttribute('aria-label', m.t('lab.page.canvas'));
  document.getElementById('lab-switches')?.replaceChildren(languageSwitch(m), themeSwitch(m, theme));
  status.textContent = m.t('lab.page.loading');

  if (typeof WebAssembly !== 'object') {
    status.textContent = m.t('lab.page.noWasm');
    return;
  }
  if (!document.createElement('canvas').getContext('webgl2')) {
    unavailable(m, 'lab.page.noWebgl2');
    return;
  }
  const simd = simdSupported();
  const url = new URL(`posenc-lab-${simd ? 'simd' : 'scalar'}.mjs`, new URL(LAB_BASE, import.meta.url)).href;
  const { default: createPosencLab } = await import(url);
  const mod = await createPosencLab({ canvas, onStateChange: writeState });
  const call = (name, ret, types, args) => mod.ccall(name, ret, types, args);
  if (call('lab_set_strings', 'number', ['string'], [JSON.stringify(labStrings)]) !== 1) {
    throw new Error('the Lab refused its catalog part');
  }
  call('lab_set_theme', null, ['number'], [isDark() ? 1 : 0]);
  if (call('lab_start', 'number', [], []) !== 1) {
    unavailable(m, 'lab.page.noWebgl2');
    return;
  }
  // The theme, live: the switch on this page sets data-theme, the system's preference may change.
  const followTheme = () => call('lab_set_theme', null, ['number'], [isDark() ? 1 : 0]);
  new MutationObserver(() => {
    initial.delete('theme');  // the switch dropped ?theme= from the address; so does the state
    followTheme();
  }).observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  systemDark.addEventListener('change', followTheme);

  const lab = {
    simd,
    set: (key, value) => call('lab_set', 'number', ['string', 'string'], [key, String(value)]) === 1,
    apply: (query) => call('lab_apply_query', null, ['string'], [query]),
    state: () => call('lab_state', 'string', [], []),
    readout: (name, a = 0, b = 0) => call('lab_readout', 'number', ['string', 'number', 'number'], [name, a, b]),
    stat: (name) => call('lab_stat', 'number', ['string'], [name]),
    settled: () => call('lab_settled', 'number', [], []) === 1,
    error: () => call('lab_error', 'string', [], []),
    tableTitle: () => call('lab_table_title', 'string', [], []),
  };
  busy = () => lab.stat('busy') === 1;
  lab.apply(location.search);
  writeState(lab.state());
  window.posencLab = lab;
  status.textContent = m.t(simd ? 'lab.page.readySimd' : 'lab.page.readyScalar');
  document.body.dataset.simd = String(simd);
  document.body.dataset.ready = 'true';
}

main().catch((e) => {
  status.textContent = messages ? messages.t('lab.page.failed', { message: e.message }) : `The Lab could not start: ${e.message}`;
  console.error(e);
});
