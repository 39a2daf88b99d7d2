// The JS API of the positional-encoding core, on both builds (SIMD and scalar), against the
// independent float64 reference in ./reference.js and the readouts the explainer prints.
//
// Tolerances live in ./helpers.js (TOL), each with the reason for its size.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { loadPosenc, simdSupported } from '../../wasm/posenc.js';
import { TOL, assertAllClose, assertClose, assertReadout, dot, loadBoth, moduleName, prng } from './helpers.js';
import * as ref from './reference.js';

const modules = await loadBoth();

describe('loadPosenc', () => {
  test('Node 20 validates WebAssembly SIMD, so the SIMD build must load', async () => {
    assert.equal(simdSupported(), true);
    const pe = await loadPosenc({ simd: true });
    assert.equal(pe.simd, true);
  });

  test("loadPosenc({simd: 'auto'}) picks the SIMD build where SIMD is supported", async () => {
    assert.equal((await loadPosenc({ simd: 'auto' })).simd, true);
    assert.equal((await loadPosenc()).simd, true);
  });

  test('loadPosenc({simd: false}) loads the scalar build', async () => {
    assert.equal((await loadPosenc({ simd: false })).simd, false);
  });

  test('the API object is frozen and exposes every documented function', () => {
    const names = [
      'sinusoidal', 'sinusoidalFrequencies', 'sinusoidalDot', 'learned', 'ropeFrequencies', 'ropeApply',
      'alibiSlopes', 'alibiBias', 't5Bucket', 'shawIndex', 'attention', 'softmax',
    ];
    for (const pe of modules) {
      assert.ok(Object.isFrozen(pe));
      for (const name of names) assert.equal(typeof pe[name], 'function', `${moduleName(pe)} lacks ${name}`);
    }
  });
});

