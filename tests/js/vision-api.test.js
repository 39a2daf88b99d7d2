// The patch-grid functions of the JS API (core/vision.hpp) on both builds: values against
// references written out here, then bad input (a named RangeError or TypeError, and the module
// still answers correctly afterwards).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { TOL, assertAllClose, loadBoth, moduleName, prng } from './helpers.js';

const modules = await loadBoth();

// [REFERENCES] -------------------------------------------------------------------------------
// MAE's get_2d_sincos_pos_embed: per coordinate a 1-D table of d/2 dims, [sin | cos] with
// omega_i = 1 / base^(i / (d/4)); the column's half first, then the row's.
function maeSincos(rows, cols, d, base = 10000) {
  const q = d / 4;
  const half = (pos) => {
    const s = [];
    const c = [];
    for (let i = 0; i < q; i++) {
      const omega = 1 / base ** (i / q);
      s.push(Math.sin(pos * omega));
      c.push(Math.cos(pos * omega));
    }
    return [...s, ...c];
  };
  const out = [];
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out.push(...half(c), ...half(r));
  return out;
}

// Axial RoPE score, closed form: sum over pairs of |pair|^2 cos(w (pos_q − pos_k)); pairs
// p < d/4 use the column, the others the row.
function ropeScores(rows, cols, q, r, c, base = 10000) {
  const d = q.length;
  const quarter = d / 4;
  const out = [];
  for (let r2 = 0; r2 < rows; r2++) {
    for (let c2 = 0; c2 < cols; c2++) {
      let s = 0;
      for (let p = 0; p < d / 2; p++) {
        const w = base ** (-(p % quarter) / quarter);
        const delta = p < quarter ? c - c2 : r - r2;
        s += (q[2 * p] ** 2 + q[2 * p + 1] ** 2) * Math.cos(w * delta);
      }
      out.push(s);
    }
  }
  return out;
}

// PyTorch's bilinear resize (upsample_bilinear2d), both corner conventions.
function bilinear(t, rows, cols, d, nr, nc, alignCorners = false) {
  const taps = (i, n, m) => {
    let s;
    if (alignCorners) s = m > 1 ? (i * (n - 1)) / (m - 1) : 0;
    else s = Math.max(0, ((i + 0.5) * n) / m - 0.5);
    const i0 = Math.floor(s);
    return [i0, i0 < n - 1 ? i0 + 1 : i0, s - i0];
  };
  const out = [];
  for (let r = 0; r < nr; r++) {
    const [y0, y1, ly] = taps(r, rows, nr);
    for (let c = 0; c < nc; c++) {
      const [x0, x1, lx] = taps(c, cols, nc);
      for (let j = 0; j < d; j++) {
        const v = (rr, cc) => t[(rr * cols + cc) * d + j];
        out.push((1 - ly) * ((1 - lx) * v(y0, x0) + lx * v(y0, x1)) + ly * ((1 - lx) * v(y1, x0) + lx * v(y1, x1)));
      }
    }
  }
  return out;
}

const cosineRows = (t, d, a, b) => {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let j = 0; j < d; j++) {
    ab += t[a * d + j] * t[b * d + j];
    aa += t[a * d + j] ** 2;
    bb += t[b * d + j] ** 2;
  }
  return ab / Math.sqrt(aa * bb);
};

