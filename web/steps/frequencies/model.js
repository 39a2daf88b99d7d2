// Step "frequencies", the numbers: a 101 × 16 sinusoidal table from the core, its frequencies and
// wavelengths, the columns the wave plot draws and, for a chosen even dimension, its readouts.
export const POSITIONS = 101;          // positions 0..100
export const D = 16;
export const BASE = 10000;
export const DIMS = [0, 2, 4, 6];
export const LONGEST = BASE * 2 * Math.PI;   // the wavelength 2i = d would have; the last pair approaches it
const FINE = 10;                             // samples per position on the drawn smooth curve

/** What the step shows, from the core: tables up front, readout({ dim }) per choice. */
export function frequenciesModel(core) {
  const table = core.sinusoidal(POSITIONS, D, { base: BASE });
  const freqs = core.sinusoidalFrequencies(D, { base: BASE });
  const wavelengths = Array.from(freqs, (w) => (2 * Math.PI) / w);
  const column = (dim) => Array.from({ length: POSITIONS }, (_, p) => table[p * D + dim]);
  const columns = new Map(DIMS.map((dim) => [dim, column(dim)]));
  // Ten samples per position for the drawn curve (1001 points; joined per drawing column).
  const fine = Array.from({ length: (POSITIONS - 1) * FINE + 1 }, (_, k) => k / FINE);
  return {
    table, freqs, wavelengths, fine,
    positions: Array.from({ length: POSITIONS }, (_, p) => p),
    /** Column dim of the table (PE[pos, dim], pos = 0..100), for dim in DIMS. */
    column: (dim) => columns.get(dim),
    /**
     * The wave between the table's integer positions, sin(p·ωᵢ) at every sample p of `fine`,
     * at the core's ωᵢ: sampled only at integers, dim 0 (6.3 positions a cycle) drew as a
     * jagged saw on a phone.
     */
    curve: (dim) => { const omega = freqs[dim / 2]; return fine.map((p) => Math.sin(p * omega)); },
    /** ω₀/ω₁ = BASE^(2/d): the common ratio of the frequencies (and of the wavelengths). */
    ratio: freqs[0] / freqs[1],
    /**
     * For an even dim: its pair i, ωᵢ, λᵢ = 2π/ωᵢ, the other dims drawn faintly, whether one
     * wavelength fits the positions shown, and how many cycles they hold.
     */
    readout({ dim }) {
      const i = dim / 2;
      const wavelength = wavelengths[i];
      return {
        i, omega: freqs[i], wavelength, others: DIMS.filter((o) => o !== dim),
        fits: wavelength <= POSITIONS - 1, cycles: (POSITIONS - 1) / wavelength,
      };
    },
  };
}
