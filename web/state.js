// URL state. Each step declares its parameters in a table ({ type, min, max, step?, default }
// with bounds that may depend on other values (kit/params.js), or { type: 'enum', values,
// default, aliases? } or { type: 'bool', default }; quiet: true leaves the parameter out of the
// URL while it has its default); this module reads them from the query string, clamping or
// ignoring bad values (never an error page), and writes them back with replaceState so the back
// button is not flooded.
import { settleNumber } from './kit/params.js';

/** The value of one parameter from its raw query-string text (values: the ones read before it). */
export function clampParam(spec, raw, values = {}) {
  // A numeric default is settled too (a bound may depend on values before it); a null one (the
  // train step's steps: set when its data arrives) stays null.
  const fallback = () => (Number.isFinite(spec.default) ? settleNumber(spec, spec.default, values) : spec.default);
  if (raw === null || raw === undefined || raw === '') return spec.type === 'int' || spec.type === 'number' ? fallback() : spec.default;
  switch (spec.type) {
    case 'bool':
      return raw === '1' || raw === 'true' ? true : raw === '0' || raw === 'false' ? false : spec.default;
    case 'enum': {
      // aliases: an old URL's name for a value ({ relative: 't5' }), read as that value.
      const name = Object.hasOwn(spec.aliases ?? {}, raw) ? spec.aliases[raw] : raw;
      const hit = spec.values.find((v) => String(v) === name);
      return hit === undefined ? spec.default : hit;
    }
    default: {
      const v = Number(raw);
      return Number.isFinite(v) ? settleNumber(spec, v, values) : fallback();
    }
  }
}

/** Values of every parameter in `params`, read from the query string. */
export function readParams(params, search = location.search) {
  const query = new URLSearchParams(search);
  const values = {};
  for (const [name, spec] of Object.entries(params)) values[name] = clampParam(spec, query.get(name), values);
  return values;
}

function encode(value) {
  return typeof value === 'boolean' ? (value ? '1' : '0') : String(value);
}

// Writing the address bar costs more than the call: in Firefox each replaceState keeps the parent
// process busy for milliseconds of CPU (the address bar, session history, the history database),
// so one write per frame of a slider drag kept a core busy beside the page, and on two cores the
// page's own updates waited for it (docs/benchmarks.md). Engines also cap the calls (Safari throws a SecurityError
// past 100 in 10 s). So the URL is written at once when nothing was written in the last
// URL_INTERVAL_MS, and otherwise only the latest URL waits for the interval's end. While one
// waits, body[data-url-pending] is set (tests wait on it).
export const URL_INTERVAL_MS = 250;
const RETRY_MS = 1000;  // after the engine refused a write
let waiting = null;     // the URL still to write
let timer = 0;          // set from a write, or a refused try, until URL_INTERVAL_MS (RETRY_MS) later

function showPending() {
  const body = globalThis.document?.body;
  if (!body) return;
  if (waiting === null) delete body.dataset.urlPending;
  else body.dataset.urlPending = 'true';
}

function write(url) {
  let wait = URL_INTERVAL_MS;
  try {
    // A URL without a #fragment would drop the reader's (e.g. #faq): keep it.
    history.replaceState(null, '', url + location.hash);
    waiting = null;
  } catch (e) {
    if (e?.name !== 'SecurityError') throw e;
    waiting = url;
    wait = RETRY_MS;
  }
  showPending();
  timer = setTimeout(() => {
    timer = 0;
    if (waiting !== null) write(waiting);
  }, wait);
}

/** history.replaceState, at most once per URL_INTERVAL_MS: url is the new ?query. */
export function replaceUrl(url) {
  if (timer) {
    // Back where the address bar already is: nothing is left to write.
    waiting = url === location.search ? null : url;
    showPending();
  } else if (url !== location.search) {
    write(url);
  }
}

/**
 * Writes the waiting URL now; call it before building an address from the page's own. Returns
 * the latest ?query asked for: the address bar's, or the one still waiting if the engine refused it.
 */
export function flushUrl() {
  if (waiting !== null) {
    clearTimeout(timer);
    write(waiting);
  }
  return waiting ?? location.search;
}
// Leaving the page records the latest state for Back (a reload has taken its URL before this).
globalThis.addEventListener?.('pagehide', flushUrl);

/** The ?query of step `stepId` with these values, keeping page-wide parameters such as lang and theme. */
export function paramsQuery(stepId, params, values, keep = ['lang', 'embed', 'theme']) {
  const old = new URLSearchParams(waiting ?? location.search);
  const query = new URLSearchParams();
  for (const name of keep) if (old.has(name)) query.set(name, old.get(name));
  query.set('step', stepId);
  for (const [name, spec] of Object.entries(params)) {
    if (spec.quiet && values[name] === spec.default) continue;
    query.set(name, encode(values[name]));
  }
  return `?${query}`;
}

/** Writes ?step=<id> and that step's parameters into the address bar (paramsQuery). */
export function writeParams(stepId, params, values) {
  replaceUrl(paramsQuery(stepId, params, values));
}
