// Step 3, the frequency bands: what the page must show, computed here from the formulas.
// Used by tests/browser/frequencies.test.js (Chromium) and the cross-engine suite (tests/engines/).

export const D = 16;

// ω_i = 10000^(−2i/d) for dimension 2i; its wavelength is 2π/ω_i; PE[pos, 2i] = sin(pos·ω_i).
export const omega = (dim) => 10000 ** (-dim / D);
export const wavelength = (dim) => (2 * Math.PI) / omega(dim);
// The page's rule: one decimal below 100, none from 100 up (en locale: grouping above 999).
export const waveText = (v) => (v < 100 ? v.toFixed(1) : Math.round(v).toLocaleString('en'));

/** A state the cross-engine suite opens, and its readouts. */
export function seed() {
  const dim = 4;
  return {
    query: `dim=${dim}`,
    readouts: {
      frequency: { value: omega(dim), tol: 1e-12, text: omega(dim).toFixed(4) },
      wavelength: { value: wavelength(dim), tol: 1e-12 * wavelength(dim), text: waveText(wavelength(dim)) },
      dim: { value: dim, tol: 0, text: String(dim) },
    },
  };
}
