// The steps in reading order: the one list every other place derives its steps from — the
// page's navigation, sections and Lab links (web/app.js), the catalog parts a step loads (its
// parts; web/catalog-parts.js), the CSS bundle (web/tools/build-dist.mjs), the tests' step list
// (tests/browser/step-ids.js); tests/js/registry.test.js checks that index.html's static
// <section>s and stylesheet links follow it.
//
// Each entry is the step's manifest:
//   id     the step's id: its <section id>, ?step=, its titles.<id> key, its module web/steps/<id>/<id>.js
//   parts  the catalog parts (web/i18n/<lang>/<part>.json) its text needs, loaded with it: its
//          own, and 'families' (the position families' names) where it names families
//   style  its stylesheet, from the repository root
//   lab    (values) → the Lab state the step's "open in the Lab" link opens: the family and the
//          step's parameters the Lab shares, under the Lab's names (wasm/lab/lab_state.hpp;
//          undefined ones are left out, the Lab clamps the rest); null: the step has no Lab link
//   load   loads its module — which exports { id, params, mount } — the first time the step is
//          needed, so the page starts with the code of the step it opens on
// The import() calls stay literal: the bundler makes a chunk per step from them.
import { IDEA_STEPS } from '../place.js';

const step = (id, load, { lab = null, families = false } = {}) =>
  Object.freeze({ id, parts: Object.freeze(families ? [id, 'families'] : [id]), style: `web/steps/${id}/${id}.css`, lab, load });

export const STEPS = Object.freeze([
  step('order', () => import('./order/order.js')),
  step('sinusoidal', () => import('./sinusoidal/sinusoidal.js'), {
    lab: (v) => ({ family: 'sinusoidal', pos: v.pos, dim: v.dim }),
  }),
  step('frequencies', () => import('./frequencies/frequencies.js'), {
    lab: () => ({ family: 'sinusoidal' }),
  }),
  step('relative', () => import('./relative/relative.js'), {
    lab: (v) => ({ family: 'sinusoidal', qpos: v.i, kpos: v.j }),
  }),
  step('rope', () => import('./rope/rope.js'), {
    lab: (v) => ({ family: 'rope', qpos: v.qpos, kpos: v.kpos }),
  }),
  step('compare', () => import('./compare/compare.js'), {
    lab: (v) => ({ family: 'rope', qpos: v.m, kpos: v.n }),
  }),
  step('embedding-plus-position', () => import('./embedding-plus-position/embedding-plus-position.js'), {
    lab: (v) => ({ family: 'sinusoidal', pos: v.pos }),
  }),
  step('learned', () => import('./learned/learned.js'), {
    lab: (v) => ({ family: 'learned', pos: v.pos }),
  }),
  step('relative-bias', () => import('./relative-bias/relative-bias.js'), {
    // The Lab's T5 is bidirectional when it is not causal (wasm/lab/lab_state.cpp has no
    // 'bidirectional': it ignored the key this link used to pass).
    lab: (v) => ({ family: 't5', len: v.len, buckets: v.nb, maxDistance: v.maxd,
      causal: v.bidir === undefined ? undefined : !v.bidir, seed: v.seed, qpos: v.ti, kpos: v.tj }),
  }),
  step('alibi', () => import('./alibi/alibi.js'), {
    lab: (v) => ({ family: 'alibi', heads: v.heads, head: v.head === undefined ? undefined : v.head - 1, len: v.len }),
  }),
  step('attention', () => import('./attention/attention.js'), {
    families: true,
    lab: (v) => ({ family: v.family, len: v.n, causal: v.causal, qpos: v.i, kpos: v.j }),
  }),
  step('extend', () => import('./extend/extend.js'), {
    lab: (v) => ({ family: 'rope', scaling: v.method === 'none' ? 'default' : v.method, factor: v.factor }),
  }),
  // The model's own lab state (its lead RoPE setting, or its family), set by the step as it draws.
  step('your-model', () => import('./your-model/your-model.js'), {
    lab: (v) => v.labState ?? { family: 'rope' },
  }),
  step('vision', () => import('./vision/vision.js')),
  step('nope', () => import('./nope/nope.js'), {
    lab: (v) => ({ family: 'none', len: v.len, qpos: v.query, causal: v.causal }),
  }),
  step('train', () => import('./train/train.js'), { families: true }),
  step('choose', () => import('./choose/choose.js'), { families: true }),
  step('code', () => import('./code/code.js')),
  step('quiz', () => import('./quiz/quiz.js')),
]);

/** Every step's catalog parts, in reading order, each once. */
export const STEP_PARTS = [...new Set(STEPS.flatMap((s) => s.parts))];

/** Every step's stylesheet, in reading order (after the shared web/styles.css). */
export const STEP_STYLES = STEPS.map((s) => s.style);

// The navigation's groups, in order: how many steps each takes from the front of STEPS.
export const STEP_GROUPS = [
  { key: 'page.groupIdea', count: IDEA_STEPS },
  { key: 'page.groupField', count: STEPS.length - IDEA_STEPS },
];
