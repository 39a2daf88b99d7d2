// The step ids in reading order, from the page's registry (web/steps/index.js): importing it in
// Node loads no step module (each manifest's load() is only called by the page).
import { STEPS } from '../../web/steps/index.js';

/** Every step, in reading order. */
export const ALL_STEP_IDS = STEPS.map((s) => s.id);

/**
 * The steps the whole-page tests (a11y, locales, downloads, embed...) walk: all of them, or only
 * those named in POSENC_STEPS=id,id — for working on one step without waiting for the rest.
 * `npm test` never sets it.
 */
export const STEP_IDS = process.env.POSENC_STEPS
  ? ALL_STEP_IDS.filter((id) => process.env.POSENC_STEPS.split(',').includes(id))
  : ALL_STEP_IDS;

/**
 * Whether the walks cover every step. Their guards that count over the whole page ("at least 7
 * heatmaps tapped", so that a walk that found nothing cannot pass) hold only then: a walk over
 * one step may rightly find no heatmap.
 */
export const WHOLE_WALK = STEP_IDS.length === ALL_STEP_IDS.length;
