// Every catalog part the explainer has: the page's own, then each step's as its manifest names
// them (web/steps/index.js). Apart from web/i18n.js so the Lab, which loads catalogs too, does
// not import the step registry (and with it every step's module).
import { PAGE_PARTS } from './i18n.js';
import { STEP_PARTS } from './steps/index.js';

export const PARTS = [...PAGE_PARTS, ...STEP_PARTS];
