// The steps in reading order. Each entry names the step and loads its module — which exports
// { id, params, mount } — the first time the step is needed, so the page starts with the code of
// the step it opens on; the others follow while the reader looks at it.
export const STEPS = [
  { id: 'order', load: () => import('./order.js') },
  { id: 'sinusoidal', load: () => import('./sinusoidal.js') },
  { id: 'frequencies', load: () => import('./frequencies.js') },
  { id: 'relative', load: () => import('./relative.js') },
  { id: 'rope', load: () => import('./rope.js') },
  { id: 'compare', load: () => import('./compare.js') },
  { id: 'embedding-plus-position', load: () => import('./embedding-plus-position.js') },
  { id: 'learned', load: () => import('./learned.js') },
  { id: 'relative-bias', load: () => import('./relative-bias.js') },
  { id: 'alibi', load: () => import('./alibi.js') },
  { id: 'attention', load: () => import('./attention.js') },
  { id: 'extend', load: () => import('./extend.js') },
  { id: 'vision', load: () => import('./vision.js') },
  { id: 'nope', load: () => import('./nope.js') },
  { id: 'train', load: () => import('./train.js') },
  { id: 'choose', load: () => import('./choose.js') },
  { id: 'code', load: () => import('./code.js') },
  { id: 'quiz', load: () => import('./quiz.js') },
];

// The navigation's groups, in order: how many steps each takes from the front of STEPS.
const IDEA = 6;
export const STEP_GROUPS = [
  { key: 'page.groupIdea', count: IDEA },
  { key: 'page.groupField', count: STEPS.length - IDEA },
];
