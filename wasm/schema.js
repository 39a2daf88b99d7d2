// The signature of every function of the JS API, stated once: its positional arguments (kind,
// range), its options (kind, range, default) and what it returns. Everything else is made from
// this table:
//   wasm/posenc.js          the wrappers' arity, the option keys each function takes (any other
//                           key is a TypeError naming it and the allowed ones), what is copied
//   wasm/posenc.d.ts        the Posenc interface and RopeScaling (wasm/tools/gen-api.mjs)
//   docs/api.md             the API table (the same tool, between its markers)
//   wasm/bindings/api.gen.hpp  each argument's name and range, each option's key and default,
//                           for the bindings (the same tool; the bindings cannot name an option
//                           the schema lacks: it would not compile)
//   tests/js/errors.test.js the bad-input table: every argument and option, every bound
//
// Kinds: 'int' and 'number' (min, max; exclusiveMin for an open lower bound; even, multipleOf),
// 'bool', 'string' (oneOf), 'positions' (a count n, meaning 0..n-1, or an array of positions),
// 'numbers' / 'floats' (an Array or typed array of numbers, copied as float64 / float32;
// maxLength), 'scaling' (a RopeScaling, ROPE_SCALINGS below). A bound that depends on another
// argument (query < n, x.length = rows · dim) is the core's to check (core/*.cpp); it is said in
// `doc`, not in min/max. The core checks every range again (it also runs natively: the trainer,
// the Lab), and the tests hold both to these numbers.

import { ATTENTION_FAMILIES } from './train.js';

/**
 * The caps of core/limits.hpp and the family headers, by their C++ names. The generated header
 * static_asserts each one against the C++ constant, so the two cannot differ in a build.
 */
export const LIMITS = {
  kMaxDim: 8192,
  kMaxRows: 2 ** 20,
  kMaxElements: 2 ** 24,
  kMaxPosition: 2 ** 31 - 1,
  kMaxBase: 1e12,
  kMaxHeads: 4096,
  kMaxBuckets: 4096,
  kMaxDistance: 2 ** 24,
  kMaxFactor: 1e6,
  kFamilyMaxTokens: 8192,
  kFamilyMaxDim: 256,
  kFamilyMaxHeads: 64,
  kFamilyMaxSeed: 1e9,
  kMaxXlDim: 1024,
  kMaxGridSide: 1024,
};
const L = LIMITS;
const kMaxSeed = 2 ** 32 - 1;
const kMaxAlibiLength = 4096;  // a length × length matrix: 64 MiB of float32 at most
const kMaxStd = 1e3;
const kMaxSlope = 1e6;
const kMaxScale = 1e6;

// [SHARED FIELDS] -----------------------------------------------------------------------------
const base = { type: 'number', min: 1, exclusiveMin: true, max: L.kMaxBase, default: 10000, doc: 'the frequencies\' base' };
const causal = (fallback) => ({ type: 'bool', default: fallback, doc: 'mask the keys after each query' });
const seed = (max) => ({ type: 'int', min: 0, max, default: 0, doc: 'seed of the stand-in values' });
const std = { type: 'number', min: 0, max: kMaxStd, default: 0.02, doc: 'standard deviation of the entries' };
const cosine = { type: 'bool', default: false, doc: 'cosines instead of dot products' };
const dModel = { name: 'dModel', type: 'int', min: 1, max: L.kMaxDim, doc: 'width of the table' };
const ropeDim = { name: 'dim', type: 'int', min: 2, max: L.kMaxDim, even: true, doc: 'head dimension' };
const slope = { name: 'slope', type: 'number', min: 0, max: kMaxSlope, doc: 'the head\'s ALiBi slope' };
const gridRows = { name: 'rows', type: 'int', min: 1, max: L.kMaxGridSide, doc: 'patch rows' };
const gridCols = { name: 'cols', type: 'int', min: 1, max: L.kMaxGridSide, doc: 'patch columns' };
const gridD = { name: 'd', type: 'int', min: 1, max: L.kMaxDim, doc: 'width of each patch\'s vector' };
const quarterD = { ...gridD, min: 4, multipleOf: 4, doc: 'width of each patch\'s vector, a multiple of 4' };
const table = { name: 'table', type: 'floats', maxLength: L.kMaxElements, doc: 'rows × d values, row-major' };
const scaling = { type: 'scaling', nullable: true, doc: 'a context-extension scaling (HF rope_scaling, camelCase)' };
const xlPosition = (name, doc) => ({ name, type: 'int', min: 0, max: L.kMaxRows, doc });
const xlDim = { name: 'dim', type: 'int', min: 2, max: L.kMaxXlDim, even: true, doc: 'model width' };
const xlOptions = { seed: seed(kMaxSeed), base };
// familyAttention's seeded rows as the caller holds them: familyContent(which, n, dim, { seed }).
const heldContent = (which, what) => ({
  type: 'floats', maxLength: L.kFamilyMaxTokens * L.kFamilyMaxDim, default: 'drawn',
  doc: `${what}, n × dim: familyContent('${which}', n, dim, { seed }), held between calls`,
});

