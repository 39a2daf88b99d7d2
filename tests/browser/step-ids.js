// The step ids in reading order, as the page's registry (web/steps/index.js) lists them; read
// from that file's text so this helper runs in Node without a DOM.
import { readFileSync } from 'node:fs';

const registry = readFileSync(new URL('../../web/steps/index.js', import.meta.url), 'utf8');
const STEPS_LINE = registry.match(/STEPS = \[([^\]]+)\]/)[1];
export const STEP_IDS = STEPS_LINE.split(',').map((s) => s.trim());