for (const pe of modules) {
  describe(moduleName(pe), () => {
    // [SINUSOIDAL] ------------------------------------------------------------------------
    describe('sinusoidal', () => {
      test('sinusoidal(positions, dModel) follows the paper formula for d = 1..33, 64, 128 and 512', () => {
        const dims = [...Array.from({ length: 33 }, (_, i) => i + 1), 64, 128, 512];
        for (const d of dims) {
          const got = pe.sinusoidal(64, d);
          assert.ok(got instanceof Float32Array);
          assertAllClose(got, ref.sinusoidal(64, d), TOL.f32, `d=${d}`);
        }
      });

      test('sinusoidal with d = 2 gives [sin pos, cos pos]', () => {
        const got = pe.sinusoidal(50, 2);
        const want = Array.from({ length: 100 }, (_, k) => (k % 2 ? Math.cos((k - 1) / 2) : Math.sin(k / 2)));
        assertAllClose(got, want, TOL.f32);
      });

      test('sinusoidal with odd d applies the paper formula at every index, so its last column is a sine', () => {
        for (const d of [3, 5, 9, 21]) {
          const got = pe.sinusoidal(40, d);
          const w = 10000 ** (-(d - 1) / d); // div_i for 2i = d - 1
          const last = Array.from({ length: 40 }, (_, p) => got[p * d + d - 1]);
          assertAllClose(last, Array.from({ length: 40 }, (_, p) => Math.sin(p * w)), TOL.f32, `d=${d} last column`);
          assertAllClose(got, ref.sinusoidal(40, d), TOL.f32, `d=${d}`);
        }
      });

      test('sinusoidal({offset}) starts the rows at offset and stays within 2e-6 up to position 100000', () => {
        const got = pe.sinusoidal(101, 64, { offset: 99900 });
        assertAllClose(got, ref.sinusoidal(101, 64, { offset: 99900 }), TOL.f32Far);
      });

      test('sinusoidal(100001, 8) stays within 2e-6 absolute at every position 0..100000', () => {
        const got = pe.sinusoidal(100001, 8);
        const div = ref.sinusoidalFrequencies(8);
        const want = new Float64Array(got.length);
        for (let p = 0; p <= 100000; p++) {
          for (let i = 0; i < 4; i++) {
            want[p * 8 + 2 * i] = Math.sin(p * div[i]);
            want[p * 8 + 2 * i + 1] = Math.cos(p * div[i]);
          }
        }
        assertAllClose(got, want, TOL.f32Far);
      });

      test('sinusoidal({base}) uses the given base', () => {
        for (const base of [2, 100, 500000]) {
          assertAllClose(pe.sinusoidal(33, 12, { base }), ref.sinusoidal(33, 12, { base }), TOL.f32, `base ${base}`);
        }
      });

      test('sinusoidal(0, d) is an empty Float32Array', () => {
        const got = pe.sinusoidal(0, 16);
        assert.ok(got instanceof Float32Array);
        assert.equal(got.length, 0);
      });

      test('sinusoidalFrequencies(d) returns ceil(d/2) float64 frequencies exp(-2i ln(base)/d)', () => {
        for (const d of [1, 2, 3, 7, 16, 20, 511, 512, 8192]) {
          const got = pe.sinusoidalFrequencies(d);
          assert.ok(got instanceof Float64Array);
          assert.equal(got.length, Math.ceil(d / 2));
          assertAllClose(got, ref.sinusoidalFrequencies(d), TOL.f64, `d=${d}`);
        }
        assertAllClose(pe.sinusoidalFrequencies(10, { base: 500000 }), ref.sinusoidalFrequencies(10, { base: 500000 }), TOL.f64);
      });

      test('sinusoidalDot(m, n, d) equals PE(m)·PE(n) summed term by term, odd d and real m, n included', () => {
        const cases = [
          [0, 0, 2], [3, 8, 16], [2, 8, 8], [8, 2, 8], [-5, 7, 10], [1.5, -2.25, 6], [100000, 3, 64],
          [99999, 100000, 512], [4, 9, 5], [4, 9, 1], [12.5, 3, 7], [-2147483647, 2147483647, 4],
        ];
        for (const [m, n, d] of cases) {
          // The reference sums d products of rows each within 1 of 0; its own rounding is ~d ulps.
          assertClose(pe.sinusoidalDot(m, n, d), ref.sinusoidalDot(m, n, d), { abs: 1e-9 * d, rel: 1e-9 }, `m=${m} n=${n} d=${d}`);
        }
        assertClose(pe.sinusoidalDot(2, 8, 8, { base: 500 }), ref.sinusoidalDot(2, 8, 8, { base: 500 }), TOL.f64);
      });

      test('sinusoidalDot peaks at d/2 when m = n and depends only on m - n for even d', () => {
        for (const d of [2, 8, 16, 64]) {
          assertClose(pe.sinusoidalDot(7, 7, d), d / 2, TOL.f64, `d=${d}`);
          assertClose(pe.sinusoidalDot(10, 3, d), pe.sinusoidalDot(1007, 1000, d), { abs: 1e-9 * d, rel: 0 }, `d=${d}`);
        }
      });

      test('sinusoidalDot agrees with the dot of two rows of the float32 table', () => {
        const d = 64;
        const t = pe.sinusoidal(40, d);
        const table = dot(t.subarray(5 * d, 6 * d), t.subarray(37 * d, 38 * d));
        assertClose(pe.sinusoidalDot(5, 37, d), table, { abs: d * 1e-6, rel: 0 });
      });
    });

    // [LEARNED] ---------------------------------------------------------------------------
    describe('learned', () => {
      test('learned(count, dModel) returns count rows of dModel float32 values', () => {
        const got = pe.learned(7, 10);
        assert.ok(got instanceof Float32Array);
        assert.equal(got.length, 70);
      });

      test('learned is deterministic: a count n and the array 0..n-1 give the same rows', () => {
        const a = pe.learned(6, 12);
        assert.deepEqual(pe.learned([0, 1, 2, 3, 4, 5], 12), a);
        assert.deepEqual(pe.learned(Int32Array.of(0, 1, 2, 3, 4, 5), 12), a);
        assert.deepEqual(pe.learned(6, 12), a);
      });

      test('learned rows depend only on (seed, position), not on which other rows are asked for', () => {
        const all = pe.learned(20, 9, { seed: 3 });
        const some = pe.learned([17, 2, 17], 9, { seed: 3 });
        assert.deepEqual(some.subarray(0, 9), all.subarray(17 * 9, 18 * 9));
        assert.deepEqual(some.subarray(9, 18), all.subarray(2 * 9, 3 * 9));
        assert.deepEqual(some.subarray(18, 27), all.subarray(17 * 9, 18 * 9));
      });

      test('learned({seed}) gives a different table for a different seed', () => {
        const a = pe.learned(4, 16, { seed: 0 });
        const b = pe.learned(4, 16, { seed: 1 });
        assert.ok(a.some((v, i) => v !== b[i]));
        assert.deepEqual(pe.learned(4, 16, { seed: 4294967295 }).length, 64);
      });

      test('learned({std}) scales the table linearly and std 0 gives zeros', () => {
        const a = pe.learned(8, 16, { std: 0.02 });
        const b = pe.learned(8, 16, { std: 0.04 });
        // A power-of-two scale commutes with float32 rounding, so this is exact.
        assert.deepEqual(b, a.map((v) => 2 * v));
        assert.ok(pe.learned(3, 5, { std: 0 }).every((v) => v === 0));
      });

      test('learned draws from N(0, std^2): the sample mean and std of 1024 x 64 values fit', () => {
        const v = pe.learned(1024, 64);
        const mean = v.reduce((a, b) => a + b, 0) / v.length;
        const sd = Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / v.length);
        // Standard error of the mean: 0.02 / 256 = 8e-5; of the std: 0.02 / sqrt(2 * 65536) = 6e-5.
        assert.ok(Math.abs(mean) < 5e-4, `mean ${mean}`);
        assert.ok(Math.abs(sd - 0.02) < 5e-4, `std ${sd}`);
      });

      test('learned accepts the last row maxPositions - 1 and odd dModel', () => {
        assert.equal(pe.learned([1023], 3).length, 3);
        assert.equal(pe.learned([9], 5, { maxPositions: 10 }).length, 5);
        assert.ok(pe.learned([9], 5, { maxPositions: 10 }).every(Number.isFinite));
      });

      test('learned rejects a position at maxPositions with a RangeError naming the position', () => {
        assert.throws(() => pe.learned([1024], 4), (e) => e instanceof RangeError && /positions\[0\]/.test(e.message));
        assert.throws(() => pe.learned(11, 4, { maxPositions: 10 }), RangeError);
      });
    });

    // [ROPE FREQUENCIES] ------------------------------------------------------------------
    describe('ropeFrequencies', () => {
      const check = (dim, options, label) => {
        const got = pe.ropeFrequencies(dim, options);
        const want = ref.ropeFrequencies(dim, options);
        assert.ok(got.invFreq instanceof Float64Array, label);
        assert.equal(got.invFreq.length, dim / 2, label);
        assertAllClose(got.invFreq, want.invFreq, TOL.f64, `${label}: invFreq`);
        assertClose(got.attentionFactor, want.attentionFactor, TOL.f64, `${label}: attentionFactor`);
        return got;
      };

      test('ropeFrequencies(dim) is base^(-2i/dim) with attention factor 1', () => {
        for (const dim of [2, 4, 6, 8, 64, 128, 8192]) check(dim, undefined, `dim ${dim}`);
        check(128, { base: 500000 }, 'base 500000');
        const f = pe.ropeFrequencies(8);
        assert.equal(f.attentionFactor, 1);
        assertAllClose(f.invFreq, [1, 0.1, 0.01, 0.001], TOL.f64);
      });

      test("scaling {type: 'default'} and scaling null are the unscaled frequencies", () => {
        const plain = pe.ropeFrequencies(16);
        assert.deepEqual(pe.ropeFrequencies(16, { scaling: { type: 'default' } }), plain);
        assert.deepEqual(pe.ropeFrequencies(16, { scaling: null }), plain);
        assert.deepEqual(pe.ropeFrequencies(16, { scaling: undefined }), plain);
      });

      test("linear scaling divides every frequency by factor", () => {
        for (const factor of [1, 2, 4, 8.5]) check(64, { scaling: { type: 'linear', factor } }, `factor ${factor}`);
      });

      test('dynamic scaling at or below maxPositions (or without seqLen) keeps the frequencies', () => {
        const plain = pe.ropeFrequencies(64).invFreq;
        for (const seqLen of [undefined, 0, 1000, 2048]) {
          const got = check(64, { scaling: { type: 'dynamic', factor: 2, maxPositions: 2048, seqLen } }, `seqLen ${seqLen}`);
          assertAllClose(got.invFreq, plain, TOL.f64, `seqLen ${seqLen} vs unscaled`);
        }
      });

      test('dynamic scaling above maxPositions raises the base to base·(f·L/Lmax − f + 1)^(d/(d−2))', () => {
        for (const [dim, factor, seqLen] of [[64, 2, 4096], [64, 2, 8192], [128, 4, 100000], [4, 8, 3000]]) {
          const got = check(dim, { scaling: { type: 'dynamic', factor, maxPositions: 2048, seqLen } }, `d=${dim} f=${factor} L=${seqLen}`);
          const scaledBase = 10000 * ((factor * seqLen) / 2048 - factor + 1) ** (dim / (dim - 2));
          assertClose(got.invFreq[1], scaledBase ** (-2 / dim), TOL.f64, 'invFreq[1]');
        }
      });

      test('ntk scaling raises the base to base·s^(d/(d−2)): pair 0 kept, the slowest pair divided by s', () => {
        for (const [dim, factor] of [[4, 2], [64, 4], [128, 8], [128, 32]]) {
          const got = check(dim, { scaling: { type: 'ntk', factor } }, `d=${dim} s=${factor}`);
          const plain = ref.ropeDefaultInvFreq(dim);
          assertClose(got.invFreq[0], 1, TOL.f64, 'pair 0');
          assertClose(got.invFreq[dim / 2 - 1], plain[dim / 2 - 1] / factor, TOL.f64, 'slowest pair');
        }
      });

      test('yarn with d = 128 and Lorig 4096 ramps between dims low = 20 and high = 46', () => {
        assert.deepEqual(ref.yarnCorrectionRange(128, 10000, { originalMaxPositions: 4096 }), [20, 46]);
        for (const factor of [4, 16]) {
          const got = check(128, { scaling: { type: 'yarn', factor, originalMaxPositions: 4096 } }, `factor ${factor}`);
          const plain = ref.ropeDefaultInvFreq(128);
          for (let j = 0; j <= 20; j++) assertClose(got.invFreq[j], plain[j], TOL.f64, `j=${j} keeps f`);
          for (let j = 46; j < 64; j++) assertClose(got.invFreq[j], plain[j] / factor, TOL.f64, `j=${j} is f/factor`);
          assertClose(got.attentionFactor, 0.1 * Math.log(factor) + 1, TOL.f64, 'attention factor 0.1 ln(factor) + 1');
        }
      });

      test('yarn with truncate false uses the fractional correction range', () => {
        for (const factor of [4, 16]) {
          for (const truncate of [true, false]) {
            check(128, { scaling: { type: 'yarn', factor, originalMaxPositions: 4096, truncate } }, `factor ${factor} truncate ${truncate}`);
            check(64, { base: 500000, scaling: { type: 'yarn', factor, originalMaxPositions: 8192, truncate } }, `d=64 truncate ${truncate}`);
          }
        }
        const a = pe.ropeFrequencies(128, { scaling: { type: 'yarn', factor: 4, originalMaxPositions: 4096, truncate: true } });
        const b = pe.ropeFrequencies(128, { scaling: { type: 'yarn', factor: 4, originalMaxPositions: 4096, truncate: false } });
        assert.ok(a.invFreq.some((v, i) => v !== b.invFreq[i]), 'truncate makes a difference');
      });

      test('yarn attention factor is mscale(m)/mscale(mAllDim) when both are set, else 0.1 ln(factor) + 1', () => {
        const base = { type: 'yarn', originalMaxPositions: 4096 };
        for (const factor of [4, 16, 40]) {
          check(128, { scaling: { ...base, factor, mscale: 1, mscaleAllDim: 1 } }, `f=${factor} 1/1`);
          check(128, { scaling: { ...base, factor, mscale: 1, mscaleAllDim: 0.5 } }, `f=${factor} 1/0.5`);
          check(128, { scaling: { ...base, factor, mscale: 0.707, mscaleAllDim: 0.707 } }, `f=${factor} .707/.707`);
          // Only one of them set: HF falls back to get_mscale(factor).
          check(128, { scaling: { ...base, factor, mscale: 2 } }, `f=${factor} mscale only`);
          check(128, { scaling: { ...base, factor, mscaleAllDim: 2 } }, `f=${factor} mscaleAllDim only`);
        }
        const f = pe.ropeFrequencies(128, { scaling: { ...base, factor: 16, mscale: 1, mscaleAllDim: 0.5 } });
        assertClose(f.attentionFactor, (0.1 * Math.log(16) + 1) / (0.05 * Math.log(16) + 1), TOL.f64);
        assert.equal(pe.ropeFrequencies(8, { scaling: { ...base, factor: 1 } }).attentionFactor, 1);
      });

      test('yarn honours an explicit attentionFactor and custom betaFast/betaSlow', () => {
        const got = check(64, { scaling: { type: 'yarn', factor: 8, originalMaxPositions: 2048, attentionFactor: 0.75 } }, 'attentionFactor');
        assert.equal(got.attentionFactor, 0.75);
        check(64, { scaling: { type: 'yarn', factor: 8, originalMaxPositions: 2048, betaFast: 16, betaSlow: 2 } }, 'betas');
        check(64, { scaling: { type: 'yarn', factor: 8, originalMaxPositions: 2048, betaFast: 64, betaSlow: 0.5, truncate: false } }, 'betas, no truncate');
      });

      test('yarn clamps high at d − 1 (not d/2 − 1)', () => {
        // corr(1) = 8.5 > 7 = d - 1 and low = floor(corr(1e6)) = 2: dim 3 ramps by 1/5, not fully.
        const scaling = { type: 'yarn', factor: 4, originalMaxPositions: 2000000000, betaFast: 1e6 };
        assert.deepEqual(ref.yarnCorrectionRange(8, 10000, scaling), [2, 7]);
        const got = check(8, { scaling }, 'clamp');
        const f3 = 10000 ** (-6 / 8);
        assertClose(got.invFreq[3], f3 * (1 - 0.2) + (f3 / 4) * 0.2, TOL.f64, 'dim 3');
      });

      test('yarn adds 0.001 to high when low equals high', () => {
        // corr(1) and corr(32) are both in (-1, 0], so low = high = 0: ramp is 0 at j = 0, 1 after.
        const scaling = { type: 'yarn', factor: 4, originalMaxPositions: 4 };
        const [low, high] = ref.yarnCorrectionRange(8, 10000, scaling);
        assert.ok(low === high, `low ${low} high ${high}`);
        const got = check(8, { scaling }, 'low == high');
        const plain = ref.ropeDefaultInvFreq(8);
        assertAllClose(got.invFreq, [plain[0], plain[1] / 4, plain[2] / 4, plain[3] / 4], TOL.f64);
      });

      test('llama3 with factor 8, base 500000 and Lorig 8192 keeps, divides and blends the three bands', () => {
        const scaling = { type: 'llama3', factor: 8, originalMaxPositions: 8192, lowFreqFactor: 1, highFreqFactor: 4 };
        const got = check(128, { base: 500000, scaling }, 'llama3 defaults');
        const plain = ref.ropeDefaultInvFreq(128, 500000);
        const kept = [...got.invFreq].filter((v, i) => v === plain[i]).length;
        const divided = [...got.invFreq].filter((v, i) => Math.abs(v - plain[i] / 8) <= 1e-9 * v).length;
        assert.ok(kept > 0 && divided > 0 && kept + divided < 64, `kept ${kept}, divided ${divided} of 64`);
        // The optional fields default to 1 and 4.
        check(128, { base: 500000, scaling: { type: 'llama3', factor: 8, originalMaxPositions: 8192 } }, 'llama3 field defaults');
        assert.deepEqual(pe.ropeFrequencies(128, { base: 500000, scaling: { type: 'llama3', factor: 8, originalMaxPositions: 8192 } }), got);
        check(64, { base: 500000, scaling: { type: 'llama3', factor: 32, originalMaxPositions: 8192, lowFreqFactor: 2, highFreqFactor: 8 } }, 'llama3 2/8');
      });

      test('longrope uses shortFactor up to Lorig and longFactor beyond, attention sqrt(1 + ln(s)/ln(Lorig))', () => {
        const common = {
          type: 'longrope', originalMaxPositions: 4096, maxPositions: 131072,
          shortFactor: [1, 1.1, 1.5, 2], longFactor: [1, 2, 4, 8],
        };
        for (const seqLen of [undefined, 100, 4096]) {
          const got = check(8, { scaling: { ...common, seqLen } }, `seqLen ${seqLen} (short)`);
          assertAllClose(got.invFreq, ref.ropeDefaultInvFreq(8).map((f, i) => f / common.shortFactor[i]), TOL.f64);
        }
        for (const seqLen of [4097, 131072]) {
          const got = check(8, { scaling: { ...common, seqLen } }, `seqLen ${seqLen} (long)`);
          assertAllClose(got.invFreq, ref.ropeDefaultInvFreq(8).map((f, i) => f / common.longFactor[i]), TOL.f64);
        }
        const f = pe.ropeFrequencies(8, { scaling: common });
        assertClose(f.attentionFactor, Math.sqrt(1 + Math.log(32) / Math.log(4096)), TOL.f64);
        check(8, { scaling: { ...common, maxPositions: 4096 } }, 'max = Lorig: attention 1');
        check(8, { scaling: { ...common, maxPositions: 2048 } }, 'max < Lorig: attention 1');
        check(8, { scaling: { ...common, attentionFactor: 1.25, seqLen: 9999 } }, 'explicit attentionFactor');
        check(8, { scaling: { ...common, shortFactor: Float64Array.from(common.shortFactor), longFactor: Float32Array.of(1, 2, 4, 8), seqLen: 5000 } }, 'typed arrays');
      });
    });

    // [ROPE APPLY] ------------------------------------------------------------------------
    describe('ropeApply', () => {
      const rng = prng(0x5eed);

      test('ropeApply rotates every pair in both layouts for dims 2..18, 64 and 128', () => {
        for (const dim of [2, 4, 6, 8, 10, 12, 14, 16, 18, 64, 128]) {
          for (const layout of ['half', 'interleaved']) {
            const rows = rng.int(1, 9);
            const x = rng.floats(rows * dim);
            const positions = Array.from({ length: rows }, () => rng.int(0, 4096));
            const got = pe.ropeApply(x, positions, dim, { layout });
            assert.ok(got instanceof Float32Array);
            assertAllClose(got, ref.ropeApply(x, positions, dim, { layout }), TOL.rope, `dim ${dim} ${layout}`);
          }
        }
      });

      test("ropeApply defaults to the HF rotate_half layout", () => {
        const x = rng.floats(3 * 8);
        assert.deepEqual(pe.ropeApply(x, [1, 5, 9], 8), pe.ropeApply(x, [1, 5, 9], 8, { layout: 'half' }));
        assertAllClose(pe.ropeApply(x, [1, 5, 9], 8), ref.ropeApply(x, [1, 5, 9], 8, { layout: 'half' }), TOL.rope);
      });

      test('ropeApply with a count n rotates rows at positions 0..n-1', () => {
        const x = rng.floats(5 * 16);
        assert.deepEqual(pe.ropeApply(x, 5, 16), pe.ropeApply(x, [0, 1, 2, 3, 4], 16));
        assert.deepEqual(pe.ropeApply(x, 5, 16), pe.ropeApply(x, Float64Array.of(0, 1, 2, 3, 4), 16));
      });

      test('ropeApply accepts Array, Float32Array and Float64Array input and does not modify it', () => {
        const x32 = rng.floats(2 * 8);
        const copy = Float32Array.from(x32);
        const a = pe.ropeApply(x32, [3, 4], 8);
        assert.deepEqual(x32, copy);
        assert.deepEqual(pe.ropeApply(Array.from(x32), [3, 4], 8), a);
        assert.deepEqual(pe.ropeApply(Float64Array.from(x32), [3, 4], 8), a);
        assert.notEqual(a.buffer, x32.buffer);
      });

      test('ropeApply stays within 2e-6 absolute at positions up to 100000', () => {
        const positions = [0, 1, 4095, 4096, 65535, 99999, 100000];
        for (const [dim, options] of [[128, {}], [128, { base: 500000 }], [64, { layout: 'interleaved' }]]) {
          const x = rng.floats(positions.length * dim);
          assertAllClose(pe.ropeApply(x, positions, dim, options), ref.ropeApply(x, positions, dim, options), TOL.f32Far, `dim ${dim}`);
        }
      });

      test('the two layouts differ by the fixed permutation 2i <-> i, 2i+1 <-> i + d/2', () => {
        for (const dim of [2, 8, 18, 64]) {
          const n = dim / 2;
          const toHalf = (row) => {
            const out = new Float32Array(dim);
            for (let i = 0; i < n; i++) [out[i], out[i + n]] = [row[2 * i], row[2 * i + 1]];
            return out;
          };
          const x = rng.floats(dim);
          const inter = pe.ropeApply(x, [77], dim, { layout: 'interleaved' });
          const half = pe.ropeApply(toHalf(x), [77], dim, { layout: 'half' });
          assert.deepEqual(half, toHalf(inter), `dim ${dim}`);
        }
      });

      test('with d = 2 the half and interleaved layouts coincide', () => {
        const x = rng.floats(6 * 2);
        assert.deepEqual(pe.ropeApply(x, 6, 2, { layout: 'half' }), pe.ropeApply(x, 6, 2, { layout: 'interleaved' }));
      });

      test('q·k after rotation depends only on the offset m − n', () => {
        const dim = 32;
        const q = rng.floats(dim);
        const k = rng.floats(dim);
        for (const layout of ['half', 'interleaved']) {
          const at = (m, n) => dot(pe.ropeApply(q, [m], dim, { layout }), pe.ropeApply(k, [n], dim, { layout }));
          assertClose(at(10, 3), at(1010, 1003), { abs: 1e-5, rel: 0 }, layout);
          assertClose(at(3, 10), at(50003, 50010), { abs: 1e-5, rel: 0 }, layout);
          assertClose(at(5, 5), dot(q, k), { abs: 1e-5, rel: 0 }, `${layout}: offset 0 is the plain dot`);
        }
      });

      test('ropeApply with each scaling matches the reference, cos and sin multiplied by the attention factor', () => {
        const scalings = [
          [64, 10000, { type: 'linear', factor: 4 }],
          [64, 10000, { type: 'dynamic', factor: 2, maxPositions: 2048, seqLen: 8192 }],
          [128, 10000, { type: 'yarn', factor: 16, originalMaxPositions: 4096 }],
          [128, 10000, { type: 'yarn', factor: 4, originalMaxPositions: 4096, mscale: 1, mscaleAllDim: 0.5, truncate: false }],
          [128, 500000, { type: 'llama3', factor: 8, originalMaxPositions: 8192 }],
          [128, 10000, { type: 'ntk', factor: 8 }],
          [8, 10000, { type: 'longrope', originalMaxPositions: 4096, maxPositions: 131072, seqLen: 8000, shortFactor: [1, 1, 1.5, 2], longFactor: [1, 2, 4, 8] }],
        ];
        for (const [dim, base, scaling] of scalings) {
          for (const layout of ['half', 'interleaved']) {
            const positions = [0, 1, 17, 4095, 8191, 32768];
            const x = rng.floats(positions.length * dim);
            const options = { layout, base, scaling };
            assertAllClose(pe.ropeApply(x, positions, dim, options), ref.ropeApply(x, positions, dim, options), TOL.rope, `${scaling.type} ${layout}`);
          }
        }
      });

      test('ropeApply scales each pair\'s length by the attention factor (yarn factor 16)', () => {
        const scaling = { type: 'yarn', factor: 16, originalMaxPositions: 4096 };
        const { attentionFactor } = pe.ropeFrequencies(8, { scaling });
        const x = [0.6, 0.4, 0.6, 0.4, 0.6, 0.4, 0.6, 0.4];
        const y = pe.ropeApply(x, [123], 8, { layout: 'interleaved', scaling });
        for (let i = 0; i < 4; i++) {
          assertClose(Math.hypot(y[2 * i], y[2 * i + 1]), attentionFactor * Math.hypot(0.6, 0.4), TOL.rope, `pair ${i}`);
        }
      });

      test('ropeApply(empty, 0, dim) is an empty Float32Array', () => {
        const got = pe.ropeApply([], 0, 8);
        assert.ok(got instanceof Float32Array);
        assert.equal(got.length, 0);
      });
    });

    // [ATTENTION] -------------------------------------------------------------------------
    describe('attention', () => {
      const rng = prng(0xa77);

      test('attention(q, k, dim) is the row softmax of q·k/sqrt(dim), rows summing to 1', () => {
        for (const [qRows, kRows, dim] of [[1, 1, 1], [4, 4, 8], [7, 7, 3], [16, 16, 64], [5, 9, 17], [9, 5, 33], [3, 2, 5]]) {
          const q = rng.floats(qRows * dim);
          const k = rng.floats(kRows * dim);
          const got = pe.attention(q, k, dim);
          assert.ok(got instanceof Float32Array);
          assertAllClose(got, ref.attention(q, k, dim), TOL.attention, `${qRows}x${kRows} dim ${dim}`);
          for (let i = 0; i < qRows; i++) {
            assertClose(got.subarray(i * kRows, (i + 1) * kRows).reduce((a, b) => a + b, 0), 1, { abs: 1e-5, rel: 0 }, `row ${i} sum`);
          }
        }
      });

      test('attention({causal: true}) masks keys after each query, with rectangular queries at the last positions', () => {
        for (const [qRows, kRows, dim] of [[6, 6, 8], [1, 7, 4], [3, 10, 16], [5, 6, 7]]) {
          const q = rng.floats(qRows * dim);
          const k = rng.floats(kRows * dim);
          const got = pe.attention(q, k, dim, { causal: true });
          assertAllClose(got, ref.attention(q, k, dim, { causal: true }), TOL.attention, `${qRows}x${kRows}`);
          const shift = kRows - qRows;
          for (let i = 0; i < qRows; i++) {
            for (let j = i + shift + 1; j < kRows; j++) assert.equal(got[i * kRows + j], 0, `(${i}, ${j}) is masked`);
          }
        }
        // One query over 7 keys sees all of them (it is the last position).
        const q = rng.floats(4);
        const k = rng.floats(28);
        assert.deepEqual(pe.attention(q, k, 4, { causal: true }), pe.attention(q, k, 4));
      });

      test('attention({softmax: false}) returns the scaled, biased scores with −Infinity where masked', () => {
        const q = rng.floats(3 * 6);
        const k = rng.floats(5 * 6);
        const bias = Float32Array.from({ length: 15 }, () => rng.next() - 0.5);
        const options = { softmax: false, causal: true, bias, scale: 0.7 };
        const got = pe.attention(q, k, 6, options);
        assertAllClose(got, ref.attention(q, k, 6, options), TOL.attention);
        assert.equal(got[0 * 5 + 3], -Infinity);
        assert.equal(got[0 * 5 + 4], -Infinity);
        assert.equal(got[1 * 5 + 4], -Infinity);
        assert.notEqual(got[2 * 5 + 4], -Infinity);
      });

      test('attention({scale}) replaces 1/sqrt(dim), including 0 and negative scales', () => {
        const q = rng.floats(4 * 8);
        const k = rng.floats(4 * 8);
        for (const scale of [1, 0.125, 0, -2, 10]) {
          assertAllClose(pe.attention(q, k, 8, { scale }), ref.attention(q, k, 8, { scale }), TOL.attention, `scale ${scale}`);
        }
        assert.ok(pe.attention(q, k, 8, { scale: 0 }).every((v) => Math.abs(v - 0.25) < 1e-7));
      });

      test('attention({bias}) adds the bias, and a −Infinity bias entry gets zero weight', () => {
        const q = rng.floats(4 * 8);
        const k = rng.floats(6 * 8);
        const bias = Array.from({ length: 24 }, (_, i) => (i % 5 === 0 ? -Infinity : rng.next() * 2 - 1));
        const got = pe.attention(q, k, 8, { bias });
        assertAllClose(got, ref.attention(q, k, 8, { bias }), TOL.attention);
        bias.forEach((b, i) => b === -Infinity && assert.equal(got[i], 0));
        assert.deepEqual(pe.attention(q, k, 8, { bias: null }), pe.attention(q, k, 8));
      });

      test('attention gives zeros for a row with every key masked', () => {
        const q = rng.floats(2 * 4);
        const k = rng.floats(3 * 4);
        const bias = [-Infinity, -Infinity, -Infinity, 0, 0, 0];
        const got = pe.attention(q, k, 4, { bias });
        assert.deepEqual([...got.subarray(0, 3)], [0, 0, 0]);
        assertAllClose(got, ref.attention(q, k, 4, { bias }), TOL.attention);
      });

      test('attention is stable for large scores (max-subtracted softmax)', () => {
        const q = Float32Array.of(100, 100);
        const k = Float32Array.of(100, 100, -100, 100, 99, 100);
        const got = pe.attention(q, k, 2, { scale: 1 });
        assert.ok(got.every(Number.isFinite));
        assertAllClose(got, ref.attention(q, k, 2, { scale: 1 }), TOL.attention);
      });

      test('attention over RoPE-rotated q and k with an ALiBi bias and a causal mask matches the reference', () => {
        const dim = 16;
        const L = 10;
        const q = pe.ropeApply(rng.floats(L * dim), L, dim);
        const k = pe.ropeApply(rng.floats(L * dim), L, dim);
        const bias = pe.alibiBias(L, pe.alibiSlopes(8)[2], { causal: false });
        assertAllClose(pe.attention(q, k, dim, { bias, causal: true }), ref.attention(q, k, dim, { bias, causal: true }), TOL.attention);
      });

      test('attention with no query rows or no key rows returns an empty array', () => {
        assert.equal(pe.attention([], rng.floats(8), 4).length, 0);
        assert.equal(pe.attention(rng.floats(8), [], 4).length, 0);
      });
    });

    describe('softmax', () => {
      const rng = prng(0x50f7);
      const rowsOf = (x, cols) => Array.from({ length: x.length / cols }, (_, r) => ref.softmax(Array.from(x.subarray(r * cols, (r + 1) * cols))));

      test('softmax(x, cols) is the stable softmax of each row, for cols 1..37 (SIMD tails included)', () => {
        for (let cols = 1; cols <= 37; cols++) {
          const x = rng.floats(3 * cols).map((v) => 8 * v);
          const got = pe.softmax(x, cols);
          assert.ok(got instanceof Float32Array);
          assertAllClose(got, rowsOf(x, cols).flat(), TOL.attention, `cols ${cols}`);
        }
      });

      test('softmax gives −Infinity entries weight 0 and an all −Infinity row zeros', () => {
        const x = Float32Array.of(0, -Infinity, 1, -Infinity, -Infinity, -Infinity);
        const got = pe.softmax(x, 3);
        assertAllClose(got, [1 / (1 + Math.E), 0, Math.E / (1 + Math.E), 0, 0, 0], TOL.attention);
      });

      test('softmax is stable for large inputs and does not modify its input', () => {
        const x = Float32Array.of(1e30, 1e30 - 1e24, -1e30, 88, 89, 90);
        const copy = Float32Array.from(x);
        const got = pe.softmax(x, 3);
        assert.ok(got.every(Number.isFinite));
        assertAllClose(got, rowsOf(x, 3).flat(), TOL.attention);
        assert.deepEqual(x, copy);
        assert.equal(pe.softmax([], 4).length, 0);
      });

      test('attention({softmax: false}) followed by softmax(scores, rows(k)) equals attention()', () => {
        const q = rng.floats(5 * 8);
        const k = rng.floats(7 * 8);
        const scores = pe.attention(q, k, 8, { softmax: false, causal: true });
        assertAllClose(pe.softmax(scores, 7), pe.attention(q, k, 8, { causal: true }), { abs: 1e-7, rel: 1e-6 });
      });
    });

    // [EXPLAINER READOUTS] ----------------------------------------------------------------
    describe('explainer readouts', () => {
      const pairs8 = (layout) => (layout === 'interleaved' ? [0.6, 0.4, 0.6, 0.4, 0.6, 0.4, 0.6, 0.4] : [0.6, 0.6, 0.6, 0.6, 0.4, 0.4, 0.4, 0.4]);
      const ropeDot = (m, n, x, layout) => dot(pe.ropeApply(x, [m], 8, { layout }), pe.ropeApply(x, [n], 8, { layout }));

      test('(b) sinusoidal d = 20, position 10, dim 4: angle 1.58489, value 0.99990', () => {
        const angle = 10 * pe.sinusoidalFrequencies(20)[2];
        const value = pe.sinusoidal(11, 20)[10 * 20 + 4];
        assertReadout(angle, '1.58489', 'angle');
        assertReadout(value, '0.99990', 'value');
        assertClose(angle, 10 * ref.sinusoidalFrequencies(20)[2], TOL.f64, 'angle vs reference');
        assertClose(value, ref.sinusoidalRow(10, 20)[4], TOL.f32, 'value vs reference');
      });

      test('(c) wavelengths at d = 16: 6.283 for dim 0 and 198.69 for dim 6', () => {
        const f = pe.sinusoidalFrequencies(16);
        assertReadout((2 * Math.PI) / f[0], '6.283', 'dim 0');
        assertReadout((2 * Math.PI) / f[3], '198.69', 'dim 6');
        assertClose((2 * Math.PI) / f[3], ref.sinusoidalWavelength(6, 16), TOL.f64, 'dim 6 vs reference');
      });

      test('(d) PE(3)·PE(8) at d = 16 is 6.13704, and the maximum is 8', () => {
        const d = pe.sinusoidalDot(3, 8, 16);
        assertReadout(d, '6.13704');
        assertClose(d, ref.sinusoidalDot(3, 8, 16), TOL.f64, 'vs reference');
        const t = pe.sinusoidal(9, 16);
        assertReadout(dot(t.subarray(48, 64), t.subarray(128, 144)), '6.13704', 'from the float32 table');
        assertClose(pe.sinusoidalDot(5, 5, 16), 8, TOL.f64, 'maximum');
      });

      test('(e) RoPE d = 8, q = k = (0.6, 0.4) in all four pairs, positions 3 and 7: q·k = 1.17864 in both layouts', () => {
        for (const layout of ['half', 'interleaved']) {
          const x = pairs8(layout);
          const got = ropeDot(3, 7, x, layout);
          assertReadout(got, '1.17864', layout);
          const want = ref.dot(ref.ropeApply(x, [3], 8, { layout }), ref.ropeApply(x, [7], 8, { layout }));
          assertClose(got, want, { abs: 1e-6, rel: 0 }, `${layout} vs reference`);
        }
        assertReadout(dot(pairs8('half'), pairs8('half')), '2.08', 'unrotated');
        const pair0 = [0.6, 0.4, 0, 0, 0, 0, 0, 0];
        assertReadout(ropeDot(3, 7, pair0, 'interleaved'), '-0.340', 'pair 0 alone');
      });

      test('(f) d = 8, m = 2, n = 8: sinusoidal dot 3.78369 and RoPE dot 0.52 × 3.78369 = 1.96752', () => {
        const s = pe.sinusoidalDot(2, 8, 8);
        assertReadout(s, '3.78369');
        assertClose(s, ref.sinusoidalDot(2, 8, 8), TOL.f64, 'vs reference');
        for (const layout of ['half', 'interleaved']) {
          const r = ropeDot(2, 8, pairs8(layout), layout);
          assertReadout(r, '1.96752', layout);
          assertClose(r, 0.52 * s, { abs: 1e-6, rel: 0 }, `${layout}: 0.52 × sinusoidal dot`);
        }
      });
    });
  });
}

