// Page start-up: the catalog, then the text (which never needs WebAssembly), then the core and
// the steps. One step shows at a time; ?step=<id>&<param>=<value> opens a step in a state;
// &embed=1 shows that step alone for an iframe (see web/embed.js).
import { loadPosenc } from '../wasm/posenc.js';
import { addDownloads } from './downloads.js';
import { embedPanel, reportHeight } from './embed.js';
import { stepTools } from './step-tools.js';
import { h } from './kit/dom.js';
import { collectFigures } from './kit/figures.js';
import { keyboardScrollers } from './kit/scrollers.js';
import { settleParams } from './kit/params.js';
import { stepShell } from './kit/step.js';
import { applyMessages, CONTENT_PARTS, fetchPart, initialLanguage, loadMessages } from './i18n.js';
import { readParams, writeParams } from './state.js';
import { STEPS, STEP_GROUPS } from './steps/index.js';
import { place } from './place.js';
import { languageSwitch } from './language.js';
import { applyTheme, initialTheme, themeSwitch } from './theme.js';
import { trainPlatform } from './train/platform.js';

// The page keeps at most this many update and arrival measures in all: past it they are cleared
// and counting starts again, so a long session does not pile up timeline entries (a test reads a
// few hundred at most).
const KEPT_MEASURES = 1000;
// Every step's "Go deeper" fold (kit/step.js) is open with ?deeper=1, so a course can link to a
// step with its depth showing; closed, the parameter is left out of the address.
const DEEPER = Object.freeze({ type: 'bool', default: false, quiet: true });
const measured = new Set();  // the measure names in use
let kept = 0;

function timedFor(name, after = () => {}) {
  // performance measures around every update: the browser tests read them to report p95 times.
  measured.add(name);
  return (fn) => {
    const start = performance.now();
    fn();
    if (kept === KEPT_MEASURES) {
      for (const n of measured) performance.clearMeasures(n);
      kept = 0;
    }
    performance.measure(name, { start, end: performance.now() });
    kept++;
    after();
  };
}

// Where the built core modules live relative to this file; the bundler rewrites it. The trainer
// modules sit beside them; the trainer's worker script and the reference run's data have the
// same place relative to this file in the source and in dist/.
const CORE_BASE = typeof __POSENC_CORE_BASE__ === 'undefined' ? '../wasm/dist/' : __POSENC_CORE_BASE__;
// dist/ keeps each step's styles apart (steps/<id>.css), loaded with the step; from source
// index.html links every step's stylesheet, and the single file inlines them: null there.
const STEP_STYLES = typeof __POSENC_STEP_STYLES__ === 'undefined' ? null : __POSENC_STEP_STYLES__;

/** Adds the step's stylesheet; resolves once it has loaded (or failed: the step still works). */
function stepStyles(id) {
  if (!STEP_STYLES) return null;
  const link = h('link', { rel: 'stylesheet', href: new URL(`${STEP_STYLES}${id}.css`, import.meta.url).href });
  document.head.append(link);
  return new Promise((resolve) => {
    link.addEventListener('load', resolve, { once: true });
    link.addEventListener('error', resolve, { once: true });
  });
}
const TRAIN_WORKER = './train/worker.js';
const TRAIN_DATA = './data/train-reference.json';

// The Lab (web/lab.html; dist/lab.html) sits beside this file and is only linked, never loaded
// here. The single file has no Lab beside it: its bundle defines this as null (no Lab links).
const LAB_PAGE = typeof __POSENC_LAB_PAGE__ === 'undefined' ? 'lab.html' : __POSENC_LAB_PAGE__;
/** The Lab's address with these parameters (and the page's language and theme). */
function labHref(params = {}) {
  const url = new URL(LAB_PAGE, import.meta.url);
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null) url.searchParams.set(name, typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
  }
  const query = new URLSearchParams(location.search);
  for (const name of ['lang', 'theme']) if (query.has(name)) url.searchParams.set(name, query.get(name));
  return url.href;
}

/**
 * @param {{loadCore?: (o:object) => Promise<object>, loadPart?: (lang:string, part:string) => Promise<object>,
 *   train?: object}} [platform]
 *   how to get the core, the catalogs and the trainer's parts (web/train/platform.js); the
 *   defaults fetch them next to this file.
 */
