// Plain-JS float64 reference implementations of every formula the core computes.
//
// Written from the formulas in /work/shared/REFERENCES.md and the papers/code it names, not
// from core/: the point is a second, independent derivation to compare the wasm modules with.
// Everything here is float64 and deliberately naive (no reduction tricks, no SIMD, no caching),
// so a reader can check each function against its source in one look.
//
// Index
//   [SINUSOIDAL]  Vaswani et al. 2017 §3.5 / PyTorch tutorial PositionalEncoding
//   [ROPE]        HF modeling_rope_utils.py: default, linear, dynamic, yarn, llama3, longrope;
//                 application in the HF rotate_half and the interleaved (RoFormer/Meta) layouts
//   [T5]          HF modeling_t5.py _relative_position_bucket
//   [SHAW]        tensor2tensor _generate_relative_positions_matrix
//   [ALIBI]       ofirpress/attention_with_linear_biases get_slopes, buffered_future_mask
//   [ATTENTION]   softmax(Q K^T * scale + bias + mask), max-subtracted

// [SINUSOIDAL] ----------------------------------------------------------------------------

/** div_i = exp(2i * (-ln base / d)) for i = 0 .. ceil(d/2) - 1 (the tutorial's div_term). */
export function sinusoidalFrequencies(dModel, { base = 10000 } = {}) {
  const out = new Float64Array(Math.ceil(dModel / 2));
  for (let i = 0; i < out.length; i++) out[i] = Math.exp(2 * i * (-Math.log(base) / dModel));
  return out;
}

/**
 * One row PE(pos): the paper formula at every index k, PE[2i] = sin(pos div_i),
 * PE[2i+1] = cos(pos div_i). For odd d the last index 2i = d - 1 is therefore a sine.
 */
export function sinusoidalRow(pos, dModel, { base = 10000 } = {}) {
  const div = sinusoidalFrequencies(dModel, { base });
  const row = new Float64Array(dModel);
  for (let k = 0; k < dModel; k++) {
    const i = Math.floor(k / 2);
    row[k] = k % 2 === 0 ? Math.sin(pos * div[i]) : Math.cos(pos * div[i]);
  }
  return row;
}

/** Rows offset .. offset + positions - 1, row-major. */
export function sinusoidal(positions, dModel, { base = 10000, offset = 0 } = {}) {
  const out = new Float64Array(positions * dModel);
  for (let r = 0; r < positions; r++) out.set(sinusoidalRow(offset + r, dModel, { base }), r * dModel);
  return out;
}

/** PE(m) . PE(n), summed term by term over the two rows (no trig identity used). */
export function sinusoidalDot(m, n, dModel, { base = 10000 } = {}) {
  return dot(sinusoidalRow(m, dModel, { base }), sinusoidalRow(n, dModel, { base }));
}

/** Wavelength of the pair holding dim k: 2 pi / div_{floor(k/2)} = 2 pi base^(2i/d). */
export function sinusoidalWavelength(k, dModel, { base = 10000 } = {}) {
  return 2 * Math.PI * base ** ((2 * Math.floor(k / 2)) / dModel);
}

// [ROPE] ----------------------------------------------------------------------------------

/** inv_freq_i = 1 / base^(2i/d), i < d/2 (HF _compute_default_rope_parameters). */
export function ropeDefaultInvFreq(dim, base = 10000) {
  const out = new Float64Array(dim / 2);
  for (let i = 0; i < dim / 2; i++) out[i] = 1 / base ** ((2 * i) / dim);
  return out;
}

// HF get_mscale: 0.1 * mscale * ln(scale) + 1, and 1 when scale <= 1.
function yarnGetMscale(scale, mscale = 1) {
  return scale <= 1 ? 1 : 0.1 * mscale * Math.log(scale) + 1;
}

// HF find_correction_dim: the (fractional) dim index whose wavelength fits `rotations` times
// into the original context.
function yarnCorrectionDim(rotations, dim, base, maxPositions) {
  return (dim * Math.log(maxPositions / (rotations * 2 * Math.PI))) / (2 * Math.log(base));
}

