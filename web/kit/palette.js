// The colour maps, said once: the page's figures use them here, and the Lab (wasm/lab/) draws
// with the same stops, which wasm/tools/gen-api.mjs writes into wasm/lab/palette.gen.hpp.
//
// Diverging colour scale centred on 0, from ColorBrewer's RdBu (colour-blind safe): blue for
// negative, near-white for 0, red for positive. Values are clamped to [-limit, limit].
export const DIVERGING_STOPS = [
  [33, 102, 172],
  [103, 169, 207],
  [247, 247, 247],
  [239, 138, 98],
  [178, 24, 43],
];
const STOPS = DIVERGING_STOPS;

// Sequential scale for values with no sign (the Lab's unsigned tables): viridis's ends and
// three stops between them, dark blue through teal to yellow, evenly spaced.
export const SEQUENTIAL_STOPS = [
  [68, 1, 84],
  [59, 82, 139],
  [33, 145, 140],
  [94, 201, 98],
  [253, 231, 37],
];

/** Writes the RGB of `value` on a [-limit, limit] scale into out[offset..offset+2]. */
export function divergingRgb(value, limit, out, offset) {
  let t = limit > 0 ? (value / limit + 1) / 2 : 0.5;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  const x = t * (STOPS.length - 1);
  const i = Math.min(STOPS.length - 2, Math.floor(x));
  const f = x - i;
  const a = STOPS[i];
  const b = STOPS[i + 1];
  out[offset] = a[0] + (b[0] - a[0]) * f;
  out[offset + 1] = a[1] + (b[1] - a[1]) * f;
  out[offset + 2] = a[2] + (b[2] - a[2]) * f;
}

/** CSS colour for a value (legends, swatches). */
export function divergingCss(value, limit) {
  const c = [0, 0, 0];
  divergingRgb(value, limit, c, 0);
  return `rgb(${c.map(Math.round).join(' ')})`;
}

export const DIVERGING_LEVELS = 4097;  // entries of divergingTable(); an odd count, so the middle entry is the colour of 0
let table = null;                       // made on first use

/**
 * The diverging scale on [-1, 1] sampled at DIVERGING_LEVELS evenly spaced values, as RGBA
 * words in ImageData's byte order (entry k is the colour of -1 + 2k / (DIVERGING_LEVELS - 1)):
 * a figure with many cells looks each one up instead of interpolating it. Made once and shared
 * by every figure that looks colours up.
 */
export function divergingTable() {
  if (table) return table;
  table = new Uint32Array(DIVERGING_LEVELS);
  const rgba = new Uint8ClampedArray(4);  // rounds as writing into ImageData does
  const word = new Uint32Array(rgba.buffer);
  for (let k = 0; k < DIVERGING_LEVELS; k++) {
    divergingRgb(-1 + (2 * k) / (DIVERGING_LEVELS - 1), 1, rgba, 0);
    rgba[3] = 255;
    table[k] = word[0];
  }
  return table;
}

/** An opaque RGB colour as an RGBA word in ImageData's byte order. */
export function rgbWord([r, g, b]) {
  const rgba = Uint8ClampedArray.of(r, g, b, 255);
  return new Uint32Array(rgba.buffer)[0];
}