export async function start({
  loadCore = (o) => loadPosenc({ ...o, baseUrl: new URL(CORE_BASE, import.meta.url) }),
  loadPart = fetchPart,
  train = trainPlatform({
    trainerBase: new URL(CORE_BASE, import.meta.url),
    workerUrl: new URL(TRAIN_WORKER, import.meta.url),
    dataUrl: new URL(TRAIN_DATA, import.meta.url),
  }),
} = {}) {
  const query = new URLSearchParams(location.search);
  const embed = query.get('embed') === '1';
  const theme = initialTheme(query);
  applyTheme(theme);  // first, before anything waits: the page should not flash the other palette
  const requested = STEPS.find((s) => s.id === query.get('step')) ?? STEPS[0];
  // The core and the opened step's code are asked for now, beside the catalog, rather than each
  // after the one before: the first number waits for the slowest of them, not for their sum.
  const coreLoading = typeof WebAssembly === 'object'
    ? Promise.resolve().then(() => loadCore({ simd: 'auto' })).then((core) => ({ core }), (error) => ({ error }))
    : null;
  requested.load().catch(() => {});  // (prepare() below awaits the same import and reports it)
  const m = await loadMessages(initialLanguage(query), loadPart);
  document.documentElement.lang = m.lang;
  document.title = m.t('page.title');
  applyMessages(document, m);
  document.getElementById('theme-switch')?.replaceChildren(themeSwitch(m, theme));
  document.getElementById('lang-switch')?.replaceChildren(languageSwitch(m));
  if (LAB_PAGE && !embed) document.getElementById('lab-link')?.replaceChildren(h('a', { href: labHref() }, m.t('page.openLab')));
  if (embed) document.body.classList.add('embed');

  const engine = document.getElementById('engine');
  const sections = new Map(STEPS.map((step) => [step.id, document.getElementById(step.id)]));

  if (!embed) pageMenu(m);
  const nav = document.getElementById('step-nav');
  const navButtons = new Map();
  nav.setAttribute('aria-label', m.t('page.steps'));
  const link = (step, n) => {
    const b = h('button', { type: 'button', class: 'step-link', 'data-step': step.id, onClick: () => {
      setNavOpen(false);
      show(step);
    } }, h('span', { class: 'step-number' }, String(n)), h('span', { class: 'step-name' }, m.t(`titles.${step.id}`)));
    navButtons.set(step.id, b);
    return h('li', {}, b);
  };
  // Two groups, each a labelled list counted from 1: the six steps that build the idea, then
  // the rest of the field (web/place.js). On a phone the lists fold behind one line that says
  // where the reader is ("3 of 6 · Frequency bands"); on a wider screen they always show.
  let first = 0;
  const lists = h('div', { class: 'step-lists', id: 'step-lists' }, STEP_GROUPS.map(({ key, count }, g) => {
    const start = first;
    first += count;
    return h('div', { class: 'step-group' },
      h('h2', { class: 'step-group-title', id: `step-group-${g}` }, m.t(key)),
      h('ol', { 'aria-labelledby': `step-group-${g}` },
        STEPS.slice(start, first).map((step, i) => link(step, i + 1))));
  }));
  const here = h('span', { class: 'nav-here' });
  const navToggle = h('button', { type: 'button', class: 'nav-toggle', 'aria-expanded': 'false', 'aria-controls': lists.id,
    onClick: () => setNavOpen(navToggle.getAttribute('aria-expanded') !== 'true') }, here);
  function setNavOpen(open) {
    navToggle.setAttribute('aria-expanded', String(open));
    nav.classList.toggle('open', open);
  }
  nav.replaceChildren(navToggle, lists);
  /** The phone's one line: the step's place in its group and its title. */
  function showPlace(step) {
    const where = place(STEPS.indexOf(step), STEPS.length);
    here.textContent = `${m.t(where.group === 'idea' ? 'page.placeIdea' : 'page.fieldOf', { n: where.n, total: where.of })} · ${m.t(`titles.${step.id}`)}`;
  }

  // The opened step's text paints before the core is ready (its catalog is asked for beside
  // the core): its head, and a box holding its figures' room, which its mount replaces.
  if (coreLoading) {
    await Promise.all(requested.parts.map(m.load)).then(() => {
      for (const [id, section] of sections) section.hidden = id !== requested.id;
      showPlace(requested);
      stepShell(sections.get(requested.id), m, { id: requested.id, index: STEPS.indexOf(requested), total: STEPS.length });
    }, () => {});  // (prepare() below loads the same parts and reports a failure)
  }

  let core = null;
  if (!coreLoading) {
    engine.textContent = m.t('page.engine.none');
  } else {
    const loaded = await coreLoading;
    if (loaded.core) {
      core = loaded.core;
      engine.textContent = m.t(core.simd ? 'page.engine.simd' : 'page.engine.scalar');
      document.body.dataset.simd = String(core.simd);
    } else {
      engine.textContent = m.t('page.engine.failed', { message: loaded.error.message });
    }
  }
  if (!core) document.body.classList.add('no-wasm');

  const mounted = new Map();
  const modules = new Map();  // id → the step's module, once it and its text have loaded
  const paramsOf = new Map(); // id → the step's URL parameters: its own and the fold's
  const loading = new Map();

  // WebKit can settle import() of a module whose import awaits at top level (the code step's
  // program templates, fetched when the page runs from source) before the module's own body has
  // run: its exports are then uninitialised and reading one throws a ReferenceError. The body runs
  // in one go once it starts, so waiting until one export reads is enough.
  async function exportsReady(module, name) {
    for (let tries = 0; ; tries++) {
      try {
        return module[name];
      } catch (e) {
        if (!(e instanceof ReferenceError) || tries >= 500) throw e;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
  }

  /** Loads a step's module and its catalog parts (its manifest's parts), once. */
  function prepare(step) {
    if (!loading.has(step.id)) {
      loading.set(step.id, Promise.all([step.load(), ...step.parts.map(m.load), stepStyles(step.id)]).then(async ([module]) => {
        const params = await exportsReady(module, 'params');
        modules.set(step.id, module);
        paramsOf.set(step.id, { ...params, deeper: DEEPER });
      }));
    }
    return loading.get(step.id);
  }

  /** Builds a loaded step the first time it is needed (shown, or printed); later calls do nothing. */
  function mount(step) {
    const module = modules.get(step.id);
    if (mounted.has(step.id) || !module) return;
    const params = paramsOf.get(step.id);
    const values = readParams(params, step === requested ? location.search : '');
    const index = STEPS.indexOf(step);
    const section = sections.get(step.id);
    // A step that can show something without the core (the train step's reference run) says so
    // with withoutCore and is mounted with core = null.
    if (core || module.withoutCore) {
      let urlQueued = false;
      const scrollers = keyboardScrollers(section);  // wide formulas scroll by keyboard on phones
      // update:<step>: a reader's change; arrival:<step>: the step's own redraw when something it
      // waited for comes (its data, its store, the end of a training set). The update-time report
      // is per control change, so the two are measured apart.
      const timed = timedFor(`update:${step.id}`, scrollers.check);
      const timedArrival = timedFor(`arrival:${step.id}`, scrollers.check);
      // The figures the step's kit components register while it mounts get its Save PNG buttons.
      const { result: api, figures } = collectFigures(() => module.mount(section, {
        core, m, values, index, total: STEPS.length, train,
        // set = setter(render); set(patch) applies a change of the step's parameters, redraws
        // (timed, for the update-time report) and writes the URL; set.arrived(patch) does the
        // same for a change the step makes itself when something it waited for arrives.
        // The URL is written once the event that changed the values is handled (a microtask):
        // each user input still updates it at once, but a burst of changes in one task (a
        // script, a test) writes it once, not once per change.
        setter: (render) => {
          const applier = (time) => (patch) => {
            time(() => {
              settleParams(params, Object.assign(values, patch));
              render();
            });
            if (urlQueued) return;
            urlQueued = true;
            queueMicrotask(() => {
              urlQueued = false;
              writeParams(step.id, params, values);
            });
          };
          const set = applier(timed);
          set.arrived = applier(timedArrival);
          return set;
        },
      }));
      if (!embed) addDownloads(section, step.id, api, m, figures);
      foldFromUrl(section, step.id, params, values, scrollers);
      scrollers.check();
    } else {
      // Without the core the step says so where its figures would be (the footer's engine line
      // is far below).
      section.replaceChildren(h('h2', { tabindex: '-1' }, m.t(`titles.${step.id}`)),
        ...m.paras(`${step.id}.lead`).map((p) => h('p', {}, p)),
        h('p', { class: 'engine-notice' }, engine.textContent));
      values.deeper = false;
    }
    if (!embed) section.append(stepFooter(section, { id: step.id, params }, index, values));
    mounted.set(step.id, values);
  }

  let wanted = null;  // the step asked for last: a slower load of an earlier click must not win
  async function show(step, { focus = true } = {}) {
    wanted = step;
    await prepare(step);
    if (wanted !== step) return;
    for (const [id, section] of sections) section.hidden = id !== step.id;
    for (const [id, b] of navButtons) b.setAttribute('aria-current', id === step.id ? 'step' : 'false');
    showPlace(step);
    mount(step);
    writeParams(step.id, paramsOf.get(step.id), mounted.get(step.id));
    // The step's own ready signal: built and shown. body[data-ready] waits for every other
    // step's files as well; a test of one step waits for this.
    sections.get(step.id).dataset.shown = 'true';
    if (focus) sections.get(step.id).querySelector('h2')?.focus();
  }

  function stepFooter(section, step, index, values) {
    const prev = STEPS[index - 1];
    const next = STEPS[index + 1];
    // "Open this state in the Lab": its address follows the step's values as they change.
    const labState = LAB_PAGE ? STEPS[index].lab : null;
    const lab = labState && h('a', { class: 'step-lab', href: labHref(labState(values)) }, m.t('page.openLabState'));
    for (const type of ['focus', 'pointerenter', 'click']) lab?.addEventListener(type, () => { lab.href = labHref(labState(values)); });
    return h('div', { class: 'step-footer' },
      h('div', { class: 'pager' },
        prev ? h('button', { type: 'button', class: 'button', onClick: () => show(prev) }, m.t('page.prev')) : h('span'),
        // After the last step of the idea the button says where it leads: students read a plain
        // "Next" on step 6 of 6 as a broken link.
        next ? h('button', { type: 'button', class: 'button primary', onClick: () => show(next) },
          m.t(index === STEP_GROUPS[0].count - 1 ? 'page.nextField' : 'page.next')) : h('span')),
      stepTools(section, m, { embed: embedPanel(step, values, m), lab }));
  }

  await show(requested, { focus: false });
  performance.mark('posenc:ready');  // first screen interactive; tests/browser/dist.test.js reports it
  // The text after the steps (FAQ, references) comes after the first step: on a phone it is
  // screens below it, and its code and text would otherwise share the first screen's bandwidth.
  if (!embed) {
    const [{ renderContent }] = await Promise.all([import('./content.js'), ...CONTENT_PARTS.map(m.load)]);
    renderContent(document.getElementById('content'), m);
  }
  // The browser scrolls to the #fragment's element when parsing ends, before this script has
  // built #faq or #references: scroll there now, once, unless the reader has already scrolled.
  // Not in an embed: it has no such sections, and scrolling could move the host page.
  let fragment = '';
  try {
    fragment = decodeURIComponent(location.hash.slice(1));
  } catch {
    // A malformed escape (a stray %, e.g. #%E0%A4%A): no id here could match it.
  }
  const target = !embed && fragment && document.getElementById(fragment);
  if (target && scrollY === 0) target.scrollIntoView();
  if (embed) reportHeight(requested.id);
  else {
    preparePrint(() => STEPS.forEach(mount));
    // The other steps load behind the first screen, so moving on and printing need no wait.
    await Promise.all(STEPS.map(prepare));
  }
  document.body.dataset.ready = 'true';  // everything loaded: what the tests wait for
}

/**
 * The masthead's tools (language, theme, the Lab) behind a Menu button on a phone; on a wider
 * screen the styles hide the button and show the tools. Escape closes the menu and gives the
 * focus back to the button.
 */
function pageMenu(m) {
  const button = document.getElementById('menu-button');
  const menu = document.getElementById('page-menu');
  if (!button || !menu) return;
  const setOpen = (open) => {
    button.setAttribute('aria-expanded', String(open));
    menu.classList.toggle('open', open);
  };
  button.hidden = false;
  button.addEventListener('click', () => setOpen(button.getAttribute('aria-expanded') !== 'true'));
  menu.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || button.getAttribute('aria-expanded') !== 'true') return;
    setOpen(false);
    button.focus();
  });
}

