// Step "choose", the decision and the numbers: the four questions, recommend() (the first rule
// that applies picks the method), the comparison table's rows, and what each method makes of the
// distance between a query and a key, computed by the core (sinusoidalDot, learned, t5Bucket,
// ropeApply + attention, alibiSlopes + alibiBias). DOM-free: tests/js/choose-model.test.js. The
// view (choose.js) formats and draws.
import { COMPARED } from '../../families.js';

export const QUESTIONS = {
  data: ['text', 'image'],
  model: ['decoder', 'encoder'],
  length: ['fixed', 'longer'],
  want: ['baseline', 'checkpoint', 'distance', 'extrapolate', 'llm'],
};

/** The rows of the comparison table, in its order: the registry's families it compares (their
 * words in families.json), then 2-D encodings for images (choose.json). */
export const FAMILIES = [...COMPARED, 'vision'];

/**
 * The recommendation for a set of answers: { method, rule }. The first rule that applies wins.
 * method is one of FAMILIES or 'rope-scaled' (RoPE plus a context-extension scaling).
 */
export function recommend({ data, model, length, want }) {
  // Patches have a row and a column: a 1-D code throws that away.
  if (data === 'image') return { method: 'vision', rule: 'image' };
  // The simplest thing that extrapolates: a fixed linear penalty, nothing to train or rotate.
  if (want === 'extrapolate') return { method: 'alibi', rule: 'extrapolate' };
  // The default of today's large models; reading past the training length needs a scaling.
  if (want === 'llm') return length === 'longer' ? { method: 'rope-scaled', rule: 'llmLonger' } : { method: 'rope', rule: 'llm' };
  // A learned table has no rows past its length, and sinusoids rarely carry a model far past it.
  if (length === 'longer') return { method: 'rope-scaled', rule: 'longer' };
  // Distances matter: a learned bias per distance is fine in an encoder, which reads its input
  // in one pass; a decoder generating token by token is better served by rotations, which fused
  // attention kernels take without an extra bias matrix per head.
  if (want === 'distance') return model === 'encoder' ? { method: 't5', rule: 'distanceEncoder' } : { method: 'rope', rule: 'distanceDecoder' };
  // A learned table wins no published comparison on quality (Vaswani et al.: "nearly identical" to
  // sinusoids; RoFormer and EleutherAI: RoPE at least as good); its case is a pretrained model
  // that already has one (BERT, GPT-2, ViT), where another encoding would mean pretraining again.
  if (want === 'checkpoint') return { method: 'learned', rule: 'checkpoint' };
  return { method: 'sinusoidal', rule: 'baseline' };
}

/** The table row a method belongs to. */
export const familyOf = (method) => (method === 'rope-scaled' ? 'rope' : method);

export const FAR = 64;    // the plot runs over distances 0..FAR
export const TRAIN = 32;  // the training length marked on it
const D = 16;
const T5 = { numBuckets: 32, maxDistance: 128 };  // T5's own settings
const RANDOM_PAIRS = 32;                          // random q, k pairs averaged for RoPE
const RANDOM_SEED = 23;

/** Every method recommend() can return, in the order the step lists them. */
export const METHODS = ['sinusoidal', 'learned', 't5', 'rope', 'rope-scaled', 'alibi', 'vision'];

/**
 * What the method makes of the distance k between a query and an earlier key, k = 0..FAR, all
 * from the core: { y: axis kind, yDomain, series: [{ key, x, y, cls, points }], vars }, vars
 * being numbers the description and the note quote (unformatted).
 */
