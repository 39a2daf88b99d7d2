// The steps in reading order: the one list every other place derives its steps from — the
// page's navigation and sections (web/app.js), the catalog parts a step loads (web/i18n.js's
// PARTS), the CSS bundle (web/tools/build-dist.mjs), the tests' step list
// (tests/browser/step-ids.js); tests/js/registry.test.js checks that index.html's static
// <section>s and stylesheet links follow it.
//
// Each entry is the step's manifest:
//   id     the step's id: its <section id>, ?step=, its titles.<id> key, its module web/steps/<id>.js
//   parts  the catalog parts (web/i18n/<lang>/<part>.json) its text needs, loaded with it
//   style  its stylesheet, from the repository root
//   load   loads its module — which exports { id, params, mount } — the first time the step is
//          needed, so the page starts with the code of the step it opens on
// The import() calls stay literal: the bundler makes a chunk per step from them.
const step = (id, load) => Object.freeze({ id, parts: Object.freeze([id]), style: `web/steps/${id}.css`, load });

export const STEPS = Object.freeze([
  step('order', () => import('./order.js')),
  step('sinusoidal', () => import('./sinusoidal.js')),
  step('frequencies', () => import('./frequencies.js')),
  step('relative', () => import('./relative.js')),
  step('rope', () => import('./rope.js')),
  step('compare', () => import('./compare.js')),
  step('embedding-plus-position', () => import('./embedding-plus-position.js')),
  step('learned', () => import('./learned.js')),
  step('relative-bias', () => import('./relative-bias.js')),
  step('alibi', () => import('./alibi.js')),
  step('attention', () => import('./attention.js')),
  step('extend', () => import('./extend.js')),
  step('vision', () => import('./vision.js')),
  step('nope', () => import('./nope.js')),
  step('train', () => import('./train.js')),
  step('choose', () => import('./choose.js')),
  step('code', () => import('./code.js')),
  step('quiz', () => import('./quiz.js')),
]);

/** Every step's catalog parts, in reading order. */
export const STEP_PARTS = STEPS.flatMap((s) => s.parts);

/** Every step's stylesheet, in reading order (after the shared web/styles.css). */
export const STEP_STYLES = STEPS.map((s) => s.style);

// The navigation's groups, in order: how many steps each takes from the front of STEPS.
const IDEA = 6;
export const STEP_GROUPS = [
  { key: 'page.groupIdea', count: IDEA },
  { key: 'page.groupField', count: STEPS.length - IDEA },
];