// [SIMD VS SCALAR] ------------------------------------------------------------------------
describe('the SIMD and scalar builds agree', () => {
  const [simd, scalar] = modules;
  // Both builds are within 2e-7 of float64 sin/cos (trig contract), so within 4e-7 of each other.
  const trigPair = { abs: 4e-7, rel: 0 };

  test('sinusoidal agrees on random shapes with SIMD tails (d = 1..37) and positions up to 100000', () => {
    const rng = prng(101);
    for (let t = 0; t < 60; t++) {
      const d = rng.int(1, 37);
      const positions = rng.int(1, 40);
      const offset = rng.pick([0, rng.int(0, 5000), rng.int(0, 100000 - positions)]);
      assertAllClose(simd.sinusoidal(positions, d, { offset }), scalar.sinusoidal(positions, d, { offset }), trigPair, `d=${d} offset ${offset}`);
    }
  });

  test('ropeApply agrees on random even dims 2..70, both layouts, with and without scaling', () => {
    const rng = prng(202);
    for (let t = 0; t < 60; t++) {
      const dim = 2 * rng.int(1, 35);
      const rows = rng.int(1, 12);
      const x = rng.floats(rows * dim);
      const positions = Array.from({ length: rows }, () => rng.int(0, 100000));
      const layout = rng.pick(['half', 'interleaved']);
      const scaling = rng.pick([undefined, { type: 'yarn', factor: 8, originalMaxPositions: 2048 }]);
      // Outputs are products of two rotated inputs in [-1, 1]: twice the trig difference, plus rounding.
      assertAllClose(simd.ropeApply(x, positions, dim, { layout, scaling }), scalar.ropeApply(x, positions, dim, { layout, scaling }), { abs: 1e-6, rel: 0 }, `dim ${dim}`);
    }
  });

  test('attention agrees on random shapes (dim 1..33, rows 1..17), causal and not', () => {
    const rng = prng(303);
    for (let t = 0; t < 60; t++) {
      const dim = rng.int(1, 33);
      const kRows = rng.int(1, 17);
      const qRows = rng.int(1, kRows);
      const q = rng.floats(qRows * dim);
      const k = rng.floats(kRows * dim);
      const causal = rng.next() < 0.5;
      assertAllClose(simd.attention(q, k, dim, { causal }), scalar.attention(q, k, dim, { causal }), TOL.attention, `${qRows}x${kRows} dim ${dim}`);
      assertAllClose(simd.attention(q, k, dim, { causal, softmax: false }), scalar.attention(q, k, dim, { causal, softmax: false }), { abs: 1e-6, rel: 1e-6 }, 'scores');
    }
  });

  test('softmax agrees on random shapes (cols 1..40)', () => {
    const rng = prng(404);
    for (let t = 0; t < 60; t++) {
      const cols = rng.int(1, 40);
      const x = rng.floats(rng.int(1, 6) * cols).map((v) => 10 * v);
      assertAllClose(simd.softmax(x, cols), scalar.softmax(x, cols), TOL.attention, `cols ${cols}`);
    }
  });

  test('integer and float64 outputs are identical in both builds', () => {
    assert.deepEqual(simd.sinusoidalFrequencies(77), scalar.sinusoidalFrequencies(77));
    assert.equal(simd.sinusoidalDot(3, 8, 16), scalar.sinusoidalDot(3, 8, 16));
    assert.deepEqual(simd.learned(10, 13, { seed: 9 }), scalar.learned(10, 13, { seed: 9 }));
    const scaling = { type: 'yarn', factor: 16, originalMaxPositions: 4096, mscale: 1, mscaleAllDim: 0.5 };
    assert.deepEqual(simd.ropeFrequencies(128, { scaling }), scalar.ropeFrequencies(128, { scaling }));
  });
});
