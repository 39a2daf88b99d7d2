// Step "extend": what the figures draw, from the core. For a model, factor and reading length:
// every method's frequencies, its attention factor, the score of q = k = all ones against the
// distance, and the mean score of independent random q, k pairs. Computed once per setting: the
// table's two scores up front, a method's two curves only when first read.
import { D, METHODS, MODELS, RANDOM_PAIRS, RANDOM_SEED, SAMPLES, scalingFor } from './setup.js';

/**
 * Returns computed(model, factor, read): the cached entry for those settings, whose
 * methods[m] is { invFreq, wavelengths, attentionFactor, scoreAtL, scoreAtEnd, scores, random,
 * curvesReady, prepareCurves() } (scores and random are getters that compute both curves on
 * first read, unless prepareCurves() already has);
 * computed.has(model, factor, read) says whether it is cached.
 */
export function extendModels(core) {
  // A query pair (a, b) turned by φ against a key pair (c, e) gives (ac + be) cos φ + (ae − bc) sin φ:
  // only two numbers per key pair matter. So every curve is one turned unit query (1 in the
  // first slot of each rotate_half pair i, i + d/2; 0 in the second) per sampled Δ, dotted with
  // a key that holds those two numbers per pair (the rotation and the attention factor stay
  // the core's):
  //   q = k = all ones → (2, 0) per pair: the score 2·Σ cos(Δθᵢ);
  //   the random pairs (normal, std 1, seeded draws of the core) → the pairs' mean coefficients:
  //   the mean of q_p(Δ)·k_p(0) over the N pairs, with one turned vector per Δ instead of N.
  const HALF = D / 2;
  const qRandom = core.learned(RANDOM_PAIRS, D, { maxPositions: RANDOM_PAIRS, seed: RANDOM_SEED, std: 1 });
  const kRandom = core.learned(RANDOM_PAIRS, D, { maxPositions: RANDOM_PAIRS, seed: RANDOM_SEED + 1, std: 1 });
  const mean = new Float64Array(D);
  for (let p = 0; p < RANDOM_PAIRS; p++) {
    for (let i = 0, o = p * D; i < HALF; i++) {
      const [a, b, c, e] = [qRandom[o + i], qRandom[o + i + HALF], kRandom[o + i], kRandom[o + i + HALF]];
      mean[i] += (a * c + b * e) / RANDOM_PAIRS;
      mean[i + HALF] += (a * e - b * c) / RANDOM_PAIRS;
    }
  }
  const keys = new Float32Array(2 * D);  // row 0: all ones' key, row 1: the random pairs' mean
  keys.fill(2, 0, HALF);
  keys.set(mean, D);
  const unit = new Float32Array((SAMPLES + 1) * D);
  for (let k = 0; k <= SAMPLES; k++) unit.fill(1, k * D, k * D + HALF);
  const DOT = { softmax: false, scale: 1 };

  // The two curves at `distances`: the all-ones score and the random pairs' mean, one value per
  // distance. Each distance is computed on its own, so a call with two distances gives exactly
  // the whole curve's values there (tests/js/extend-model.test.js).
  function scoresAt(distances, options) {
    const n = distances.length;
    const q = core.ropeApply(unit.subarray(0, n * D), distances, D, options);  // q(Δ) rotated, times the attention factor
    const k = core.ropeApply(keys, [0, 0], D, options);                        // k(0): not rotated, same factor
    const both = core.attention(q, k, D, DOT);                                 // n × 2
    const scores = new Float32Array(n);
    const random = new Float32Array(n);
    for (let j = 0; j < n; j++) [scores[j], random[j]] = [both[2 * j], both[2 * j + 1]];
    return { scores, random };
  }

  // Everything that depends on (model, factor, read) only, cached per setting: every method's
  // frequencies, attention factor and table scores, and its curves once read. Changing the pair
  // then only draws; choosing another method computes that method's curves the first time.
  const cache = new Map();
  function computed(model, factor, read) {
    const key = `${model}/${factor}/${read}`;
    if (cache.has(key)) return cache.get(key);
    const { base, L } = MODELS[model];
    const readLength = read * L;
    const distances = Float64Array.from({ length: SAMPLES + 1 }, (_, k) => (k * readLength) / SAMPLES);
    const methods = {};
    for (const method of METHODS) {
      const options = { base, scaling: scalingFor(method, MODELS[model], factor, readLength) };
      const { invFreq, attentionFactor } = core.ropeFrequencies(D, options);
      // Only the table's two scores (Δ = L and Δ = L′) up front; a method's curves wait until
      // first read (drawn, or saved as CSV). A change to a setting not yet prepared (a preset, a
      // fast drag) then rotates 2 query vectors per method plus 129 per drawn curve (at most
      // two), instead of 129 for each of the six (docs/benchmarks.md).
      const [atL, atEnd] = scoresAt([L, readLength], options).scores;
      let curves = null;
      methods[method] = {
        invFreq, attentionFactor, scoreAtL: atL, scoreAtEnd: atEnd,
        wavelengths: Array.from(invFreq, (f) => (2 * Math.PI) / f),
        get scores() { return (curves ??= scoresAt(distances, options)).scores; },
        get random() { return (curves ??= scoresAt(distances, options)).random; },
        get curvesReady() { return curves !== null; },
        prepareCurves() { curves ??= scoresAt(distances, options); },
      };
    }
    const entry = { base, L, readLength, distances, methods };
    cache.set(key, entry);
    return entry;
  }
  computed.has = (model, factor, read) => cache.has(`${model}/${factor}/${read}`);

  return computed;
}
