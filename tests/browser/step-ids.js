// The step ids in reading order, as the page's registry (web/steps/index.js) lists them; read
// from that file's text so this helper runs in Node without a DOM. An id may hold hyphens, so
// each module's name in STEPS is mapped back to the file it was imported from.
import { readFileSync } from 'node:fs';

const registry = readFileSync(new URL('../../web/steps/index.js', import.meta.url), 'utf8');
const FILES = new Map([...registry.matchAll(/import \* as (\w+) from '\.\/([\w-]+)\.js'/g)].map((m) => [m[1], m[2]]));
const STEPS_LINE = registry.match(/STEPS = \[([^\]]+)\]/)[1];
export const STEP_IDS = STEPS_LINE.split(',').map((s) => FILES.get(s.trim()));
