// A step's parameters, declared once: the step's `params` table gives each one's kind, range,
// grid and default, and from it come the URL's clamping (web/state.js), the values' consistency
// after every change (app.js's setter) and the sliders' ranges (kit/controls.js's paramSlider).
//
// A numeric parameter: { type: 'int' | 'number', min, max, step?, default }. min and max may be
// functions of the other values ((v) => v.len - 1), read in the table's order: a bound may depend
// only on parameters declared before it. step puts the value on a grid counted from min.

/** A bound: a number, or a function of the values so far. */
const bound = (b, values) => (typeof b === 'function' ? b(values) : b);

/** The range and grid of a numeric parameter, given the other values. */
export function bounds(spec, values) {
  return { min: bound(spec.min, values), max: bound(spec.max, values), step: spec.step ?? 1 };
}

/** A number put on the parameter's grid and into its range. */
export function settleNumber(spec, v, values) {
  const { min, max, step } = bounds(spec, values);
  let n = spec.type === 'int' ? Math.round(v) : v;
  if (spec.step) n = min + Math.round((n - min) / step) * step;
  return Math.min(max, Math.max(min, n));
}

/** Puts every numeric value into its range, in the table's order (so a bound sees settled values). */
export function settleParams(params, values) {
  for (const [name, spec] of Object.entries(params)) {
    if ((spec.type === 'int' || spec.type === 'number') && Number.isFinite(values[name])) {
      values[name] = settleNumber(spec, values[name], values);
    }
  }
  return values;
}
