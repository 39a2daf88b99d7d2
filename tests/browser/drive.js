// Control changes made inside the page and chosen by a seeded generator, each firing the main
// event a slider drag, a radio pick, a toggle or a menu choice fires: the soak's 10,000 changes
// and the update-time tables of every engine (tests/quiet/) use it. driveControls is passed to
// page.evaluate, so it is self-contained; the rest of this file runs in Node.
import { ALL_STEP_IDS } from './step-ids.js';

// The update-time tables: this many changes on every step, from the step's own seed, in
// Chromium, Firefox and WebKit alike, so that the three engines' tables count the same work.
export const TIMED_CHANGES = 40;
/** The seed of step `id`'s timed changes. */
export const timedSeed = (id) => 11 + ALL_STEP_IDS.indexOf(id);

/**
 * In the page: `count` changes to the controls of step `id` (shown first). Range inputs get a new
 * value and an input event, radios are picked (change), checkboxes flipped (change), selects moved
 * (change). `skip` names controls left alone; with `frames`, the first change waits half a
 * second and until the page has no idle-time work left (data-idle-work), and each later one for
 * the next frame, as a person's changes come. Returns how many changes it made.
 * @param {{id: string, count: number, seed: number, skip?: string[], frames?: boolean}} options
 */
export async function driveControls({ id, count, seed, skip = [], frames = false }) {
  let s = seed >>> 0;
  const random = () => {  // mulberry32
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const section = document.getElementById(id);
  if (section.hidden) {
    // Showing a step is asynchronous (its module may still be loading): wait until it is built.
    document.querySelector(`.step-link[data-step="${id}"]`).click();
    while (section.hidden || !section.querySelector('.workbench')) await new Promise((r) => setTimeout(r, 10));
  }
  // A reader's first change comes at least half a second after a step appears, and the page's
  // idle-time work (the presets' maps, the settings' values; web/kit/idle.js counts what
  // still waits on the root element) has run by then rather than inside the first updates: the
  // walk waits for both. (The count alone is not enough: work that starts once a fetch resolves
  // is not counted until then.) Polled on a timer: a frame callback would never come in a
  // hidden tab, and one pending every frame would cut the idle periods the work runs in. Idle
  // work still waiting after 20 s is a bug in the page, reported here rather than waited on.
  if (frames) {
    const start = performance.now();
    await new Promise((r) => setTimeout(r, 500));
    while (document.documentElement.dataset.idleWork) {
      if (performance.now() - start > 20000) throw new Error(`step ${id}: idle work still waiting after 20 s (${document.documentElement.dataset.idleWork})`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const controls = () => [...section.querySelectorAll('.workbench .controls :is(input[type=range], input[type=radio], input[type=checkbox], select)')]
    .filter((el) => !el.disabled && !(el.type === 'radio' && el.checked) && !skip.includes(el.name));
  let done = 0;
  for (let k = 0; k < count; k++) {
    const list = controls();
    if (!list.length) break;
    const el = list[Math.floor(random() * list.length)];
    if (el.type === 'range') {
      const min = Number(el.min);
      const max = Number(el.max);
      const step = Number(el.step) || 1;
      const span = Math.round((max - min) / step);
      let v = min + Math.floor(random() * (span + 1)) * step;
      if (String(v) === el.value) v = v === max ? min : Math.min(max, v + step);
      el.value = String(v);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    } else if (el.tagName === 'SELECT') {
      el.selectedIndex = (el.selectedIndex + 1 + Math.floor(random() * (el.options.length - 1))) % el.options.length;
      el.dispatchEvent(new Event('change', { bubbles: true }));
    } else {
      el.checked = el.type === 'radio' ? true : !el.checked;
      el.dispatchEvent(new Event('change', { bubbles: true }));
    }
    done++;
    if (frames) await new Promise(requestAnimationFrame);
  }
  return done;
}
