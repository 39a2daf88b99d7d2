// Step "code": the quantities, their fixed settings and the controls each one shows.
export const QUANTITIES = ['pe', 'wavelength', 'dot', 'rope', 'partial-rope', 't5', 'alibi', 'scaled'];
export const SCALINGS = ['default', 'linear', 'ntk', 'dynamic', 'yarn', 'llama3'];
export const FACTORS = [2, 4, 8, 16, 32];
export const WIDTHS = [8, 16];
export const ALIBI_HEADS = 16;     // slider ranges of the ALiBi quantity
export const ALIBI_DISTANCE = 20;
export const T5_REL = { min: -200, max: 200 };  // the T5 quantity's key − query offsets (slider and curve)

// The fixed settings of each quantity: those of the step it comes from.
export const SETUP = {
  pe: { positions: 50, d: 20, base: 10000 },           // step 2
  wavelength: { d: 16, base: 10000 },                  // step 3
  dot: { base: 10000 },                                // steps 4 (d = 16) and 6 (d = 8)
  rope: { d: 8, base: 10000, pair: [0.6, 0.4] },       // steps 5 and 6, interleaved pairs
  'partial-rope': { d: 16, r: 4, base: 10000, pair: [0.6, 0.4] },  // GPT-NeoX: a quarter turns, rotate_half
  t5: { numBuckets: 32, maxDistance: 128 },            // T5's defaults
  alibi: {},
  scaled: { d: 128, base: 10000, original: 4096 },     // a 4k-context model stretched by factor
};

// Which controls each quantity shows, in order.
export const CONTROLS = {
  pe: ['pos', 'dim'],
  wavelength: ['wdim'],
  dot: ['width', 'i', 'j'],
  rope: ['m', 'n'],
  'partial-rope': ['m', 'n'],
  t5: ['rel', 'bidir'],
  alibi: ['heads', 'head', 'dist'],
  scaled: ['scaling', 'factor', 'pair'],
};

// Digits after the decimal point of each readout (and of the snippet's print).
export const DIGITS = { pe: 4, wavelength: 2, dot: 4, rope: 4, 'partial-rope': 4, t5: 0, alibi: 6, scaled: 2 };

/** The scaling object core.ropeFrequencies takes for the `scaled` quantity. */
export function scalingOf(type, factor) {
  const L = SETUP.scaled.original;
  switch (type) {
    case 'linear': return { type, factor };
    case 'ntk': return { type, factor };
    case 'dynamic': return { type, factor, maxPositions: L, seqLen: factor * L };
    case 'yarn': return { type, factor, originalMaxPositions: L };
    case 'llama3': return { type, factor, originalMaxPositions: L };
    default: return { type: 'default' };
  }
}
