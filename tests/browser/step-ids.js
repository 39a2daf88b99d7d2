// The step ids in reading order, as the page's registry (web/steps/index.js) lists them; read
// from that file's text so this helper runs in Node without a DOM.
import { readFileSync } from 'node:fs';

const registry = readFileSync(new URL('../../web/steps/index.js', import.meta.url), 'utf8');

/** Every step, in reading order. */
export const ALL_STEP_IDS = [...registry.matchAll(/\{ id: '([\w-]+)', load: \(\) => import\('\.\/\1\.js'\) \}/g)].map((m) => m[1]);

/**
 * The steps the whole-page tests (a11y, locales, downloads, embed...) walk: all of them, or only
 * those named in POSENC_STEPS=id,id — for working on one step without waiting for the rest.
 * `npm test` never sets it.
 */
export const STEP_IDS = process.env.POSENC_STEPS
  ? ALL_STEP_IDS.filter((id) => process.env.POSENC_STEPS.split(',').includes(id))
  : ALL_STEP_IDS;