// [RoPE SCALINGS] -----------------------------------------------------------------------------
// options.scaling: { type, ...fields }. The fields each type takes; `required` ones have no
// default. `example` is a valid scaling of that type (for the tests).
const factor = { type: 'number', min: 1, max: L.kMaxFactor, required: true, doc: 'context extension factor' };
const positionCount = (doc) => ({ type: 'int', min: 1, max: L.kMaxPosition, required: true, doc });
const seqLen = { type: 'int', min: 0, max: L.kMaxPosition, doc: 'the current sequence length (default: maxPositions, no change)' };
const attentionFactor = { type: 'number', min: 0, exclusiveMin: true, max: L.kMaxFactor, doc: 'overrides the computed attention factor' };
const factorList = (doc) => ({ type: 'numbers', maxLength: L.kMaxDim, required: true, doc: `${doc}: dim/2 values > 0` });

export const ROPE_SCALINGS = {
  default: { fields: {}, example: {}, doc: 'no scaling' },
  linear: { fields: { factor }, example: { factor: 2 }, doc: 'positions divided by factor' },
  ntk: { fields: { factor }, example: { factor: 2 }, doc: 'static NTK-aware: base · factor^(d/(d−2)); needs dim ≥ 4' },
  dynamic: {
    fields: { factor, maxPositions: positionCount('the trained context'), seqLen },
    example: { factor: 2, maxPositions: 2048 },
    doc: 'dynamic NTK: the base grows once seqLen passes maxPositions; needs dim ≥ 4',
  },
  yarn: {
    fields: {
      factor,
      originalMaxPositions: positionCount('the trained context'),
      betaFast: { type: 'number', min: 0, exclusiveMin: true, max: L.kMaxFactor, default: 32, doc: 'rotations above which a pair keeps its frequency' },
      betaSlow: { type: 'number', min: 0, exclusiveMin: true, max: L.kMaxFactor, default: 1, doc: 'rotations below which a pair is interpolated' },
      mscale: { type: 'number', min: 0, max: L.kMaxFactor, default: 0, doc: 'DeepSeek\'s mscale (0: off)' },
      mscaleAllDim: { type: 'number', min: 0, max: L.kMaxFactor, default: 0, doc: 'DeepSeek\'s mscale_all_dim (0: off)' },
      truncate: { type: 'bool', default: true, doc: 'round the ramp\'s ends to whole pairs' },
      attentionFactor,
    },
    example: { factor: 4, originalMaxPositions: 4096 },
    doc: 'YaRN: a ramp between interpolated and kept pairs, and an attention factor',
  },
  llama3: {
    fields: {
      factor,
      originalMaxPositions: positionCount('the trained context'),
      lowFreqFactor: { type: 'number', min: 0, exclusiveMin: true, max: L.kMaxFactor, default: 1, doc: 'wavelengths above originalMaxPositions / lowFreqFactor are interpolated' },
      highFreqFactor: { type: 'number', min: 0, exclusiveMin: true, max: L.kMaxFactor, default: 4, doc: 'wavelengths below originalMaxPositions / highFreqFactor are kept; > lowFreqFactor' },
    },
    example: { factor: 8, originalMaxPositions: 8192 },
    doc: 'Llama 3: interpolate long wavelengths, keep short ones, blend between',
  },
  longrope: {
    fields: {
      originalMaxPositions: positionCount('the trained context'),
      maxPositions: positionCount('the extended context'),
      seqLen,
      shortFactor: factorList('per-pair factors up to originalMaxPositions'),
      longFactor: factorList('per-pair factors beyond it'),
      attentionFactor,
    },
    example: { originalMaxPositions: 4096, maxPositions: 131072, shortFactor: [1, 1, 1, 1], longFactor: [1, 2, 3, 4] },
    doc: 'LongRoPE (Phi-3): per-pair factors, short or long by seqLen',
  },
};

