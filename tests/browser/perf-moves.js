import { ATTENTION_FAMILIES } from '../../wasm/train.js';
// The attention step's sequence of changes at 2,048 tokens, the one tests/browser/attention.test.js
// makes in Chromium (same order, same values), which tests/quiet/chromium.test.js and the Firefox
// and WebKit timing test (tests/engines/suite.js) replay. Each change runs in the page (a function handed to the
// driver's evaluate), one change per call, so each is its own task as a person's input would be.

/**
 * How many times the quiet timing tests (tests/quiet/, every engine) load the attention page and
 * run the sequence, one load after the other, for the attention-2048 row. One load gives about
 * 51 updates, whose p95 is their third slowest: on this host three stalls of the page's main
 * thread in one run were enough to put it over its budget (Chromium, one run: walls of 29.4,
 * 18.6 and 17.6 ms for updates whose traced CPU was 5.9, 9.1 and 5.2 ms). Over three loads the
 * p95 is the eighth slowest of about 153. Each load is a new document, so its first changes pay
 * what a reader's first changes pay (the browser's caches of the scripts and the WebAssembly
 * stay warm, as after a reader's reload).
 */
export const ATTENTION_PAGES = 3;

/** The page the attention sequence starts on (as the Chromium test opens it). */
export const ATTENTION_START = 'step=attention&n=2048&i=1500&j=1490';

const FAMILIES = ATTENTION_FAMILIES;  // the registry's drawn families, as the module lists them

/** [control, value] in order: radios by value, sliders by value, the mask toggle by state. */
export const ATTENTION_MOVES = [
  ...[['rope', 1500, 1490], ['alibi', 2047, 1000], ['sinusoidal', 700, 699], ['t5', 1234, 1200],
    ['learned', 64, 64], ['none', 1999, 5]].flatMap(([family, i, j]) => [['family', family], ['i', i], ['j', j]]),
  ['view', 'difference'],
  ...FAMILIES.flatMap((family) => [['family', family], ['i', 300], ['i', 1024], ['i', 2047]]),
  ['causal', false],
  ['i', 100], ['i', 900], ['i', 1800],
  ['view', 'single'],
  ['head', 0], ['head', 7], ['head', 4],
];

/**
 * In the page: sets control `name` of step `step` to `value` and fires the event a person's
 * input fires (input for a slider, change for a radio or a checkbox). A radio already chosen is
 * left alone, as a click on it changes nothing. Returns whether anything changed.
 */
export function setControl(step, name, value) {
  const section = document.getElementById(step);
  const radio = section.querySelector(`input[type=radio][name="${name}"][value="${value}"]`);
  const el = radio ?? section.querySelector(`input[name="${name}"]`);
  if (!el) throw new Error(`step ${step}: no control ${name}`);
  if (el.type === 'radio' || el.type === 'checkbox') {
    if (el.checked === (el.type === 'radio' ? true : Boolean(value))) return false;
    el.checked = el.type === 'radio' ? true : Boolean(value);
    el.dispatchEvent(new Event('change', { bubbles: true }));
  } else {
    if (el.value === String(value)) return false;
    el.value = String(value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }
  return true;
}
