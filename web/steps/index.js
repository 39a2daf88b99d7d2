// The steps in reading order. Each module exports { id, params, mount }.
import * as order from './order.js';
import * as sinusoidal from './sinusoidal.js';
import * as frequencies from './frequencies.js';
import * as relative from './relative.js';
import * as rope from './rope.js';
import * as compare from './compare.js';

export const STEPS = [order, sinusoidal, frequencies, relative, rope, compare];
