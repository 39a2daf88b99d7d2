// What the core says for each quantity of step "code": the value with the JS call that computed
// it (compute), and the curve the figure draws around it (curves: x and y series from the core,
// the marked point, the y domain and the numbers the captions name).
import { ALIBI_DISTANCE, SETUP, scalingOf } from './setup.js';

const range = (a, b) => Float64Array.from({ length: b - a + 1 }, (_, k) => a + k);

/** @param {object} core  @param {object} m  the catalog  @param {(v:number, digits:number)=>string} fmt
 * @param {{rel:{min:number, max:number}}} params  the step's URL parameters (the T5 curve's range) */
export function quantities(core, m, fmt, params) {
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
      return { x, y, at: pos, yDomain: [-1.15, 1.15], vars: { wavelength: m.fixed((2 * Math.PI) / omega, 2) } };
    },
    wavelength({ wdim }) {
      const { d } = SETUP.wavelength;
      const freqs = sinFreqs(d);
      const x = range(0, d - 1);
      const y = Float64Array.from(x, (k) => Math.log10((2 * Math.PI) / freqs[Math.floor(k / 2)]));
      return { x, y, at: wdim, yDomain: [0, 5], vars: { longest: m.fixed(10 ** y[d - 1], 2) } };
    },
    dot({ width, i, j }) {
      const x = range(0, 19);
      const y = Float64Array.from(x, (k) => core.sinusoidalDot(i, k, width, { base: SETUP.dot.base }));
      return { x, y, at: j, yDomain: [Math.min(0, ...y) - 0.5, width / 2 + 0.5], vars: { max: m.fixed(width / 2, 0) } };
    },
    rope({ m: qpos, n }) {
      const { d, pair } = SETUP.rope;
      const x = range(0, 19);
      const keys = once('ropeKeys', () => core.ropeApply(
        Float32Array.from({ length: x.length * d }, (_, c) => pair[c % 2]), x.length, d, { layout: 'interleaved' }));
      const q = core.ropeApply(Float32Array.from({ length: d }, (_, c) => pair[c % 2]), [qpos], d, { layout: 'interleaved' });
      const y = Float64Array.from(core.attention(q, keys, d, { softmax: false, scale: 1 }));
      return { x, y, at: n, yDomain: [-2.3, 2.3], vars: { max: fmt(y[qpos], 4) } };
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
      return { x, y, at: n, yDomain: [2.3, 4.3], vars: { max: fmt(y[qpos], 4) } };
    },
    t5({ rel, bidir }) {
      const { numBuckets, maxDistance } = SETUP.t5;
      const x = once('t5x', () => range(params.rel.min, params.rel.max));
      const y = once(`t5${bidir}`, () => Float64Array.from(core.t5Bucket(x, { bidirectional: bidir, numBuckets, maxDistance })));
      return { x, y, at: rel, points: false, yDomain: [-1, numBuckets], vars: { mode: m.t(bidir ? 'code.mode.bi' : 'code.mode.uni') } };
    },
    alibi({ heads, head, dist }) {
      const slope = core.alibiSlopes(heads)[head - 1];
      const n = ALIBI_DISTANCE + 1;
      const bias = core.alibiBias(n, slope);
      const x = range(0, ALIBI_DISTANCE);
      const y = Float64Array.from(x, (i) => bias[i * n] || 0);  // row i, key 0: distance i
      return { x, y, at: dist, yDomain: [y[n - 1] * 1.1, -y[n - 1] * 0.1], vars: { slope: fmt(slope, 6) } };
    },
    scaled({ scaling, factor, pair }) {
      const { d, base } = SETUP.scaled;
      const scaled = core.ropeFrequencies(d, { base, scaling: scalingOf(scaling, factor) }).invFreq;
      const plain = once('ropePlain', () => core.ropeFrequencies(d, { base }).invFreq);
      const x = range(0, d / 2 - 1);
      const y = Float64Array.from(scaled, (f) => Math.log10((2 * Math.PI) / f));
      const y0 = Float64Array.from(plain, (f) => Math.log10((2 * Math.PI) / f));
      return { x, y, at: pair, points: false, extra: { x, y: y0, cls: 'b', label: m.t('code.legendPlain') }, yDomain: [0, 7], vars: {} };
    },
  };
  return { compute, curves };
}
