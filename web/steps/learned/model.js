// Step "learned", the numbers: three learned tables (a small one, BERT's, GPT-2's) from
// core.learned, a seeded stand-in for trained weights (N(0, 0.02²), GPT-2's initialisation);
// the drawn part of each, the row at a position or the core's refusal past the table's end, and
// what the two formulas give at the same position: the sinusoidal row and a RoPE-rotated vector.

// positions = the table's rows (maxPositions), d = its width. The stand-in's parameters are the
// core's defaults (seed 0, std 0.02), the same for every preset.
export const PRESETS = {
  small: { positions: 16, d: 8 },
  bert: { positions: 512, d: 768 },
  gpt2: { positions: 1024, d: 768 },
};
export const PRESET_IDS = Object.keys(PRESETS);
export const REACH = 1.5;          // the slider and the map run to 1.5 × the table
export const MAP_DIMS = 64;        // at most this many dimensions drawn
export const BAR_DIMS = 16;        // dimensions in the two bar charts
export const STD = 0.02;
/** The positions the slider and the map reach for a preset: 1.5 × its rows. */
export const reach = (p) => Math.round(PRESETS[p].positions * REACH);

/** What the step shows, from the core: map(preset) (cached) and readout({ preset, pos }). */
export function learnedModel(core) {
  // The drawn part of each table, computed when its preset is first asked for: rows 0..T−1 and
  // the first MAP_DIMS dimensions. core.learned draws each row from its own seeded stream, first
  // dimension first, so a table of width MAP_DIMS holds exactly the first MAP_DIMS columns of
  // the 768-wide one (tests/js/learned-model.test.js checks this against its own copy of the
  // generator). The rows past the table stay 0 (the page covers them with the "no row" band).
  const maps = new Map();
  function map(preset) {
    if (!maps.has(preset)) {
      const { positions, d } = PRESETS[preset];
      const cols = Math.min(d, MAP_DIMS);
      const values = new Float32Array(reach(preset) * cols);
      values.set(core.learned(positions, cols, { maxPositions: positions, std: STD }));
      maps.set(preset, { cols, rows: reach(preset), values });
    }
    return maps.get(preset);
  }
  // The core's row at `pos` of a table of T rows and d dimensions, or its RangeError.
  const rowAt = ({ positions: T, d }, pos) => {
    try {
      return { row: core.learned([pos], d, { maxPositions: T, std: STD }), error: null };
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      return { row: null, error: e };
    }
  };
  return {
    map, rowAt,
    /**
     * For a preset and a position: the table's rows T and width d, the dimensions in the bar
     * charts, its parameter count T·d, the learned row (or null and the core's RangeError past
     * the table), the sinusoidal row at pos (sinRow) and the vector (1, 0, 1, 0, …) rotated by
     * RoPE at pos (ropeRow, pairs 2i, 2i + 1).
     */
    readout({ preset, pos }) {
      const { positions: T, d } = PRESETS[preset];
      const { row, error } = rowAt(PRESETS[preset], pos);
      const sinRow = core.sinusoidal(1, d, { offset: pos });
      const unit = new Float32Array(d);
      for (let c = 0; c < d; c += 2) unit[c] = 1;
      const ropeRow = core.ropeApply(unit, [pos], d, { layout: 'interleaved' });
      return { T, d, dims: Math.min(d, BAR_DIMS), params: T * d, row, error, sinRow, ropeRow };
    },
  };
}