for (const pe of modules) {
  describe(`${moduleName(pe)}: patch grids`, () => {
    test('sincos2d(14, 14, 64) is MAE’s 2-D sin-cos table for ViT-B/16 at 224 px; other sizes and bases too', () => {
      for (const [rows, cols, d, base] of [[14, 14, 64, 10000], [7, 3, 8, 100], [1, 1, 4, 10000], [24, 24, 16, 10000]]) {
        const got = pe.sincos2d(rows, cols, d, { base });
        assert.ok(got instanceof Float32Array);
        assertAllClose(got, maeSincos(rows, cols, d, base), TOL.f32, `${rows}x${cols} d=${d} base ${base}`);
      }
      // The default base is 10000.
      assertAllClose(pe.sincos2d(3, 4, 8), maeSincos(3, 4, 8), TOL.f32, 'default base');
    });

    test('axialRopeScores follows the closed form, with cosine dividing by |q|²; the default q is all ones', () => {
      const rng = prng(7);
      const q = rng.floats(32);
      const norm2 = q.reduce((s, v) => s + v * v, 0);
      for (const [r, c] of [[0, 0], [3, 9], [13, 13]]) {
        const want = ropeScores(14, 14, q, r, c, 100);
        const got = pe.axialRopeScores(14, 14, 32, r, c, { base: 100, q });
        assert.ok(got instanceof Float64Array);
        assertAllClose(got, want, { abs: 1e-5, rel: 1e-6 }, `scores from (${r}, ${c})`);
        assertAllClose(pe.axialRopeScores(14, 14, 32, r, c, { base: 100, q, cosine: true }), want.map((v) => v / norm2),
          { abs: 1e-6, rel: 1e-6 }, `cosines from (${r}, ${c})`);
      }
      assertAllClose(pe.axialRopeScores(5, 6, 8, 2, 1), ropeScores(5, 6, new Array(8).fill(1), 2, 1), { abs: 1e-5, rel: 1e-6 }, 'default q');
    });

    test('axialRope turns the first half of x with the column and the second half with the row (1-D RoPE, interleaved, d/2)', () => {
      const x = prng(3).floats(16);
      const got = pe.axialRope(x, 4, 5, { base: 100 });
      assert.equal(got.length, 4 * 5 * 16);
      for (let r = 0; r < 4; r++) {
        for (let c = 0; c < 5; c++) {
          const lo = pe.ropeApply(x.subarray(0, 8), [c], 8, { layout: 'interleaved', base: 100 });
          const hi = pe.ropeApply(x.subarray(8), [r], 8, { layout: 'interleaved', base: 100 });
          assertAllClose(got.subarray((r * 5 + c) * 16, (r * 5 + c + 1) * 16), [...lo, ...hi], TOL.rope, `(${r}, ${c})`);
        }
      }
    });

    test('interpolateGrid gives PyTorch’s bilinear results on [[0, 1], [2, 3]] and matches the reference on 7x7 → 14x14, 14x14 → 24x24', () => {
      assertAllClose(pe.interpolateGrid([0, 1, 2, 3], 2, 2, 1, 4, 4),
        [0, 0.25, 0.75, 1, 0.5, 0.75, 1.25, 1.5, 1.5, 1.75, 2.25, 2.5, 2, 2.25, 2.75, 3], TOL.f32, 'align_corners=False');
      const t = 1 / 3;
      assertAllClose(pe.interpolateGrid([0, 1, 2, 3], 2, 2, 1, 4, 4, { alignCorners: true }),
        [0, t, 2 * t, 1, 2 * t, 1, 4 * t, 5 * t, 4 * t, 5 * t, 2, 7 * t, 2, 7 * t, 8 * t, 3], TOL.f32, 'align_corners=True');
      const rng = prng(11);
      for (const [rows, nr, d] of [[7, 14, 6], [14, 24, 4], [14, 16, 3], [14, 7, 2]]) {
        const table = rng.floats(rows * rows * d);
        for (const alignCorners of [false, true]) {
          assertAllClose(pe.interpolateGrid(table, rows, rows, d, nr, nr, { alignCorners }),
            bilinear(table, rows, rows, d, nr, nr, alignCorners), { abs: 1e-6, rel: 1e-6 }, `${rows} → ${nr} ${alignCorners}`);
        }
      }
    });

    test('learnedGrid is deterministic per seed, smooth over the grid, and interpolates like any table', () => {
      const a = pe.learnedGrid(7, 7, 48, { seed: 1 });
      assert.deepEqual(a, pe.learnedGrid(7, 7, 48, { seed: 1 }));
      assert.notDeepEqual(a, pe.learnedGrid(7, 7, 48, { seed: 2 }));
      assert.equal(a.length, 7 * 7 * 48);
      // Neighbours are more alike than opposite corners.
      assert.ok(cosineRows(a, 48, 24, 25) > cosineRows(a, 48, 0, 48) + 0.2);
      const big = pe.interpolateGrid(a, 7, 7, 48, 14, 14);
      assertAllClose(big, bilinear(a, 7, 7, 48, 14, 14), { abs: 1e-8, rel: 1e-6 });
    });

    test('gridSimilarity gives one row’s dot products, or cosines, against every row', () => {
      const t = [3, 4, 0, 0, -6, -8, 1, 0, 0, 2];
      assertAllClose(pe.gridSimilarity(t, 2, 0), [25, 0, -50, 3, 8], TOL.f64);
      assertAllClose(pe.gridSimilarity(t, 2, 0, { cosine: true }), [1, 0, -1, 0.6, 0.8], TOL.f64);
      const table = pe.sincos2d(14, 14, 64);
      const cos = pe.gridSimilarity(table, 64, 3 * 14 + 5, { cosine: true });
      for (const b of [0, 50, 195]) assert.ok(Math.abs(cos[b] - cosineRows(table, 64, 3 * 14 + 5, b)) < 1e-12);
    });

    test('bad arguments throw a RangeError or TypeError naming the argument, and the module keeps working', () => {
      const cases = [
        [() => pe.sincos2d(0, 4, 8), RangeError, /^rows must be an integer in \[1, 1024\], got 0$/],
        [() => pe.sincos2d(4, 4, 6), RangeError, /^d must be a multiple of 4/],
        [() => pe.sincos2d(4, '4', 8), TypeError, /^cols/],
        [() => pe.sincos2d(4, 4, 8, { base: 1 }), RangeError, /^base must be a finite number in \(1, /],
        [() => pe.sincos2d(1024, 1024, 64), RangeError, /^rows \* cols \* d must be at most 16777216/],
        [() => pe.sincos2d(4, 4, 8, 'x'), TypeError, /^options/],
        [() => pe.axialRope([1, 2, 3], 2, 2), RangeError, /^x\.length must be an integer in \[4, 8192\], got 3$/],
        [() => pe.axialRope([1, NaN, 0, 0], 2, 2), RangeError, /^x\[1\] must be a finite number, got NaN$/],
        [() => pe.axialRope(null, 2, 2), TypeError, /^x must be an Array/],
        [() => pe.axialRopeScores(3, 3, 8, 3, 0), RangeError, /^r must be an integer in \[0, 2\], got 3$/],
        [() => pe.axialRopeScores(3, 3, 8, 0, 1.5), RangeError, /^c must be an integer in \[0, 2\], got 1.5$/],
        [() => pe.axialRopeScores(3, 3, 8, 0, 0, { q: [1, 2, 3, 4] }), TypeError, /^q must have length 8, got 4$/],
        [() => pe.axialRopeScores(3, 3, 8, 0, 0, { cosine: 1 }), TypeError, /^options\.cosine/],
        [() => pe.axialRopeScores(3, 3, 2, 0, 0), RangeError, /^d must be an integer in \[4, 8192\], got 2$/],
        [() => pe.learnedGrid(2, 2, 8, { seed: -1 }), RangeError, /^seed must be an integer/],
        [() => pe.learnedGrid(2, 2, 8, { std: Infinity }), RangeError, /^std must be a finite number/],
        [() => pe.interpolateGrid([0, 1, 2], 2, 2, 1, 4, 4), TypeError, /^table must have length 4, got 3$/],
        [() => pe.interpolateGrid([0, 1, 2, 3], 2, 2, 1, 0, 4), RangeError, /^newRows must be an integer in \[1, 1024\], got 0$/],
        [() => pe.interpolateGrid([0, 1, 2, Infinity], 2, 2, 1, 4, 4), RangeError, /^table\[3\] must be a finite number, got Infinity$/],
        [() => pe.interpolateGrid([0, 1, 2, 3], 2, 2, 1, 4, 4, { alignCorners: 'yes' }), TypeError, /^options\.alignCorners/],
        [() => pe.gridSimilarity([1, 2, 3], 2, 0), RangeError, /^table\.length must be a positive multiple of d \(2\), got 3$/],
        [() => pe.gridSimilarity([1, 2, 3, 4], 2, 2), RangeError, /^index must be an integer in \[0, 1\], got 2$/],
        [() => pe.gridSimilarity('1,2', 2, 0), TypeError, /^table must be an Array/],
      ];
      for (const [call, cls, pattern] of cases) {
        assert.throws(call, (e) => e instanceof cls && pattern.test(e.message), String(call));
        // Still answering correctly.
        assertAllClose(pe.sincos2d(1, 2, 4), [0, 1, 0, 1, Math.sin(1), Math.cos(1), 0, 1], TOL.f32, `after ${call}`);
      }
    });
  });
}