// [FUNCTIONS] ---------------------------------------------------------------------------------
// name → { args, options (absent: the function takes none), returns (a TypeScript type), doc,
// example (a valid call's positional arguments, for the tests) }.
export const API = {
  sinusoidal: {
    args: [
      { name: 'positions', type: 'int', min: 0, max: L.kMaxRows, doc: 'rows: positions offset … offset + positions − 1' },
      dModel,
    ],
    options: {
      base,
      offset: { type: 'int', min: 0, max: L.kMaxPosition, default: 0, doc: 'the first position; offset + positions − 1 ≤ 2^31 − 1' },
    },
    returns: 'Float32Array',
    doc: 'Sinusoidal table, positions × dModel, row-major (positions · dModel ≤ 2^24). Odd dModel: the last column is a sine.',
    example: [2, 4],
  },
  sinusoidalFrequencies: {
    args: [dModel],
    options: { base },
    returns: 'Float64Array',
    doc: 'ω_i = base^(−2i/d) for i < ceil(d/2), in float64.',
    example: [4],
  },
  sinusoidalDot: {
    args: [
      { name: 'm', type: 'number', min: -L.kMaxPosition, max: L.kMaxPosition, doc: 'a position' },
      { name: 'n', type: 'number', min: -L.kMaxPosition, max: L.kMaxPosition, doc: 'another position' },
      dModel,
    ],
    options: { base },
    returns: 'number',
    doc: 'PE(m)·PE(n) in float64 (= Σ cos((m−n)ω_i) for even d).',
    example: [1, 2, 4],
  },
  learned: {
    args: [
      { name: 'positions', type: 'positions', maxLength: L.kMaxRows, doc: 'each < maxPositions' },
      dModel,
    ],
    options: {
      maxPositions: { type: 'int', min: 1, max: L.kMaxRows, default: 1024, doc: 'rows of the table' },
      seed: seed(kMaxSeed),
      std,
    },
    returns: 'Float32Array',
    doc: 'Rows of a seeded stand-in for a learned table; a position ≥ maxPositions throws RangeError.',
    example: [2, 4],
  },
  ropeFrequencies: {
    args: [ropeDim],
    options: { base, scaling },
    returns: '{ invFreq: Float64Array; attentionFactor: number }',
    doc: 'RoPE inverse frequencies (dim/2, float64) and the attention factor of the scaling.',
    example: [8],
  },
  ropeApply: {
    args: [
      { name: 'x', type: 'floats', maxLength: L.kMaxElements, doc: 'rows × dim values, rows = positions' },
      { name: 'positions', type: 'positions', maxLength: L.kMaxRows, doc: 'one per row of x' },
      ropeDim,
    ],
    options: {
      layout: { type: 'string', oneOf: ['half', 'interleaved'], default: 'half', doc: 'half = HF rotate_half, interleaved = RoFormer/Meta' },
      base,
      scaling,
    },
    returns: 'Float32Array',
    doc: 'Rotates x (rows × dim, rows = positions) pair by pair; scaled by the attention factor as HF does.',
    example: [[1, 2], 1, 2],
  },
  alibiSlopes: {
    args: [{ name: 'nHeads', type: 'int', min: 1, max: L.kMaxHeads, doc: 'heads' }],
    returns: 'Float64Array',
    doc: 'ALiBi slopes in the reference code\'s order (unsorted for non-powers of two).',
    example: [6],
  },
  alibiBias: {
    args: [{ name: 'length', type: 'int', min: 0, max: kMaxAlibiLength, doc: 'sequence length' }, slope],
    options: { causal: causal(true) },
    returns: 'Float32Array',
    doc: 'length × length: −slope·|i−j|, −Infinity where j > i when causal.',
    example: [3, 0.5],
  },
  alibiBiasBlock: {
    args: [
      { name: 'queries', type: 'positions', maxLength: L.kMaxRows, doc: 'query positions' },
      { name: 'keys', type: 'positions', maxLength: L.kMaxRows, doc: 'key positions; queries.length · keys.length ≤ 2^24' },
      slope,
    ],
    options: { causal: causal(true) },
    returns: 'Float32Array',
    doc: 'rows(queries) × rows(keys): −slope·|q−k| for the given positions, −Infinity where k > q when causal.',
    example: [2, 2, 0.5],
  },
  t5Bucket: {
    args: [{ name: 'relativePositions', type: 'numbers', maxLength: L.kMaxElements, doc: 'key − query offsets, integers in (−2^31, 2^31)' }],
    options: {
      bidirectional: { type: 'bool', default: true, doc: 'half the buckets for keys after the query' },
      numBuckets: { type: 'int', min: 2, max: L.kMaxBuckets, default: 32, doc: '≥ 4 and even when bidirectional' },
      maxDistance: { type: 'int', min: 1, max: L.kMaxDistance, default: 128, doc: 'offsets beyond it share the last bucket; above the exact buckets' },
    },
    returns: 'Int32Array',
    doc: 'T5 buckets of key − query offsets.',
    example: [[1]],
  },
  shawIndex: {
    args: [
      { name: 'queryLength', type: 'int', min: 0, max: L.kMaxRows, doc: '≤ keyLength (the queries are the last positions)' },
      { name: 'keyLength', type: 'int', min: 0, max: L.kMaxRows, doc: 'queryLength · keyLength ≤ 2^24' },
      { name: 'maxDistance', type: 'int', min: 0, max: L.kMaxDistance, doc: 'the clip k' },
    ],
    returns: 'Int32Array',
    doc: 'clip(j − i, −k, k) + k for a queryLength × keyLength matrix (queries are the last positions).',
    example: [2, 3, 2],
  },
  attention: {
    args: [
      { name: 'q', type: 'floats', maxLength: L.kMaxElements, doc: 'rows(q) × dim, finite' },
      { name: 'k', type: 'floats', maxLength: L.kMaxElements, doc: 'rows(k) × dim, finite' },
      { name: 'dim', type: 'int', min: 1, max: L.kMaxDim, doc: 'head dimension' },
    ],
    options: {
      bias: { type: 'floats', maxLength: L.kMaxElements, nullable: true, doc: 'rows(q) × rows(k) added to the scores (−Infinity masks)' },
      causal: causal(false),
      scale: { type: 'number', min: -kMaxScale, max: kMaxScale, default: '1/√dim', doc: 'multiplies Q·Kᵀ' },
      softmax: { type: 'bool', default: true, doc: 'false: the scores themselves' },
    },
    returns: 'Float32Array',
    doc: 'softmax(Q·Kᵀ·scale + bias + causal mask) row by row, rows(q) × rows(k).',
    example: [[1, 2], [1, 2], 2],
  },
  familyAttention: {
    args: [
      { name: 'family', type: 'string', oneOf: ATTENTION_FAMILIES, doc: 'a family of the registry the Lab draws too (the trainer has two more of its own)' },
      { name: 'n', type: 'int', min: 1, max: L.kFamilyMaxTokens, doc: 'tokens' },
      { name: 'dim', type: 'int', min: 2, max: L.kFamilyMaxDim, even: true, doc: 'head dimension' },
    ],
    options: {
      rows: { type: 'numbers', maxLength: L.kFamilyMaxTokens + 1, default: '0..n−1', doc: 'query rows to reduce, each in [0, n)' },
      columns: { type: 'int', min: 1, max: L.kFamilyMaxTokens, default: 'n', doc: 'key bins, ≤ n' },
      query: { type: 'int', min: 0, max: L.kFamilyMaxTokens - 1, default: 0, doc: 'the row returned exactly, < n' },
      causal: causal(true),
      seed: seed(L.kFamilyMaxSeed),
      base,
      heads: { type: 'int', min: 1, max: L.kFamilyMaxHeads, default: 8, doc: 'ALiBi heads' },
      head: { type: 'int', min: 0, max: L.kFamilyMaxHeads - 1, default: 0, doc: 'the ALiBi head shown, < heads' },
      numBuckets: { type: 'int', min: 4, max: L.kMaxBuckets, even: true, default: 32, doc: 'T5 buckets' },
      maxDistance: { type: 'int', min: 1, max: L.kMaxDistance, default: 128, doc: 'T5 maximum distance, above the exact buckets' },
      queryContent: heldContent('query', 'the query contents'),
      keyContent: heldContent('key', 'the key contents'),
      learnedTable: heldContent('learned', 'the learned stand-in table (read by \'learned\' only)'),
    },
    returns: '{ cells: Float32Array; scores: Float32Array; probs: Float32Array }',
    doc: 'One attention head over a seeded token sequence of n tokens for a position family (model in core/family_attention.hpp). `cells`: rows.length × columns, query rows[r]\'s probabilities summed per key bin [⌊c·n/columns⌋, ⌊(c+1)·n/columns⌋) (each row sums to 1); `scores`/`probs`: the exact row of `query` (scores −Infinity where masked). It keeps no token contents between calls: a caller that redraws holds familyContent\'s rows and passes them (queryContent, keyContent, learnedTable); each call draws the ones not given.',
    example: ['rope', 8, 8],
  },
  familyContent: {
    args: [
      { name: 'which', type: 'string', oneOf: ['query', 'key', 'learned'], doc: 'the query contents a_t, the key contents b_t or the learned stand-in table L(t)' },
      { name: 'n', type: 'int', min: 1, max: L.kFamilyMaxTokens, doc: 'rows: tokens 0..n−1' },
      { name: 'dim', type: 'int', min: 2, max: L.kFamilyMaxDim, even: true, doc: 'head dimension' },
    ],
    options: { seed: seed(L.kFamilyMaxSeed) },
    returns: 'Float32Array',
    doc: 'The seeded rows familyAttention reads, n × dim (model in core/family_attention.hpp). Row t depends only on (dim, seed, t): a shorter table is the first rows of a longer one.',
    example: ['key', 4, 8],
  },
  softmax: {
    args: [
      { name: 'x', type: 'floats', maxLength: L.kMaxElements, doc: 'rows × cols, no NaN or +Infinity' },
      { name: 'cols', type: 'int', min: 1, max: L.kMaxRows, doc: 'row width' },
    ],
    returns: 'Float32Array',
    doc: 'Stable softmax of each row of x (rows × cols); −Infinity entries get weight 0.',
    example: [[1, 2], 2],
  },
  transformerXlTerms: {
    args: [xlPosition('i', 'query position'), xlPosition('j', 'key position'), xlDim],
    options: xlOptions,
    returns: '{ contentContent: number; contentPosition: number; globalContent: number; globalPosition: number; score: number }',
    doc: 'Transformer-XL\'s four score terms for query i and key j from seeded example vectors (not trained weights; core/transformer_xl.hpp gives the generator): (a) q_i·k_j, (b) q_i·W_R R_{i−j}, (c) u·k_j, (d) v·W_R R_{i−j}, and their sum (before the 1/√dim scale).',
    example: [1, 5, 8],
  },
  transformerXlRow: {
    args: [xlPosition('i', 'query position'), { name: 'keys', type: 'positions', maxLength: L.kMaxRows, doc: 'key positions ≤ 2^20; keys.length · dim ≤ 2^24' }, xlDim],
    options: xlOptions,
    returns: 'Float64Array',
    doc: 'The four terms for query i against each key: Float64Array(keys·4), [(a), (b), (c), (d)] per key.',
    example: [1, [0, 5], 8],
  },
  transformerXlInputs: {
    args: [xlPosition('i', 'query position'), xlPosition('j', 'key position'), xlDim],
    options: xlOptions,
    returns: '{ query: Float64Array; key: Float64Array; u: Float64Array; v: Float64Array; r: Float64Array; wr: Float64Array }',
    doc: 'The seeded inputs of the pair: q_i, k_j, u, v, R_{i−j} (dim each) and W_R (dim × dim, row-major).',
    example: [1, 5, 8],
  },
  sincos2d: {
    args: [gridRows, gridCols, quarterD],
    options: { base },
    returns: 'Float32Array',
    doc: '2-D sin-cos on a rows × cols patch grid, (rows·cols) × d, patch (r, c) at row r·cols + c: [sin cω, cos cω, sin rω, cos rω], ω_k = base^(−k/(d/4)).',
    example: [2, 2, 8],
  },
  axialRope: {
    args: [{ name: 'x', type: 'floats', maxLength: L.kMaxDim, doc: 'd finite values, d a multiple of 4' }, gridRows, gridCols],
    options: { base },
    returns: 'Float32Array',
    doc: 'Axial 2-D RoPE: x rotated at every patch; interleaved pairs p < d/4 turn by c·ω_p, the rest by r·ω_(p−d/4).',
    example: [[1, 0, 0, 1], 2, 2],
  },
  axialRopeScores: {
    args: [
      gridRows, gridCols, quarterD,
      { name: 'r', type: 'int', min: 0, max: L.kMaxGridSide - 1, doc: 'the query patch\'s row, < rows' },
      { name: 'c', type: 'int', min: 0, max: L.kMaxGridSide - 1, doc: 'the query patch\'s column, < cols' },
    ],
    options: {
      base,
      q: { type: 'floats', maxLength: L.kMaxDim, nullable: true, default: 'd ones', doc: 'the vector at both ends, d finite values' },
      cosine: { ...cosine, doc: 'divide by |q|²' },
    },
    returns: 'Float64Array',
    doc: 'q′(r, c)·k′(r2, c2) for every patch (r2, c2), q = k = options.q, float64.',
    example: [3, 3, 8, 0, 0],
  },
  learnedGrid: {
    args: [gridRows, gridCols, gridD],
    options: { seed: seed(kMaxSeed), std },
    returns: 'Float32Array',
    doc: 'A seeded stand-in for a learned ViT grid table, (rows·cols) × d, entries ≈ N(0, std²), smooth over the grid.',
    example: [2, 2, 8],
  },
  interpolateGrid: {
    args: [
      table, gridRows, gridCols, gridD,
      { name: 'newRows', type: 'int', min: 1, max: L.kMaxGridSide, doc: 'rows after the resize' },
      { name: 'newCols', type: 'int', min: 1, max: L.kMaxGridSide, doc: 'columns after the resize' },
    ],
    options: { alignCorners: { type: 'bool', default: false, doc: 'PyTorch\'s align_corners' } },
    returns: 'Float32Array',
    doc: 'Bilinear resize of a rows × cols grid of d-vectors (PyTorch upsample_bilinear2d).',
    example: [[0, 1, 2, 3], 2, 2, 1, 3, 3],
  },
  gridSimilarity: {
    args: [table, gridD, { name: 'index', type: 'int', min: 0, max: L.kMaxElements, doc: 'the row compared, < rows of table' }],
    options: { cosine },
    returns: 'Float64Array',
    doc: 'Row `index` of a table of d-wide rows against every row: dot products, or cosines; float64.',
    example: [[1, 2, 3, 4], 2, 0],
  },
};

