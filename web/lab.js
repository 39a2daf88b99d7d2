// The Lab page (web/lab.html): loads the Lab's own WebAssembly module (wasm/lab/, Dear ImGui on
// a WebGL2 canvas) and keeps the address bar in step with its state. The explainer never loads
// this file; it only links here ("Open the Lab", "Open this state in the Lab").
//
// window.posencLab is a small hook for scripts and tests: set(key, value), apply(query),
// state(), readout(name, a, b) (a number the Lab shows, see wasm/lab/lab_model.hpp),
// stat(name) (frameMs, maxFrameMs, intervalMs, computeMs, frames, len), settled() (the figures
// show the current state), error() (the core's message when it refused the parameters).

import { simdSupported } from '../wasm/posenc.js';

// Where the module lives relative to this file, and the explainer relative to the page; the
// bundler (web/tools/build-dist.mjs) rewrites both for dist/.
const LAB_BASE = typeof __POSENC_LAB_BASE__ === 'undefined' ? '../wasm/dist/' : __POSENC_LAB_BASE__;
const EXPLAINER = typeof __POSENC_EXPLAINER__ === 'undefined' ? '../index.html' : __POSENC_EXPLAINER__;

// The explainer's step for each family, for the way back.
const STEP_OF_FAMILY = {
  none: 'nope', sinusoidal: 'sinusoidal', learned: 'learned', rope: 'rope', alibi: 'alibi', t5: 'relative-bias',
};
const PAGE_WIDE = ['lang', 'theme'];

const status = document.getElementById('lab-status');
const canvas = document.getElementById('lab-canvas');
const back = document.getElementById('lab-back');
const initial = new URLSearchParams(location.search);

/** Writes the Lab's state into the address bar and into the link back to the explainer. */
function writeState(query) {
  const state = new URLSearchParams(query);
  for (const name of PAGE_WIDE) if (initial.has(name)) state.set(name, initial.get(name));
  history.replaceState(null, '', `?${state}`);
  const there = new URLSearchParams({ step: STEP_OF_FAMILY[state.get('family')] ?? 'order' });
  for (const [k, v] of state) if (k !== 'family') there.set(k, v);
  back.href = `${EXPLAINER}?${there}`;
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

async function main() {
  back.href = EXPLAINER;
  if (typeof WebAssembly !== 'object') {
    status.textContent = 'The Lab needs WebAssembly, which this browser does not offer.';
    return;
  }
  if (!simdSupported()) {
    status.textContent = 'The Lab needs WebAssembly SIMD, which this browser does not offer (the explainer itself runs without it).';
    return;
  }
  if (!document.createElement('canvas').getContext('webgl2')) {
    status.textContent = 'The Lab needs WebGL2, which this browser does not offer (or has switched off).';
    return;
  }
  const url = new URL('posenc-lab.mjs', new URL(LAB_BASE, import.meta.url)).href;
  const { default: createPosencLab } = await import(url);
  const mod = await createPosencLab({ canvas, onStateChange: writeState });
  const call = (name, ret, types, args) => mod.ccall(name, ret, types, args);
  const lab = {
    set: (key, value) => call('lab_set', 'number', ['string', 'string'], [key, String(value)]) === 1,
    apply: (query) => call('lab_apply_query', null, ['string'], [query]),
    state: () => call('lab_state', 'string', [], []),
    readout: (name, a = 0, b = 0) => call('lab_readout', 'number', ['string', 'number', 'number'], [name, a, b]),
    stat: (name) => call('lab_stat', 'number', ['string'], [name]),
    settled: () => call('lab_settled', 'number', [], []) === 1,
    error: () => call('lab_error', 'string', [], []),
  };
  busy = () => lab.stat('busy') === 1;
  lab.apply(location.search);
  writeState(lab.state());
  window.posencLab = lab;
  status.textContent = 'Ready. Every number is computed by the explainer’s C++ core (WebAssembly SIMD).';
  document.body.dataset.ready = 'true';
}

main().catch((e) => {
  status.textContent = `The Lab could not start: ${e.message}`;
  console.error(e);
});
