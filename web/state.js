// URL state. Each step declares its parameters in a table ({ type, min, max, default } or
// { type: 'enum', values, default, aliases? } or { type: 'bool', default }); this module reads them from
// the query string, clamping or ignoring bad values (never an error page), and writes them back
// with replaceState so the back button is not flooded.

/** The value of one parameter from its raw query-string text. */
export function clampParam(spec, raw) {
  if (raw === null || raw === undefined || raw === '') return spec.default;
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
      if (!Number.isFinite(v)) return spec.default;
      const n = spec.type === 'int' ? Math.round(v) : v;
      return Math.min(spec.max, Math.max(spec.min, n));
    }
  }
}

/** Values of every parameter in `params`, read from the query string. */
export function readParams(params, search = location.search) {
  const query = new URLSearchParams(search);
  const values = {};
  for (const [name, spec] of Object.entries(params)) values[name] = clampParam(spec, query.get(name));
  return values;
}

function encode(value) {
  return typeof value === 'boolean' ? (value ? '1' : '0') : String(value);
}

// Browsers limit history calls: Safari throws a SecurityError past 100 in 10 s, which a quick
// slider drag reaches (seen in the WebKit suite). The URL is written at once as long as the
// engine takes it; once it refuses, only the latest URL waits and is tried again a little later.
const RETRY_MS = 1000;
let waiting = null;    // the URL the engine refused, or a newer one asked for since
let timer = 0;

/** history.replaceState within the engines' limits: url is the new ?query. */
export function replaceUrl(url) {
  if (url === location.search) {  // unchanged: no history call at all, and nothing still to write
    waiting = null;
    return;
  }
  if (!timer) {
    try {
      history.replaceState(null, '', url);
      return;
    } catch (e) {
      if (e?.name !== 'SecurityError') throw e;
    }
  }
  waiting = url;
  if (!timer) {
    timer = setTimeout(() => {
      timer = 0;
      const next = waiting;
      waiting = null;
      if (next !== null) replaceUrl(next);
    }, RETRY_MS);
  }
}

/** Writes ?step=<id> and that step's parameters, keeping page-wide ones such as lang and theme. */
export function writeParams(stepId, params, values, keep = ['lang', 'embed', 'theme']) {
  const old = new URLSearchParams(location.search);
  const query = new URLSearchParams();
  for (const name of keep) if (old.has(name)) query.set(name, old.get(name));
  query.set('step', stepId);
  for (const name of Object.keys(params)) query.set(name, encode(values[name]));
  replaceUrl(`?${query}`);
}