/**
 * A step's "Go deeper" fold (kit/step.js), once the step is built: gone if the step put nothing
 * in it, else open as values.deeper says (?deeper=1), and each toggle by the reader written to
 * the address. The toggles printing makes (preparePrint marks the folds it opens with
 * data-printed) are not the reader's: they leave the address alone.
 */
function foldFromUrl(section, id, params, values, scrollers) {
  const fold = section.querySelector(':scope > details.deeper');
  if (fold && !fold.querySelector('.deeper-body').childElementCount && !fold.querySelector('.downloads-slot')?.childElementCount) fold.remove();
  if (!fold?.isConnected) {
    values.deeper = false;
    return;
  }
  fold.open = values.deeper;
  // The event comes a task after the change, and one event may stand for several changes: the
  // state is read from the element, not the event.
  fold.addEventListener('toggle', () => {
    if (fold.dataset.printed !== undefined) {
      if (!fold.open) delete fold.dataset.printed;  // printing is over: back as the reader left it
      return;
    }
    if (values.deeper === fold.open) return;
    values.deeper = fold.open;
    writeParams(id, params, values);
    scrollers.check();  // what the fold shows may hold a box that scrolls sideways
  });
}

/**
 * Printing gives the whole explainer: every step (built now if it never was; the print styles
 * show the hidden ones), every "Go deeper" fold and every FAQ answer open. Runs on beforeprint,
 * and when the print media query starts to match (browsers that print without the event,
 * emulated print media). What it opened closes again after printing.
 */
function preparePrint(mountAll) {
  let opened = [];
  const before = () => {
    mountAll();
    for (const d of document.querySelectorAll('main details:not([open])')) {
      if (d.classList.contains('deeper')) d.dataset.printed = '';
      d.open = true;
      opened.push(d);
    }
  };
  const after = () => {
    for (const d of opened) d.open = false;
    opened = [];
  };
  window.addEventListener('beforeprint', before);
  window.addEventListener('afterprint', after);
  window.matchMedia?.('print').addEventListener?.('change', (e) => (e.matches ? before() : after()));
}