/** HF find_correction_range: [low, high], floored/ceiled when truncate, clamped to [0, d - 1]. */
export function yarnCorrectionRange(dim, base, { originalMaxPositions, betaFast = 32, betaSlow = 1, truncate = true }) {
  let low = yarnCorrectionDim(betaFast, dim, base, originalMaxPositions);
  let high = yarnCorrectionDim(betaSlow, dim, base, originalMaxPositions);
  if (truncate) {
    low = Math.floor(low);
    high = Math.ceil(high);
  }
  return [Math.max(low, 0), Math.min(high, dim - 1)];
}

function yarn(dim, base, s) {
  const { factor, mscale, mscaleAllDim } = s;
  let attentionFactor = s.attentionFactor;
  if (attentionFactor === undefined) {
    // Python truthiness: `if mscale and mscale_all_dim` (0 and None both fall through).
    attentionFactor = mscale && mscaleAllDim
      ? yarnGetMscale(factor, mscale) / yarnGetMscale(factor, mscaleAllDim)
      : yarnGetMscale(factor);
  }
  const [low, lowHigh] = yarnCorrectionRange(dim, base, s);
  const high = low === lowHigh ? lowHigh + 0.001 : lowHigh; // HF linear_ramp_factor
  const extrapolation = ropeDefaultInvFreq(dim, base);
  const invFreq = new Float64Array(dim / 2);
  for (let j = 0; j < dim / 2; j++) {
    const ramp = Math.min(Math.max((j - low) / (high - low), 0), 1);
    const interpolation = extrapolation[j] / factor;
    const extrapolationFactor = 1 - ramp;
    invFreq[j] = interpolation * (1 - extrapolationFactor) + extrapolation[j] * extrapolationFactor;
  }
  return { invFreq, attentionFactor };
}

function llama3(dim, base, { factor, originalMaxPositions, lowFreqFactor = 1, highFreqFactor = 4 }) {
  const lowFreqWavelen = originalMaxPositions / lowFreqFactor;
  const highFreqWavelen = originalMaxPositions / highFreqFactor;
  const invFreq = ropeDefaultInvFreq(dim, base).map((f) => {
    const wavelen = (2 * Math.PI) / f;
    if (wavelen < highFreqWavelen) return f;
    if (wavelen > lowFreqWavelen) return f / factor;
    const smooth = (originalMaxPositions / wavelen - lowFreqFactor) / (highFreqFactor - lowFreqFactor);
    return ((1 - smooth) * f) / factor + smooth * f;
  });
  return { invFreq, attentionFactor: 1 };
}

function longrope(dim, base, s) {
  const { originalMaxPositions, maxPositions, seqLen, shortFactor, longFactor } = s;
  const factor = maxPositions / originalMaxPositions;
  let attentionFactor = s.attentionFactor;
  if (attentionFactor === undefined) {
    attentionFactor = factor <= 1 ? 1 : Math.sqrt(1 + Math.log(factor) / Math.log(originalMaxPositions));
  }
  // HF: `if seq_len and seq_len > original_max_position_embeddings`.
  const ext = seqLen && seqLen > originalMaxPositions ? longFactor : shortFactor;
  const invFreq = new Float64Array(dim / 2);
  for (let i = 0; i < dim / 2; i++) invFreq[i] = 1 / (ext[i] * base ** ((2 * i) / dim));
  return { invFreq, attentionFactor };
}

/** { invFreq: Float64Array(dim/2), attentionFactor } for every HF scaling type and static NTK. */
export function ropeFrequencies(dim, { base = 10000, scaling } = {}) {
  const type = scaling?.type ?? 'default';
  switch (type) {
    case 'default':
      return { invFreq: ropeDefaultInvFreq(dim, base), attentionFactor: 1 };
    case 'linear':
      return { invFreq: ropeDefaultInvFreq(dim, base).map((f) => f / scaling.factor), attentionFactor: 1 };
    case 'dynamic': {
      const { factor, maxPositions, seqLen } = scaling;
      const L = seqLen !== undefined && seqLen > maxPositions ? seqLen : maxPositions;
      const scaledBase = base * ((factor * L) / maxPositions - (factor - 1)) ** (dim / (dim - 2));
      return { invFreq: ropeDefaultInvFreq(dim, scaledBase), attentionFactor: 1 };
    }
    case 'yarn':
      return yarn(dim, base, scaling);
    case 'llama3':
      return llama3(dim, base, scaling);
    case 'longrope':
      return longrope(dim, base, scaling);
    case 'ntk':  // bloc97's NTK-aware base, as written out in the YaRN paper
      return { invFreq: ropeDefaultInvFreq(dim, base * scaling.factor ** (dim / (dim - 2))), attentionFactor: 1 };
    default:
      throw new Error(`reference: unknown scaling type ${type}`);
  }
}

