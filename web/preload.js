// The first screen's files, asked for at once. dist/'s index.html runs this as a classic script
// in <head>, before the page's module: without it the browser finds each file only when the one
// before it has run (page → app.js → catalogs → the core's loader → its .wasm → the step's
// chunk → that chunk's imports), one round trip after another, which over a phone connection
// is most of the wait. It names, for the step the URL opens in the language the page will
// choose, the step's chunks, the catalog parts, and the core module the SIMD probe picks with
// its .wasm; the browser fetches them all in parallel and the page's own requests then find
// them in its preload cache. web/tools/build-dist.mjs bundles it with the build's manifest
// (__POSENC_PRELOAD__: each step's chunks and catalog parts). Only a hint: if it fails, or
// guesses wrong, the page loads as it would without it.
import { simdSupported } from '../wasm/loader.js';
import { catalogLanguage, initialLanguage, PAGE_PARTS } from './i18n.js';

// { first: the step a URL without ?step= opens, steps: { id: { chunks, parts } }, core: the
// core modules' folder, styles: the steps' stylesheets' folder }, relative to the page.
const MANIFEST = __POSENC_PRELOAD__;

function hint(rel, href, as) {
  const link = document.createElement('link');
  link.rel = rel;
  link.href = href;
  if (as) link.as = as;
  // fetch() asks in CORS mode: a preload that did not would not be the response it finds.
  if (as === 'fetch') link.crossOrigin = 'anonymous';
  document.head.append(link);
}

try {
  const query = new URLSearchParams(location.search);
  const asked = query.get('step');
  const id = Object.hasOwn(MANIFEST.steps, asked) ? asked : MANIFEST.first;
  const step = MANIFEST.steps[id];
  const lang = catalogLanguage(initialLanguage(query));
  hint('preload', `${MANIFEST.styles}${id}.css`, 'style');
  for (const chunk of step.chunks) hint('modulepreload', chunk);
  for (const part of [...PAGE_PARTS, ...step.parts]) hint('preload', `i18n/${lang}/${part}.json`, 'fetch');
  if (typeof WebAssembly === 'object') {
    const build = `${MANIFEST.core}posenc-${simdSupported() ? 'simd' : 'scalar'}`;
    hint('modulepreload', `${build}.mjs`);
    hint('preload', `${build}.wasm`, 'fetch');
  }
} catch {
  // A hint only: the page finds its files without it.
}
