// Step "code", the numbers: what the core says for each quantity, the value with the JS call that
// computed it (compute), the curve the figure draws around it (curves: x and y series from the
// core, the marked point, the y domain and the numbers the captions name, unformatted), and the
// RoPE pairing table's three scores (pairing). DOM-free: tests/js/code-model.test.js. The view
// (code.js, pairing.js) formats and draws.
import { ALIBI_DISTANCE, SETUP, T5_REL, scalingOf } from './setup.js';

// The pairing table: q = k = (0.6, 0.4) in each of four pairs, as on the RoPE step.
const PAIRING_D = 8;
const PAIRING_Q = Float32Array.from({ length: PAIRING_D }, (_, j) => [0.6, 0.4][j % 2]);
const DOT = { softmax: false, scale: 1 };

/**
 * x reordered from the neighbour layout into rotate_half's: dimension 2i goes to i and 2i + 1 to
 * i + d/2, which is what HF's Llama conversion script does to the rows of W_q and W_k.
 */
export function toHalfLayout(x) {
  const half = x.length / 2;
  return Float32Array.from(x, (_, j) => (j < half ? x[2 * j] : x[2 * (j - half) + 1]));
}

const range = (a, b) => Float64Array.from({ length: b - a + 1 }, (_, k) => a + k);