/** The index pairs (a, b) rotated together: half (i, i + d/2), interleaved (2i, 2i + 1). */
export function ropePairs(dim, layout = 'half') {
  const n = dim / 2;
  const pairs = [];
  for (let i = 0; i < n; i++) pairs.push(layout === 'half' ? [i, i + n] : [2 * i, 2 * i + 1]);
  return pairs;
}

/**
 * Rotates each row of x (rows = positions.length) pair by pair: (a, b) ->
 * (a cos - b sin, b cos + a sin) * attentionFactor with angle pos * invFreq_i. This is HF's
 * q * cos + rotate_half(q) * sin with cos, sin already multiplied by attention_scaling.
 */
export function ropeApply(x, positions, dim, { layout = 'half', base = 10000, scaling } = {}) {
  const pos = typeof positions === 'number' ? Array.from({ length: positions }, (_, i) => i) : positions;
  const { invFreq, attentionFactor } = ropeFrequencies(dim, { base, scaling });
  const pairs = ropePairs(dim, layout);
  const out = Float64Array.from(x);
  pos.forEach((p, r) => {
    pairs.forEach(([ia, ib], i) => {
      const angle = p * invFreq[i];
      const c = Math.cos(angle) * attentionFactor;
      const s = Math.sin(angle) * attentionFactor;
      const a = x[r * dim + ia];
      const b = x[r * dim + ib];
      out[r * dim + ia] = a * c - b * s;
      out[r * dim + ib] = b * c + a * s;
    });
  });
  return out;
}

// [T5] ------------------------------------------------------------------------------------

// floor(ln(n/e) / ln(d/e) * R) for integers n >= e >= 1, d > e, decided exactly: the largest k
// with (n/e)^R >= (d/e)^k, i.e. n^R e^k >= d^k e^R in BigInt. A float estimate picks k and the
// integer test settles it, so a boundary (T5's n = 16, 32, 64 at the defaults, or n = 3 with
// e = 1, d = 9: ln 3 / ln 9 = 1/2) never hangs on the last bit of a logarithm. Math.log is not
// correctly rounded (V8 gives ln 9 != 2 ln 3), and the HF code it stands for computes in float32.
function logSteps(n, e, d, R) {
  let k = Math.trunc((Math.log(n / e) / Math.log(d / e)) * R);
  if (k > R) return k; // far past the last bucket: capped by the caller either way
  const [N, E, D, RR] = [BigInt(n), BigInt(e), BigInt(d), BigInt(R)];
  const reaches = (j) => N ** RR * E ** BigInt(j) >= D ** BigInt(j) * E ** RR;
  while (reaches(k + 1)) k++;
  while (k > 0 && !reaches(k)) k--;
  return k;
}

/** Bucket of one relative position rp = key - query. */
export function t5Bucket(rp, { bidirectional = true, numBuckets = 32, maxDistance = 128 } = {}) {
  let nb = numBuckets;
  let bucket = 0;
  let n;
  if (bidirectional) {
    nb = Math.floor(nb / 2);
    if (rp > 0) bucket += nb;
    n = Math.abs(rp);
  } else {
    n = -Math.min(rp, 0);
  }
  const maxExact = Math.floor(nb / 2);
  if (n < maxExact) return bucket + n; // the log branch (log 0 for n = 0) is never evaluated
  const large = maxExact + logSteps(n, maxExact, maxDistance, nb - maxExact);
  return bucket + Math.min(large, nb - 1);
}

export function t5Buckets(rps, options) {
  return Int32Array.from(rps, (rp) => t5Bucket(rp, options));
}

// [SHAW] ----------------------------------------------------------------------------------

/** clip(j - i, -k, k) + k, with the qLen queries sitting at the last key positions. */
export function shawIndex(queryLength, keyLength, maxDistance) {
  const out = new Int32Array(queryLength * keyLength);
  for (let i = 0; i < queryLength; i++) {
    const queryPosition = keyLength - queryLength + i;
    for (let j = 0; j < keyLength; j++) {
      const d = j - queryPosition;
      out[i * keyLength + j] = Math.min(Math.max(d, -maxDistance), maxDistance) + maxDistance;
    }
  }
  return out;
}

// [ALIBI] ---------------------------------------------------------------------------------

