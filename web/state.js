// One table of every URL parameter: name, type, range, default. Reading clamps or ignores bad
// values (never an error page); writing uses replaceState so the back button is not flooded.
export const PROPS = {
  positions: { type: 'int', min: 1, max: 512, default: 50 },
  dmodel: { type: 'int', min: 2, max: 256, default: 20 },
  base: { type: 'number', min: 2, max: 1e6, default: 10000 },
};

function clampValue(spec, raw) {
  const v = Number(raw);
  if (raw === null || raw === '' || !Number.isFinite(v)) return spec.default;
  const n = spec.type === 'int' ? Math.round(v) : v;
  return Math.min(spec.max, Math.max(spec.min, n));
}

/** The state named by the URL's query string, every value clamped into its range. */
export function readState(search = location.search) {
  const params = new URLSearchParams(search);
  const state = {};
  for (const [name, spec] of Object.entries(PROPS)) state[name] = clampValue(spec, params.get(name));
  return state;
}

/** Writes the state into the URL, keeping parameters this table does not own. */
export function writeState(state) {
  const params = new URLSearchParams(location.search);
  for (const [name, spec] of Object.entries(PROPS)) {
    if (state[name] === spec.default) params.delete(name);
    else params.set(name, String(state[name]));
  }
  const query = params.toString();
  history.replaceState(null, '', query ? `?${query}` : location.pathname);
}

export { clampValue };
