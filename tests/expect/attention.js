// Step 11, attention family by family: what the page must show, computed here from the formulas.
// Used by tests/browser/attention.test.js (Chromium) and the cross-engine suite (tests/engines/).
import { learnedRow, t5Bucket as referenceT5Bucket } from '../js/reference.js';  // the seeded rows of core/learned.cpp; T5's buckets

export const D = 64;

/** The token contents and encodings of seed 0, grown on demand (shared by every test). */
export const tokens = { a: [], b: [], l: [] };
export function token(kind, t) {
  const list = tokens[kind];
  while (list.length <= t) {
    const p = list.length;
    if (kind === 'l') {
      list.push(learnedRow(p, D, { seed: 2, std: Math.SQRT1_2 }));
    } else {
      // Query content: seed 3·0, key content: 3·0 + 1, each plus the shared ±√½ direction.
      const g = learnedRow(p, D, { seed: kind === 'a' ? 0 : 1, std: 0.5 });
      list.push(g.map((v, c) => Math.fround(v + Math.fround(Math.floor(c / 2) % 2 ? -Math.SQRT1_2 : Math.SQRT1_2))));
    }
  }
  return list[t];
}

export function position(family, kind, t) {
  const x = Float64Array.from(token(kind, t));
  if (family === 'sinusoidal') {
    for (let c = 0; c < D; c++) {
      const w = 10000 ** (-(2 * Math.floor(c / 2)) / D);
      x[c] += c % 2 ? Math.cos(t * w) : Math.sin(t * w);
    }
  } else if (family === 'learned') {
    const l = token('l', t);
    for (let c = 0; c < D; c++) x[c] += l[c];
  } else if (family === 'rope' || family === 'partial-rope') {
    // RoPE turns all D dimensions, partial RoPE the first quarter (GPT-NeoX's rotary_pct 0.25),
    // each with the frequencies of a head as wide as the part it turns.
    const r = family === 'rope' ? D : D / 4;
    for (let k = 0; k < r / 2; k++) {
      const angle = t * 10000 ** (-(2 * k) / r);
      const [u, v] = [x[k], x[k + r / 2]];
      x[k] = u * Math.cos(angle) - v * Math.sin(angle);
      x[k + r / 2] = v * Math.cos(angle) + u * Math.sin(angle);
    }
  }
  return x;
}

// T5's bucket of rp = key − query (tests/js/reference.js, the exact form of HF's function).
export const t5Bucket = (rp, bidirectional, nb = 32, maxDistance = 128) =>
  referenceT5Bucket(rp, { bidirectional, numBuckets: nb, maxDistance });

export const keyCache = new Map();
/** Scores and probabilities of query i over keys 0..n−1, in double. */
export function attentionRow(family, n, i, { causal = true, head = 3 } = {}) {
  const cacheKey = `${family}/${n}`;
  if (!keyCache.has(cacheKey)) keyCache.set(cacheKey, Array.from({ length: n }, (_, t) => position(family, 'b', t)));
  const keys = keyCache.get(cacheKey);
  const q = position(family, 'a', i);
  const scores = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    let dot = 0;
    for (let c = 0; c < D; c++) dot += q[c] * keys[j][c];
    let s = dot / Math.sqrt(D);
    if (family === 'alibi') s -= 2 ** -(head + 1) * Math.abs(i - j);
    if (family === 't5') {
      const per = causal ? 32 : 16;
      s += (-4 * (t5Bucket(j - i, !causal) % per)) / (per - 1);
    }
    scores[j] = causal && j > i ? -Infinity : s;
  }
  const max = Math.max(...scores);
  const e = scores.map((s) => Math.exp(s - max));
  const sum = e.reduce((x, y) => x + y, 0);
  return { scores, probs: e.map((v) => v / sum) };
}

/** The drawn grid: at most 256 rows (query ⌊r·n/R⌋) and 256 key bins [⌊c·n/C⌋, ⌊(c+1)·n/C⌋). */
export function grid(n) {
  const R = Math.min(n, 256);
  return {
    rows: Array.from({ length: R }, (_, r) => Math.floor((r * n) / R)),
    edges: Array.from({ length: R + 1 }, (_, c) => Math.floor((c * n) / R)),
  };
}
export const binRow = (probs, edges) => edges.slice(0, -1).map((lo, c) => {
  let s = 0;
  for (let k = lo; k < edges[c + 1]; k++) s += probs[k];
  return s;
});

/**
 * A state the cross-engine suite opens (T5 bias against sinusoidal, 512 tokens, no mask), and
 * its readouts. `near` is how close the shown text must be (its digits, as the Chromium test
 * reads them); `check` tests a readout that has no single right value (the top key, within ties).
 */
export function seed() {
  const [n, i, j, head] = [512, 300, 290, 2];
  const a = attentionRow('t5', n, i, { causal: false, head });
  const b = attentionRow('sinusoidal', n, i, { causal: false, head });
  const top = Math.max(...a.probs);
  return {
    query: `family=t5&versus=sinusoidal&n=${n}&causal=0&head=${head}&i=${i}&j=${j}`,
    readouts: {
      score: { value: a.scores[j], tol: 2e-5, near: [a.scores[j], 0.5e-3 + 2e-5] },
      prob: { value: a.probs[j], tol: 5e-6, near: [a.probs[j], 0.5e-4 + 2e-5] },
      probB: { value: b.probs[j], tol: 5e-6 },
      diff: { value: a.probs[j] - b.probs[j], tol: 1e-5 },
      top: { check: [(v) => a.probs[v] >= top - 1e-6, 'the most-attended key has the row\'s largest probability'] },
    },
  };
}
