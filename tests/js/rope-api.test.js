// ropeFrequencies and ropeApply (core/rope.hpp) on both builds, against the float64 reference in
// ./reference.js (Hugging Face's rope_scaling and rotate_half, RoFormer's interleaved pairs).
//
// Tolerances live in ./helpers.js (TOL), each with the reason for its size.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { TOL, assertAllClose, assertClose, dot, loadBoth, moduleName, prng } from './helpers.js';
import * as ref from './reference.js';

const modules = await loadBoth();

for (const pe of modules) {
  describe(moduleName(pe), () => {
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
  });
}

describe('the SIMD and scalar builds agree', () => {
  const [simd, scalar] = modules;
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

  test('the float64 outputs are identical in both builds', () => {
    const scaling = { type: 'yarn', factor: 16, originalMaxPositions: 4096, mscale: 1, mscaleAllDim: 0.5 };
    assert.deepEqual(simd.ropeFrequencies(128, { scaling }), scalar.ropeFrequencies(128, { scaling }));
  });
});
