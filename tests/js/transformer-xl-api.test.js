// transformerXlTerms / transformerXlRow / transformerXlInputs on both builds: the four terms
// against a plain-JS transcription (the seeded generator redrawn with BigInt from the recipe in
// core/transformer_xl.hpp, the relative sinusoid as Transformer-XL's PositionalEmbedding builds
// it), and bad input: a RangeError or TypeError naming the argument, the instance still working.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { TOL, assertClose, loadBoth, moduleName } from './helpers.js';
import { xlDraws } from './reference.js';

const modules = await loadBoth();

// [REFERENCE] ---------------------------------------------------------------------------------
const draws = xlDraws;  // SplitMix64 streams per (seed, tag), uniform in [−1, 1)

function reference(i, j, d, { seed = 0, base = 10000 } = {}) {
  const q = draws(seed, 3 + 2 * i, d);
  const k = draws(seed, 4 + 2 * j, d);
  const u = draws(seed, 0, d);
  const v = draws(seed, 1, d);
  const w = draws(seed, 2, d * d).map((x) => x / Math.sqrt(d));
  const freqs = Array.from({ length: d / 2 }, (_, f) => 1 / base ** ((2 * f) / d));
  const r = [...freqs.map((f) => Math.sin((i - j) * f)), ...freqs.map((f) => Math.cos((i - j) * f))];
  const wr = Array.from({ length: d }, (_, row) => r.reduce((s, x, col) => s + w[row * d + col] * x, 0));
  const dotp = (a, b) => a.reduce((s, x, c) => s + x * b[c], 0);
  const a = dotp(q, k);
  const b = dotp(q, wr);
  const c = dotp(u, k);
  const dd = dotp(v, wr);
  return { a, b, c, d: dd, score: a + b + c + dd, q, k, u, v, r, w };
}

for (const pe of modules) {
  describe(`${moduleName(pe)}: transformerXl*`, () => {
    test('transformerXlTerms gives each of the four terms and their sum as the transcription does', () => {
      for (const [i, j, d, opts] of [[12, 7, 16, {}], [7, 12, 16, { seed: 3 }], [0, 0, 2, {}], [31, 0, 64, { seed: 99, base: 500 }],
        [1000, 999, 8, { seed: 4294967295 }]]) {
        const got = pe.transformerXlTerms(i, j, d, opts);
        const want = reference(i, j, d, opts);
        const where = `i ${i} j ${j} d ${d} ${JSON.stringify(opts)}`;
        assertClose(got.contentContent, want.a, TOL.f64, `${where} (a)`);
        assertClose(got.contentPosition, want.b, TOL.f64, `${where} (b)`);
        assertClose(got.globalContent, want.c, TOL.f64, `${where} (c)`);
        assertClose(got.globalPosition, want.d, TOL.f64, `${where} (d)`);
        assertClose(got.score, want.score, TOL.f64, `${where} score`);
      }
    });

    test('transformerXlRow holds [(a), (b), (c), (d)] per key; a count means keys 0..n-1', () => {
      const row = pe.transformerXlRow(9, 12, 16, { seed: 2 });
      assert.ok(row instanceof Float64Array);
      assert.equal(row.length, 48);
      for (let j = 0; j < 12; j++) {
        const want = reference(9, j, 16, { seed: 2 });
        [want.a, want.b, want.c, want.d].forEach((w, t) => assertClose(row[4 * j + t], w, TOL.f64, `j ${j} term ${t}`));
      }
      const picked = pe.transformerXlRow(9, [11, 3], 16, { seed: 2 });
      assert.deepEqual([...picked.subarray(0, 4)], [...row.subarray(44, 48)]);
      assert.equal(pe.transformerXlRow(0, [], 16).length, 0);
    });

    test('transformerXlInputs returns the seeded vectors, R_{i-j} and W_R that the terms use', () => {
      const got = pe.transformerXlInputs(5, 2, 4, { seed: 1 });
      const want = reference(5, 2, 4, { seed: 1 });
      for (const [name, ref] of [['query', want.q], ['key', want.k], ['u', want.u], ['v', want.v], ['r', want.r], ['wr', want.w]]) {
        assert.ok(got[name] instanceof Float64Array, name);
        assert.equal(got[name].length, ref.length, name);
        ref.forEach((x, c) => assertClose(got[name][c], x, TOL.f64, `${name}[${c}]`));
      }
    });

    test('bad arguments throw a named RangeError or TypeError, and the instance keeps working', () => {
      const cases = [
        [() => pe.transformerXlTerms(-1, 0, 16), RangeError, /^i must be an integer in \[0, 1048576\], got -1$/],
        [() => pe.transformerXlTerms(0, 2.5, 16), RangeError, /^j must be an integer in \[0, 1048576\], got 2\.5$/],
        [() => pe.transformerXlTerms(0, 0, 15), RangeError, /^dim must be even/],
        [() => pe.transformerXlTerms(0, 0, 2048), RangeError, /^dim must be an integer in \[2, 1024\], got 2048$/],
        [() => pe.transformerXlTerms(0, 0, 16, { seed: 2 ** 32 }), RangeError, /^seed must be an integer in \[0, 4294967295\]/],
        [() => pe.transformerXlTerms(0, 0, 16, { base: NaN }), RangeError, /^base must be a finite number in \(1, /],
        [() => pe.transformerXlTerms('1', 0, 16), TypeError, /\bi\b/],
        [() => pe.transformerXlTerms(0, 0, 16, 'seed'), TypeError, /options/],
        [() => pe.transformerXlTerms(0, 0, 16, { seed: '3' }), TypeError, /options\.seed/],
        [() => pe.transformerXlRow(0, 'x', 16), TypeError, /^keys must be a count or an array of positions/],
        [() => pe.transformerXlRow(0, [1, -2], 16), RangeError, /^keys\[1\] must be an integer in \[0, 1048576\], got -2$/],
        [() => pe.transformerXlRow(0, 2 ** 21, 16), RangeError, /keys/],
        [() => pe.transformerXlRow(0, 1048576, 1024), RangeError, /^keys\.length \* dim must be at most/],
        [() => pe.transformerXlInputs(0, Infinity, 16), RangeError, /^j must be/],
      ];
      for (const [call, kind, message] of cases) {
        assert.throws(call, (e) => e instanceof kind && message.test(e.message), String(call));
        const t = pe.transformerXlTerms(12, 7, 16);
        assertClose(t.score, reference(12, 7, 16).score, TOL.f64, `still works after ${call}`);
      }
    });
  });
}
