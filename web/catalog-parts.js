// Every catalog part the explainer has, once each: the page's own, the text after the steps,
// then each step's as its manifest names them (web/steps/index.js). Apart from web/i18n.js so the Lab, which loads catalogs too, does
// not import the step registry (and with it every step's module).
import { CONTENT_PARTS, PAGE_PARTS } from './i18n.js';
import { STEP_PARTS } from './steps/index.js';

export const PARTS = [...new Set([...PAGE_PARTS, ...CONTENT_PARTS, ...STEP_PARTS])];
