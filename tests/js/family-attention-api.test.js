// familyAttention(family, n, dim, options) and familyContent(which, n, dim, options)
// (core/family_attention.hpp) on both builds: the shape of the result and its defaults, rows that
// sum to 1 and respect the causal mask, bins that are sums of the exact row, the ALiBi bias read
// back from the scores, held contents giving the drawn ones' numbers, agreement of the two
// builds, and bad input: a RangeError or TypeError naming the argument, after which the instance
// still answers.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { TOL, assertAllClose, loadBoth, moduleName } from './helpers.js';
import { ATTENTION_FAMILIES } from '../../wasm/train.js';

const modules = await loadBoth();
const FAMILIES = ATTENTION_FAMILIES;  // the registry's drawn families, as the module lists them
const rowSum = (a, from, to) => { let s = 0; for (let x = from; x < to; x++) s += a[x]; return s; };

for (const pe of modules) {
  describe(`familyAttention, ${moduleName(pe)}`, () => {
    test('defaults: every row 0..n−1, n single-key columns, causal: a lower-triangular matrix of rows summing to 1', () => {
      for (const family of FAMILIES) {
        const n = 20;
        const r = pe.familyAttention(family, n, 16);
        assert.ok(r.cells instanceof Float32Array && r.scores instanceof Float32Array && r.probs instanceof Float32Array);
        assert.equal(r.cells.length, n * n);
        assert.equal(r.scores.length, n);
        assert.equal(r.probs.length, n);
        for (let i = 0; i < n; i++) {
          assert.ok(Math.abs(rowSum(r.cells, i * n, (i + 1) * n) - 1) < 2e-6, `${family} row ${i}`);
          for (let j = i + 1; j < n; j++) assert.equal(r.cells[i * n + j], 0, `${family} (${i}, ${j}) is masked`);
        }
        // query defaults to 0: it sees only itself.
        assert.equal(r.probs[0], 1);
        assert.equal(r.scores[1], -Infinity);
        assert.ok(Number.isFinite(r.scores[0]));
      }
    });

    test('the exact query row equals that row of the full matrix, and bins sum it', () => {
      for (const family of FAMILIES) {
        for (const causal of [true, false]) {
          const n = 30;
          const full = pe.familyAttention(family, n, 8, { causal, query: 21, seed: 3 });
          // Equal up to the float32 summation order of the softmax (the causal pass stops each
          // block of rows at its last query, so the same row can be summed over another length).
          assertAllClose(full.probs, full.cells.subarray(21 * n, 22 * n), { abs: 1e-7, rel: 1e-6 }, `${family} causal ${causal}`);
          const binned = pe.familyAttention(family, n, 8, { causal, query: 4, seed: 3, rows: [21, 2], columns: 7 });
          assert.equal(binned.cells.length, 2 * 7);
          for (let c = 0; c < 7; c++) {
            const lo = Math.floor((c * n) / 7);
            const hi = Math.floor(((c + 1) * n) / 7);
            assertAllClose([binned.cells[c]], [rowSum(full.probs, lo, hi)], { abs: 1e-6 }, `${family} bin ${c}`);
          }
          assertAllClose(binned.probs, full.cells.subarray(4 * n, 5 * n), { abs: 1e-7, rel: 1e-6 }, `${family} query 4`);
        }
      }
    });

    test('ALiBi adds −slope·|i − j| to the scores of the same tokens without positions', () => {
      const slopes = pe.alibiSlopes(8);
      for (const head of [0, 3, 7]) {
        for (const causal of [true, false]) {
          const opts = { causal, query: 40, head, heads: 8, seed: 11 };
          const none = pe.familyAttention('none', 64, 32, opts).scores;
          const alibi = pe.familyAttention('alibi', 64, 32, opts).scores;
          const want = Array.from(none, (s, j) => (s === -Infinity ? s : s - slopes[head] * Math.abs(40 - j)));
          assertAllClose([...alibi], want, { abs: 2e-6, rel: 1e-6 }, `head ${head}`);
        }
      }
    });

    test('a different seed gives different tokens; the same seed the same numbers', () => {
      const a = pe.familyAttention('rope', 16, 8, { seed: 1, query: 9 });
      const b = pe.familyAttention('rope', 16, 8, { seed: 2, query: 9 });
      const c = pe.familyAttention('rope', 16, 8, { seed: 1, query: 9 });
      assert.notDeepEqual([...a.scores], [...b.scores]);
      assert.deepEqual([...a.scores], [...c.scores]);
    });

    test('familyContent: n × dim rows, a shorter table the first rows of a longer one, one table per (which, seed)', () => {
      const long = pe.familyContent('key', 40, 8, { seed: 7 });
      assert.ok(long instanceof Float32Array);
      assert.equal(long.length, 40 * 8);
      assert.deepEqual([...pe.familyContent('key', 10, 8, { seed: 7 })], [...long.subarray(0, 80)]);
      assert.notDeepEqual([...pe.familyContent('query', 40, 8, { seed: 7 })], [...long]);
      assert.notDeepEqual([...pe.familyContent('key', 40, 8, { seed: 8 })], [...long]);
      assert.notDeepEqual([...pe.familyContent('learned', 40, 8, { seed: 7 })], [...long]);
      // The contents share a direction mu with mu_c = ±√½ (signs + + − − ...): the mean over
      // 4,096 tokens of column c is within a few 0.5/√4096 of it; the learned table has none.
      const n = 4096;
      const keys = pe.familyContent('key', n, 8), table = pe.familyContent('learned', n, 8);
      for (let c = 0; c < 8; c++) {
        let k = 0, l = 0;
        for (let t = 0; t < n; t++) { k += keys[t * 8 + c]; l += table[t * 8 + c]; }
        const mu = (Math.floor(c / 2) % 2 === 0 ? 1 : -1) * Math.SQRT1_2;
        assert.ok(Math.abs(k / n - mu) < 5 * 0.5 / Math.sqrt(n), `key column ${c}: mean ${k / n} vs ${mu}`);
        assert.ok(Math.abs(l / n) < 5 * Math.SQRT1_2 / Math.sqrt(n), `learned column ${c}: mean ${l / n}`);
      }
    });

    test('held contents (familyContent of a longer sequence, cut to n) give the drawn numbers, bit for bit', () => {
      const dim = 8, seed = 4, longest = 48;
      const held = Object.fromEntries(['query', 'key', 'learned'].map((w) => [w, pe.familyContent(w, longest, dim, { seed })]));
      for (const family of FAMILIES) {
        for (const n of [12, longest]) {
          for (const causal of [true, false]) {
            const opts = { causal, seed, query: n - 2, rows: [0, 5, n - 1], columns: 6, head: 2 };
            const drawn = pe.familyAttention(family, n, dim, opts);
            const cut = (a) => a.subarray(0, n * dim);
            const given = pe.familyAttention(family, n, dim, {
              ...opts, queryContent: cut(held.query), keyContent: cut(held.key), learnedTable: cut(held.learned),
            });
            const where = `${family} n=${n} causal=${causal}`;
            assert.deepEqual([...given.cells], [...drawn.cells], `${where} cells`);
            assert.deepEqual([...given.scores], [...drawn.scores], `${where} scores`);
            assert.deepEqual([...given.probs], [...drawn.probs], `${where} probs`);
          }
        }
      }
      // The contents are what is attended: other keys, other numbers.
      const other = pe.familyAttention('none', 12, dim, { seed, query: 10, keyContent: pe.familyContent('key', 12, dim, { seed: 5 }) });
      assert.notDeepEqual([...other.probs], [...pe.familyAttention('none', 12, dim, { seed, query: 10 }).probs]);
    });

    test('bad input throws a named RangeError or TypeError, and the instance keeps working', () => {
      const cases = [
        [() => pe.familyAttention(3, 8, 8), TypeError, /^family must be a string/],
        [() => pe.familyAttention('ALiBi', 8, 8), TypeError, /^family must be one of 'none', .*got 'ALiBi'/],
        [() => pe.familyAttention('rope', '8', 8), TypeError, /^n must be a number, got string/],
        [() => pe.familyAttention('rope', 0, 8), RangeError, /^n must be an integer in \[1, 8192\], got 0/],
        [() => pe.familyAttention('rope', 8193, 8), RangeError, /^n must be an integer in \[1, 8192\]/],
        [() => pe.familyAttention('rope', 8, 7), RangeError, /^dim must be even/],
        [() => pe.familyAttention('rope', 8, 512), RangeError, /^dim must be an integer in \[2, 256\], got 512/],
        [() => pe.familyAttention('rope', 8, 8, 'causal'), TypeError, /^options must be an object/],
        [() => pe.familyAttention('rope', 8, 8, { causal: 1 }), TypeError, /^options\.causal must be true or false/],
        [() => pe.familyAttention('rope', 8, 8, { columns: 9 }), RangeError, /^columns must be an integer in \[1, 8\], got 9/],
        [() => pe.familyAttention('rope', 8, 8, { query: 8 }), RangeError, /^query must be an integer in \[0, 7\], got 8/],
        [() => pe.familyAttention('rope', 8, 8, { rows: [0, 8] }), RangeError, /^rows\[1\] must be an integer in \[0, 7\], got 8/],
        [() => pe.familyAttention('rope', 8, 8, { rows: [0, '1'] }), TypeError, /^options\.rows\[1\] must be a number/],
        [() => pe.familyAttention('rope', 8, 8, { rows: 'all' }), TypeError, /^options\.rows must be an Array/],
        [() => pe.familyAttention('rope', 8, 8, { rows: new Array(9).fill(0) }), RangeError, /^rows\.length must be an integer in \[0, 8\], got 9/],
        [() => pe.familyAttention('rope', 8, 8, { seed: -1 }), RangeError, /^seed must be an integer in \[0, 1000000000\]/],
        [() => pe.familyAttention('rope', 8, 8, { base: NaN }), RangeError, /^base must be a finite number/],
        [() => pe.familyAttention('alibi', 8, 8, { heads: 4, head: 4 }), RangeError, /^head must be an integer in \[0, 3\], got 4/],
        [() => pe.familyAttention('t5', 8, 8, { numBuckets: 33 }), RangeError, /^numBuckets must be even/],
        [() => pe.familyAttention('t5', 8, 8, { maxDistance: 10 }), RangeError, /^maxDistance must be an integer in \[17, /],
        // One vocabulary: 'relative' (the attention step's old name for T5) is no family name.
        [() => pe.familyAttention('relative', 8, 8), TypeError, new RegExp(`^family must be one of ${FAMILIES.map((f) => `'${f}'`).join(', ')}, got 'relative'$`)],
        // The trainer's own families (a mix of layers, all trained weights) have no head to draw.
        [() => pe.familyAttention('fire', 8, 8), TypeError, new RegExp(`^family 'fire' is trained only \\(it has no single head to draw\\): use one of ${FAMILIES.map((f) => `'${f}'`).join(', ')}$`)],
        [() => pe.familyAttention('rope-nope', 8, 8), TypeError, /^family 'rope-nope' is trained only/],
        [() => pe.familyAttention('rope', 8, 8, { keyContent: new Float32Array(63) }), RangeError, /^options\.keyContent\.length must be n \* dim = 64, got 63$/],
        [() => pe.familyAttention('rope', 8, 8, { queryContent: new Float32Array(64).fill(NaN) }), RangeError, /^options\.queryContent\[0\] must be finite, got NaN$/],
        [() => pe.familyAttention('learned', 8, 8, { learnedTable: 'table' }), TypeError, /^options\.learnedTable must be an Array of numbers or a typed array/],
        [() => pe.familyContent('value', 8, 8), TypeError, /^which must be one of 'query', 'key', 'learned', got 'value'$/],
        [() => pe.familyContent(0, 8, 8), TypeError, /^which must be a string/],
        [() => pe.familyContent('key', 0, 8), RangeError, /^n must be an integer in \[1, 8192\], got 0$/],
        [() => pe.familyContent('key', 8, 9), RangeError, /^dim must be even/],
        [() => pe.familyContent('key', 8, 8, { seed: 0.5 }), RangeError, /^options\.seed must be an integer in \[0, 1000000000\], got 0\.5$/],
      ];
      const before = pe.familyAttention('learned', 12, 8, { query: 11, causal: false });
      for (const [call, kind, message] of cases) {
        assert.throws(call, (e) => e instanceof kind && message.test(e.message), String(call));
        const after = pe.familyAttention('learned', 12, 8, { query: 11, causal: false });
        assert.deepEqual([...after.probs], [...before.probs]);
      }
    });
  });
}

test('the SIMD and scalar builds agree on every family at n = 512', () => {
  const [simd, scalar] = modules;
  const rows = Array.from({ length: 64 }, (_, r) => r * 8);
  for (const family of FAMILIES) {
    const opts = { rows, columns: 128, query: 300, seed: 5, head: 5 };
    const a = simd.familyAttention(family, 512, 64, opts);
    const b = scalar.familyAttention(family, 512, 64, opts);
    assertAllClose(a.cells, b.cells, TOL.attention, `${family} cells`);
    assertAllClose(a.probs, b.probs, TOL.attention, `${family} probs`);
    const finite = (s) => Array.from(s, (v) => (v === -Infinity ? -1e9 : v));
    assertAllClose(finite(a.scores), finite(b.scores), { abs: 2e-5, rel: 1e-5 }, `${family} scores`);
  }
});

test('hostile calls: every one returns a well-formed result or throws a RangeError/TypeError, and the instance keeps working', () => {
  const [pe] = modules;
  let seed = 12345;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const any = (list) => list[Math.floor(rand() * list.length)];
  const huge = [];
  huge.length = 2 ** 32 - 1;
  const values = [undefined, null, 0, 1, -1, 2.5, NaN, Infinity, 1e9, 2 ** 53, '8', true, {}, [], [3], huge,
    new Float64Array([1, 2]), { get length() { throw new Error('getter'); } }, Symbol('s'), 3n, () => 1];
  const families = [...FAMILIES, 'rope ', '', 'RoPE', 7, null];
  const keys = ['rows', 'columns', 'query', 'causal', 'seed', 'base', 'heads', 'head', 'numBuckets', 'maxDistance', 'queryContent', 'keyContent', 'learnedTable'];
  const reference = pe.familyAttention('alibi', 24, 8, { query: 20, head: 5 });
  let ok = 0;
  for (let k = 0; k < 400; k++) {
    const opts = {};
    for (const key of keys) if (rand() < 0.12) opts[key] = any(values);
    const mostly = (good, bad) => (rand() < 0.75 ? any(good) : any(bad));
    const args = [mostly(FAMILIES, families), mostly([8, 16, 30], values), mostly([2, 8, 16], values), rand() < 0.9 ? opts : any(values)];
    try {
      const r = pe.familyAttention(...args);
      const n = args[1];
      assert.equal(r.scores.length, n);
      assert.equal(r.probs.length, n);
      ok++;
    } catch (e) {
      assert.ok(e instanceof RangeError || e instanceof TypeError, `${e?.constructor?.name}: ${e?.message}`);
      assert.ok(e.message.length > 10);
    }
  }
  assert.ok(ok > 5, `${ok} calls succeeded`);
  const after = pe.familyAttention('alibi', 24, 8, { query: 20, head: 5 });
  assert.deepEqual([...after.probs], [...reference.probs]);
});
