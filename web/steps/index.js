// The steps in reading order. Each module exports { id, params, mount }.
import * as order from './order.js';
import * as sinusoidal from './sinusoidal.js';
import * as frequencies from './frequencies.js';
import * as relative from './relative.js';
import * as rope from './rope.js';
import * as compare from './compare.js';
import * as embeddingPlusPosition from './embedding-plus-position.js';
import * as learned from './learned.js';
import * as relativeBias from './relative-bias.js';
import * as alibi from './alibi.js';
import * as attention from './attention.js';
import * as extend from './extend.js';
import * as vision from './vision.js';
import * as nope from './nope.js';
import * as choose from './choose.js';
import * as code from './code.js';
import * as quiz from './quiz.js';

export const STEPS = [order, sinusoidal, frequencies, relative, rope, compare, embeddingPlusPosition, learned, relativeBias, alibi, attention, extend, vision, nope, choose, code, quiz];

// The navigation's groups, in order: how many steps each takes from the front of STEPS.
const IDEA = 6;
export const STEP_GROUPS = [
  { key: 'page.groupIdea', count: IDEA },
  { key: 'page.groupField', count: STEPS.length - IDEA },
];