export function signal(core, method) {
  const ks = (n = FAR + 1) => Float64Array.from({ length: n }, (_, k) => k);
  const line = (key, y, cls, points = false) => ({ key, x: ks(y.length), y, cls, points });
  // q·k of one vector (all ones) rotated at position 0 and at position k, over its own q·q.
  const rotary = (scaling) => {
    const x = new Float32Array((FAR + 1) * D).fill(1);
    const r = core.ropeApply(x, FAR + 1, D, scaling ? { scaling } : {});
    const dots = core.attention(r.subarray(0, D), r, D, { softmax: false, scale: 1 });
    return Float64Array.from(dots, (v) => v / dots[0]);
  };
  // The mean of q_p(k)·k_p(0) over independent random pairs (normal, std 1, from the core),
  // over d, the all-ones curve's value at 0: the N queries of one distance side by side make one
  // dot product of length N·d.
  const randomRotary = () => {
    const qs = core.learned(RANDOM_PAIRS, D, { maxPositions: RANDOM_PAIRS, seed: RANDOM_SEED, std: 1 });
    const keys = core.ropeApply(core.learned(RANDOM_PAIRS, D, { maxPositions: RANDOM_PAIRS, seed: RANDOM_SEED + 1, std: 1 }),
      new Float64Array(RANDOM_PAIRS), D);
    const tiled = new Float32Array((FAR + 1) * RANDOM_PAIRS * D);
    const positions = new Float64Array((FAR + 1) * RANDOM_PAIRS);
    for (let k = 0; k <= FAR; k++) {
      tiled.set(qs, k * RANDOM_PAIRS * D);
      positions.fill(k, k * RANDOM_PAIRS, (k + 1) * RANDOM_PAIRS);
    }
    const means = core.attention(core.ropeApply(tiled, positions, D), keys, RANDOM_PAIRS * D,
      { softmax: false, scale: 1 / RANDOM_PAIRS });
    return Float64Array.from(means, (v) => v / D);
  };
  switch (method) {
    case 'sinusoidal':
      return { y: 'similarity', yDomain: [-1, 1], series: [
        line('sinusoidal', Float64Array.from(ks(), (k) => core.sinusoidalDot(0, k, D) / (D / 2)), 'a', true)] };
    case 'learned': {
      // A seeded stand-in for a trained table of TRAIN rows: cosine of row 0 with row k. Row
      // TRAIN does not exist (the core throws a RangeError for it), so the line stops there.
      const t = core.learned(TRAIN, D, { maxPositions: TRAIN, seed: 7 });
      const g = core.attention(t, t, D, { softmax: false, scale: 1 });
      const y = Float64Array.from({ length: TRAIN }, (_, k) => g[k] / Math.sqrt(g[0] * g[k * TRAIN + k]));
      return { y: 'similarity', yDomain: [-1, 1], series: [line('learned', y, 'a', true)] };
    }
    case 't5': {
      // T5 buckets of key − query = −k (an earlier key) with T5's 32 buckets and maximum
      // distance 128; the last bucket of the direction starts beyond the plot, found here.
      const b = core.t5Bucket(Array.from(ks(), (k) => -k), T5);
      const wide = core.t5Bucket(Array.from({ length: 2 * T5.maxDistance + 1 }, (_, k) => -k), T5);
      const last = T5.numBuckets / 2 - 1;
      return {
        y: 'bucket', yDomain: [0, 16], series: [line('t5', Float64Array.from(b), 'a', true)],
        vars: { maxd: T5.maxDistance, lastBucket: last, lastFrom: wide.indexOf(last), exact: T5.numBuckets / 4 },
      };
    }
    case 'rope': {
      const random = randomRotary();
      let far = 0;
      for (const v of random) far = Math.max(far, Math.abs(v));
      return {
        y: 'similarity', yDomain: [-1, 1],
        series: [line('rope', rotary(null), 'a', true), line('ropeRandom', random, 'b')],
        vars: { pairs: RANDOM_PAIRS, spread: far },
      };
    }
    case 'rope-scaled':
      return { y: 'similarity', yDomain: [-1, 1], series: [
        line('ropeScaled', rotary({ type: 'linear', factor: FAR / TRAIN }), 'a', true),
        line('rope', rotary(null), 'b')] };
    case 'alibi': {
      // Three of eight heads' slopes; the last row of a causal bias matrix holds −m·k for k back.
      const slopes = core.alibiSlopes(8);
      const row = (m) => {
        const bias = core.alibiBias(FAR + 1, m, { causal: true });
        return Float64Array.from(ks(), (k) => bias[FAR * (FAR + 1) + FAR - k]);
      };
      return { y: 'bias', yDomain: [-32, 0], series: [
        line('alibi3', row(slopes[2]), 'a', true), line('alibi1', row(slopes[0]), 'b'), line('alibi8', row(slopes[7]), 'c')] };
    }
    default: {
      // 2-D sin-cos: half the dimensions code the row, half the column, so the similarity of
      // patch (0, 0) with (0, k) and with (k, k) is a sum of two 1-D dot products.
      const half = D / 2;
      const s = Float64Array.from(ks(), (k) => core.sinusoidalDot(0, k, half));
      const same = core.sinusoidalDot(0, 0, half);
      return { y: 'similarity', yDomain: [-1, 1], series: [
        line('visionRow', Float64Array.from(s, (v) => (same + v) / (2 * same)), 'a', true),
        line('visionDiagonal', Float64Array.from(s, (v) => v / same), 'b')] };
    }
  }
}

/** What the plot shows for every method, computed once. */
export const signals = (core) => new Map(METHODS.map((k) => [k, signal(core, k)]));