// fairseq get_slopes_power_of_2: start = 2^(-2^-(log2 n - 3)), ratio = start, start * ratio**i.
function alibiSlopesPowerOf2(n) {
  const start = 2 ** -(2 ** -(Math.log2(n) - 3));
  const ratio = start;
  return Array.from({ length: n }, (_, i) => start * ratio ** i);
}

/** fairseq get_slopes, in its (unsorted) order for non-powers of two. */
export function alibiSlopes(n) {
  if (Number.isInteger(Math.log2(n))) return Float64Array.from(alibiSlopesPowerOf2(n));
  const closest = 2 ** Math.floor(Math.log2(n));
  const rest = Array.from(alibiSlopes(2 * closest)).filter((_, i) => i % 2 === 0).slice(0, n - closest);
  return Float64Array.from([...alibiSlopesPowerOf2(closest), ...rest]);
}

/** -slope * |i - j|; causal: -Infinity where j > i. */
export function alibiBias(length, slope, { causal = true } = {}) {
  const out = new Float64Array(length * length);
  for (let i = 0; i < length; i++) {
    for (let j = 0; j < length; j++) out[i * length + j] = causal && j > i ? -Infinity : -slope * Math.abs(i - j);
  }
  return out;
}

// [ATTENTION] -----------------------------------------------------------------------------

export function dot(a, b, aStart = 0, bStart = 0, length = a.length) {
  let s = 0;
  for (let t = 0; t < length; t++) s += a[aStart + t] * b[bStart + t];
  return s;
}

/** Max-subtracted softmax; a row that is all -Infinity comes out as zeros. */
export function softmax(row) {
  const max = Math.max(...row);
  if (max === -Infinity) return row.map(() => 0);
  const e = row.map((v) => Math.exp(v - max));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / sum);
}

/**
 * Weights (or scores when softmax is false) of one head, rows(q) x rows(k). Queries are the last
 * rows(q) positions, so causal masking hides keys j > rows(k) - rows(q) + i.
 */
export function attention(q, k, dim, { bias, causal = false, scale = 1 / Math.sqrt(dim), softmax: normalise = true } = {}) {
  const qRows = q.length / dim;
  const kRows = k.length / dim;
  const out = new Float64Array(qRows * kRows);
  for (let i = 0; i < qRows; i++) {
    const row = [];
    for (let j = 0; j < kRows; j++) {
      let s = dot(q, k, i * dim, j * dim, dim) * scale;
      if (bias) s += bias[i * kRows + j];
      if (causal && j > kRows - qRows + i) s = -Infinity;
      row.push(s);
    }
    out.set(normalise ? softmax(row) : row, i * kRows);
  }
  return out;
}

// The core's seeded stand-ins (core/splitmix64.hpp), transcribed bit for bit with BigInt.
const M64 = (1n << 64n) - 1n;

/** A SplitMix64 stream from a 64-bit BigInt state; each call returns a uniform in [0, 1). */
export function splitMix64(state) {
  let s = state & M64;
  return () => {
    s = (s + 0x9E3779B97F4A7C15n) & M64;
    let z = s;
    z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & M64;
    z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & M64;
    return Number((z ^ (z >> 31n)) >> 11n) * 2 ** -53;
  };
}

/** Row `pos` of core.learned's table: Box–Muller N(0, std²) pairs, each value rounded to float32. */
export function learnedRow(pos, d, { seed = 0, std = 0.02 } = {}) {
  const uniform = splitMix64((BigInt(seed) << 32n) ^ ((BigInt(pos) * 0xD1B54A32D192ED03n) & M64));
  const row = new Float64Array(d);
  for (let c = 0; c < d; c += 2) {
    const u1 = 1 - uniform();
    const u2 = uniform();
    const r = Math.sqrt(-2 * Math.log(u1)) * std;
    row[c] = Math.fround(r * Math.cos(2 * Math.PI * u2));
    if (c + 1 < d) row[c + 1] = Math.fround(r * Math.sin(2 * Math.PI * u2));
  }
  return row;
}

/** Transformer-XL's example vectors: n uniforms in [−1, 1) from the stream (seed << 32) + tag. */
export function xlDraws(seed, tag, n) {
  const uniform = splitMix64((BigInt(seed) << 32n) + BigInt(tag));
  return Array.from({ length: n }, () => uniform() * 2 - 1);
}
