// Step "extend": what the figures draw, from the core. For a model, factor and reading length:
// every method's frequencies, its attention factor, the score of q = k = all ones against the
// distance, and the mean score of independent random q, k pairs. Computed once per setting.
import { D, METHODS, MODELS, RANDOM_PAIRS, RANDOM_SEED, SAMPLES, scalingFor } from './setup.js';

/** Returns computed(model, factor, read): the cached entry for those settings. */
export function extendModels(core) {
  // The same all-ones vector at every sampled distance, once; the core rotates a copy per call.
  const ones = new Float32Array((SAMPLES + 1) * D).fill(1);
  const one = new Float32Array(D).fill(1);
  const DOT = { softmax: false, scale: 1 };

  // Independent random queries and keys (normal, std 1, seeded draws of the core), and the
  // same N queries laid out once per sampled distance: row k·N + p is query p at distance k.
  const qRandom = core.learned(RANDOM_PAIRS, D, { maxPositions: RANDOM_PAIRS, seed: RANDOM_SEED, std: 1 });
  const kRandom = core.learned(RANDOM_PAIRS, D, { maxPositions: RANDOM_PAIRS, seed: RANDOM_SEED + 1, std: 1 });
  const qTiled = new Float32Array((SAMPLES + 1) * RANDOM_PAIRS * D);
  for (let k = 0; k <= SAMPLES; k++) qTiled.set(qRandom, k * RANDOM_PAIRS * D);
  const atZero = new Float64Array(RANDOM_PAIRS);
  const WIDE = RANDOM_PAIRS * D;
  /**
   * The mean of q_p(Δ)·k_p(0) over the random pairs, one per sampled Δ. The N pairs of one Δ
   * sit side by side, so one dot product of length N·d (scaled by 1/N) averages them.
   */
  function randomMean(distances, options) {
    const positions = new Float64Array((SAMPLES + 1) * RANDOM_PAIRS);
    for (let k = 0; k <= SAMPLES; k++) positions.fill(distances[k], k * RANDOM_PAIRS, (k + 1) * RANDOM_PAIRS);
    const q = core.ropeApply(qTiled, positions, D, options);
    const k = core.ropeApply(kRandom, atZero, D, options);
    return core.attention(q, k, WIDE, { softmax: false, scale: 1 / RANDOM_PAIRS });
  }

  // Everything that depends on (model, factor, read) only: every method's frequencies and score
  // curve. Changing the method or the pair then draws from the cache.
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
      const q = core.ropeApply(ones, distances, D, options);   // q(Δ), times the attention factor
      const k = core.ropeApply(one, [0], D, options);          // k(0): not turned, same factor
      const scores = core.attention(q, k, D, DOT);             // q(Δ)·k(0), one per Δ
      const random = randomMean(distances, options);
      methods[method] = { invFreq, attentionFactor, scores, random, wavelengths: Array.from(invFreq, (f) => (2 * Math.PI) / f) };
    }
    const entry = { base, L, readLength, distances, methods, atL: SAMPLES / read };
    cache.set(key, entry);
    return entry;
  }

  return computed;
}