/** @param {object} core */
export function codeModel(core) {
  // Core results that depend only on fixed settings or a few choices, computed once each.
  const memo = new Map();
  const once = (key, fn) => {
    if (!memo.has(key)) memo.set(key, fn());
    return memo.get(key);
  };
  const peTable = () => once('pe', () => core.sinusoidal(SETUP.pe.positions, SETUP.pe.d, { base: SETUP.pe.base }));
  const sinFreqs = (d) => once(`freqs${d}`, () => core.sinusoidalFrequencies(d, { base: 10000 }));
  // Partial RoPE's vector at position p: the first r of x turned (rotate_half pairs, frequencies of
  // a head r wide), the other d − r passed through, as GPT-NeoX does.
  const partialTurn = (p) => {
    const { d, r, pair } = SETUP['partial-rope'];
    const x = Float32Array.from({ length: d }, (_, c) => pair[c % 2]);
    const out = Float32Array.from(x);
    out.set(core.ropeApply(x.subarray(0, r), [p], r), 0);
    return out;
  };

  const compute = {
    pe({ pos, dim }) {
      const { positions, d } = SETUP.pe;
      const table = peTable();
      return { value: table[pos * d + dim], call: `core.sinusoidal(${positions}, ${d})[${pos} * ${d} + ${dim}]` };
    },
    wavelength({ wdim }) {
      const { d } = SETUP.wavelength;
      const omega = sinFreqs(d)[Math.floor(wdim / 2)];
      return { value: (2 * Math.PI) / omega, call: `2π / core.sinusoidalFrequencies(${d})[${Math.floor(wdim / 2)}]` };
    },
    dot({ width, i, j }) {
      return { value: core.sinusoidalDot(i, j, width, { base: SETUP.dot.base }), call: `core.sinusoidalDot(${i}, ${j}, ${width})` };
    },
    rope({ m: qpos, n: kpos }) {
      const { d, pair } = SETUP.rope;
      const x = Float32Array.from({ length: d }, (_, c) => pair[c % 2]);
      const q = core.ropeApply(x, [qpos], d, { layout: 'interleaved' });
      const k = core.ropeApply(x, [kpos], d, { layout: 'interleaved' });
      return {
        value: core.attention(q, k, d, { softmax: false, scale: 1 })[0],
        call: `core.attention(core.ropeApply(x, [${qpos}], ${d}, { layout: 'interleaved' }), core.ropeApply(x, [${kpos}], ${d}, { layout: 'interleaved' }), ${d}, { softmax: false, scale: 1 })`,
      };
    },
    'partial-rope'({ m: qpos, n: kpos }) {
      const { d, r } = SETUP['partial-rope'];
      return {
        value: core.attention(partialTurn(qpos), partialTurn(kpos), d, { softmax: false, scale: 1 })[0],
        call: `core.attention(turn(${qpos}), turn(${kpos}), ${d}, { softmax: false, scale: 1 }), turn(p) = [...core.ropeApply(x.slice(0, ${r}), [p], ${r}), ...x.slice(${r})]`,
      };
    },
    t5({ rel, bidir }) {
      const { numBuckets, maxDistance } = SETUP.t5;
      return {
        value: core.t5Bucket([rel], { bidirectional: bidir, numBuckets, maxDistance })[0],
        call: `core.t5Bucket([${rel}], { bidirectional: ${bidir} })`,
      };
    },
    alibi({ heads, head, dist }) {
      const slope = core.alibiSlopes(heads)[head - 1];
      // Row i = dist (the query), column j = 0 (the key): −slope · dist.
      const bias = core.alibiBias(dist + 1, slope)[dist * (dist + 1)];
      return { value: bias === 0 ? 0 : bias, call: `core.alibiBias(${dist + 1}, core.alibiSlopes(${heads})[${head - 1}])[${dist} * ${dist + 1}]` };
    },
    scaled({ scaling, factor, pair }) {
      const { d, base } = SETUP.scaled;
      const f = core.ropeFrequencies(d, { base, scaling: scalingOf(scaling, factor) });
      return { value: (2 * Math.PI) / f.invFreq[pair], call: `2π / core.ropeFrequencies(${d}, { scaling: { type: '${scaling}', … } }).invFreq[${pair}]` };
    },
  };

  const curves = {
    pe({ pos, dim }) {
      const { positions, d } = SETUP.pe;
      const table = peTable();
      const x = range(0, positions - 1);
      const y = Float64Array.from(x, (p) => table[p * d + dim]);
      const omega = sinFreqs(d)[Math.floor(dim / 2)];
      return { x, y, at: pos, yDomain: [-1.15, 1.15], vars: { wavelength: (2 * Math.PI) / omega } };
    },
    wavelength({ wdim }) {
      const { d } = SETUP.wavelength;
      const freqs = sinFreqs(d);
      const x = range(0, d - 1);
      const y = Float64Array.from(x, (k) => Math.log10((2 * Math.PI) / freqs[Math.floor(k / 2)]));
      return { x, y, at: wdim, yDomain: [0, 5], vars: { longest: (2 * Math.PI) / freqs[d / 2 - 1] } };
    },
    dot({ width, i, j }) {
      const x = range(0, 19);
      const y = Float64Array.from(x, (k) => core.sinusoidalDot(i, k, width, { base: SETUP.dot.base }));
      return { x, y, at: j, yDomain: [Math.min(0, ...y) - 0.5, width / 2 + 0.5], vars: { max: width / 2 } };
    },
    rope({ m: qpos, n }) {
      const { d, pair } = SETUP.rope;
      const x = range(0, 19);
      const keys = once('ropeKeys', () => core.ropeApply(
        Float32Array.from({ length: x.length * d }, (_, c) => pair[c % 2]), x.length, d, { layout: 'interleaved' }));
      const q = core.ropeApply(Float32Array.from({ length: d }, (_, c) => pair[c % 2]), [qpos], d, { layout: 'interleaved' });
      const y = Float64Array.from(core.attention(q, keys, d, { softmax: false, scale: 1 }));
      return { x, y, at: n, yDomain: [-2.3, 2.3], vars: { max: y[qpos] } };
    },
    'partial-rope'({ m: qpos, n }) {
      const { d } = SETUP['partial-rope'];
      const x = range(0, 19);
      const keys = once('partialKeys', () => {
        const out = new Float32Array(x.length * d);
        x.forEach((p, k) => out.set(partialTurn(p), k * d));
        return out;
      });
      const y = Float64Array.from(core.attention(partialTurn(qpos), keys, d, { softmax: false, scale: 1 }));
      return { x, y, at: n, yDomain: [2.3, 4.3], vars: { max: y[qpos] } };
    },
    t5({ rel, bidir }) {
      const { numBuckets, maxDistance } = SETUP.t5;
      const x = once('t5x', () => range(T5_REL.min, T5_REL.max));
      const y = once(`t5${bidir}`, () => Float64Array.from(core.t5Bucket(x, { bidirectional: bidir, numBuckets, maxDistance })));
      return { x, y, at: rel, points: false, yDomain: [-1, numBuckets], vars: { bidir } };
    },
    alibi({ heads, head, dist }) {
      const slope = core.alibiSlopes(heads)[head - 1];
      const n = ALIBI_DISTANCE + 1;
      const bias = core.alibiBias(n, slope);
      const x = range(0, ALIBI_DISTANCE);
      const y = Float64Array.from(x, (i) => bias[i * n] || 0);  // row i, key 0: distance i
      return { x, y, at: dist, yDomain: [y[n - 1] * 1.1, -y[n - 1] * 0.1], vars: { slope } };
    },
    scaled({ scaling, factor, pair }) {
      const { d, base } = SETUP.scaled;
      const scaled = core.ropeFrequencies(d, { base, scaling: scalingOf(scaling, factor) }).invFreq;
      const plain = once('ropePlain', () => core.ropeFrequencies(d, { base }).invFreq);
      const x = range(0, d / 2 - 1);
      const y = Float64Array.from(scaled, (f) => Math.log10((2 * Math.PI) / f));
      const y0 = Float64Array.from(plain, (f) => Math.log10((2 * Math.PI) / f));
      // Up to 10^7; dynamic NTK at ×16 and ×32 stretches the longest wavelength past it (10^7.7).
      return { x, y, at: pair, points: false, plain: y0, yDomain: [0, Math.max(7, Math.ceil(Math.max(...y)))], vars: {} };
    },
  };
  /**
   * The RoPE pairing table at query m and key n: neighbours (2i, 2i + 1), as RoFormer, GPT-J and
   * Meta's Llama code pair them; rotate_half (i, i + d/2) on the same raw vectors; and rotate_half
   * after the permutation HF's Llama conversion script applies to the rows of W_q and W_k.
   */
  const turned = (layout, x, p) => core.ropeApply(x, [p], PAIRING_D, { layout });
  const score = (layout, x, qpos, kpos) => core.attention(turned(layout, x, qpos), turned(layout, x, kpos), PAIRING_D, DOT)[0];
  const permuted = toHalfLayout(PAIRING_Q);
  const pairing = (qpos, kpos) => ({
    interleaved: score('interleaved', PAIRING_Q, qpos, kpos),
    half: score('half', PAIRING_Q, qpos, kpos),
    permuted: score('half', permuted, qpos, kpos),
  });

  return { compute, curves, pairing };
}
