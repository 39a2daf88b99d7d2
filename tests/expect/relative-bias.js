// Step 9, relative position as a learned bias: what the page must show, computed here from the formulas.
// Used by tests/browser/relative-bias.test.js (Chromium) and the cross-engine suite (tests/engines/).
import { t5Bucket as referenceT5Bucket, xlDraws } from '../js/reference.js';

// Shaw et al. (tensor2tensor _generate_relative_positions_matrix), equal lengths.
export const shawIndex = (i, j, k) => Math.min(k, Math.max(-k, j - i)) + k;

// Transformer-XL: SplitMix64 streams per (seed, tag); uniform in [−1, 1) (xlDraws).
export const draws = xlDraws;
export const XL_D = 16;
export const XL_LEN = 24;
export function xlInputs(i, j, seed, d = XL_D, base = 10000) {
  const w = draws(seed, 2, d * d).map((x) => x / Math.sqrt(d));
  // kimiyoung/transformer-xl PositionalEmbedding: inv_freq = 1 / base^(arange(0, d, 2) / d), cat([sin, cos]).
  const inv = Array.from({ length: d / 2 }, (_, f) => 1 / base ** ((2 * f) / d));
  const r = [...inv.map((f) => Math.sin((i - j) * f)), ...inv.map((f) => Math.cos((i - j) * f))];
  return { q: draws(seed, 3 + 2 * i, d), k: draws(seed, 4 + 2 * j, d), u: draws(seed, 0, d), v: draws(seed, 1, d), w, r };
}
export function xlTerms(i, j, seed) {
  const { q, k, u, v, w, r } = xlInputs(i, j, seed);
  const wr = Array.from({ length: XL_D }, (_, row) => r.reduce((s, x, col) => s + w[row * XL_D + col] * x, 0));
  const dot = (x, y) => x.reduce((s, a, c) => s + a * y[c], 0);
  const terms = [dot(q, k), dot(q, wr), dot(u, k), dot(v, wr)];
  return { terms, score: terms.reduce((s, x) => s + x, 0) };
}

// T5, exactly (tests/js/reference.js: beyond the exact range the offset is the largest s <= m with
// (D/e)^s <= (n/e)^m, in integers).
export const t5Bucket = (rp, bidirectional, nb, maxd) => referenceT5Bucket(rp, { bidirectional, numBuckets: nb, maxDistance: maxd });
// HF modeling_t5.py _relative_position_bucket in float64, for the cross-check.
export function hfBucket(rp, bidirectional, nb, maxd) {
  let ret = 0;
  let n;
  let buckets = nb;
  if (bidirectional) {
    buckets = Math.floor(buckets / 2);
    ret += rp > 0 ? buckets : 0;
    n = Math.abs(rp);
  } else {
    n = -Math.min(rp, 0);
  }
  const maxExact = Math.floor(buckets / 2);
  if (n < maxExact) return ret + n;
  const large = maxExact + Math.trunc((Math.log(n / maxExact) / Math.log(maxd / maxExact)) * (buckets - maxExact));
  return ret + Math.min(large, buckets - 1);
}

// How the page writes two decimals (U+2212 for a minus).
export const f2 = (v) => v.toFixed(2).replace(/^-0\.00$/, '0.00').replace(/^-/, '−');

/** A state the cross-engine suite opens (Transformer-XL, seed 99), and its readouts. */
export function seed() {
  const [i, j, s] = [17, 4, 99];
  const { terms, score } = xlTerms(i, j, s);
  const readouts = {
    'xl-score': { value: score, tol: 1e-9, text: f2(score) },
    'xl-distance': { value: i - j, tol: 0 },
  };
  ['a', 'b', 'c', 'd'].forEach((name, n) => { readouts[`xl-${name}`] = { value: terms[n], tol: 1e-9, text: f2(terms[n]) }; });
  return { query: `method=xl&xi=${i}&xj=${j}&seed=${s}`, readouts };
}
