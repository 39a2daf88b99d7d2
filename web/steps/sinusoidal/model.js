// Step "sinusoidal", the numbers: the 50 × 20 table of the core's sinusoidal encoding and, for a
// cell (pos, dim), what its formula and readouts show.
export const POSITIONS = 50;
export const D = 20;
export const BASE = 10000;

/** The table (row-major, POSITIONS × D) and readout({ pos, dim }) for one cell, from the core. */
export function sinusoidalModel(core) {
  const table = core.sinusoidal(POSITIONS, D, { base: BASE });
  const freqs = core.sinusoidalFrequencies(D, { base: BASE });
  return {
    table,
    /**
     * Cell (pos, dim): its pair i = ⌊dim/2⌋, whether it is a sine (even dim), the angle pos·ωᵢ,
     * the divisor 1/ωᵢ = BASE^(2i/d) the formula shows under pos, and the table's value.
     */
    readout({ pos, dim }) {
      const i = Math.floor(dim / 2);
      return { i, isSin: dim % 2 === 0, angle: pos * freqs[i], divisor: 1 / freqs[i], value: table[pos * D + dim] };
    },
  };
}
