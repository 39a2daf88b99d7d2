// The NumPy and PyTorch programs of step "code": one template per quantity and library in
// web/steps/code/snippets/ (<quantity>.<lib>.py; the scaled frequencies one per scaling,
// scaled-<scaling>.<lib>.py), each a complete program once its ${name} placeholders are filled
// with the current settings. They compute in float64 (torch too: its float32 default would move
// the last digit at larger positions); where the core returns float32 (the ALiBi bias) they cast
// the same way. tests/js/code-snippets.test.js fills and runs every file with python3.
import { QUANTITIES, SCALINGS } from './setup.js';

export const LIBRARIES = ['numpy', 'torch'];

/** The template's file name (without the folder) for a quantity, its library and settings. */
export function templateName(lib, q, scaling) {
  return `${q === 'scaled' ? `scaled-${scaling}` : q}.${lib}.py`;
}

/** Every template file name. */
export const TEMPLATE_NAMES = LIBRARIES.flatMap((lib) => QUANTITIES.flatMap((q) =>
  (q === 'scaled' ? SCALINGS : [null]).map((scaling) => templateName(lib, q, scaling))));

// A setting as Python source: the base as a float, booleans capitalised, a pair as "a, b".
function pySource(key, v) {
  if (key === 'base') return Number.isInteger(v) ? `${v}.0` : String(v);
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (Array.isArray(v)) return v.join(', ');
  return String(v);
}

/** The placeholders a template uses, in order of first use. */
export function placeholdersOf(text) {
  return [...new Set([...text.matchAll(/\$\{(\w+)\}/g)].map((x) => x[1]))];
}

/** A template with each ${name} replaced by settings[name] as Python source. */
export function fillTemplate(text, settings) {
  return text.replace(/\$\{(\w+)\}/g, (_, key) => {
    if (!(key in settings)) throw new RangeError(`snippet template: no value for the placeholder "${key}"`);
    return pySource(key, settings[key]);
  });
}

/** The program for library `lib` and quantity `q`; p: the controls' values, the quantity's
 * fixed settings and `digits`. templates: file name → text. */
export function snippet(templates, lib, q, p) {
  const name = templateName(lib, q, p.scaling);
  if (!(name in templates)) throw new RangeError(`snippet: no template "${name}"`);
  return fillTemplate(templates[name], p);
}