// [JS FUNCTIONS] ------------------------------------------------------------------------------
// Functions of the package written in JS over the bound ones (wasm/model.js): no binding of their
// own, so they are not in API (whose every entry has one), but their signature is stated here all
// the same, for posenc.d.ts, the docs table and the function's own option checks. They are
// exported beside loadPosenc and take the loaded object first, rather than being its methods: a
// page that never calls one leaves its code out of its bundle (the explainer's first screen).
export const JS_API = {
  modelPositions: {
    args: [
      { name: 'pe', type: 'posenc', doc: 'the object loadPosenc() returned' },
      { name: 'config', type: 'config', doc: 'a parsed Hugging Face config.json (multimodal ones: the text part is read from text_config)' },
    ],
    options: {
      seqLen: { type: 'int', min: 0, max: L.kMaxPosition, doc: 'the sequence length that dynamic and longrope scaling react to (default: their state when HF loads the model)' },
    },
    returns: 'ModelPositions',
    doc: 'What each layer does with positions, read as Hugging Face transformers reads the config: kind, attention window, RoPE frequencies and attention factor (from ropeFrequencies), lengths, where HF and the original code differ, HF class defaults applied, and every key not read (ModelPositions in posenc.d.ts).',
    example: [{ model_type: 'llama', hidden_size: 64, num_attention_heads: 4, num_hidden_layers: 2, max_position_embeddings: 128 }],
  },
};

/** The arity of a function: its positional arguments, and its options object when it has one. */
export const arity = (spec) => spec.args.length + (spec.options ? 1 : 0);
