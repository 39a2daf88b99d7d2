// web/steps/code/model.js on both builds: every quantity's value over its whole parameter range
// (or a dense grid), against the formulas written out in tests/expect/code.js (sinusoid, its
// wavelengths and dot products, RoPE and partial RoPE scores of (0.6, 0.4) pairs, T5 buckets in
// integers, ALiBi biases from the paper code's slopes, every RoPE scaling of a 4k model); each
// curve against the same formulas along its x, its marked point equal to the value, and the
// numbers its caption names; and the pairing table against rotations written out in
// tests/expect/rope.js, with the claim that the permuted vectors give the neighbours' score.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FACTORS, SCALINGS, SETUP, T5_REL, WIDTHS } from '../../web/steps/code/setup.js';
import { codeModel } from '../../web/steps/code/model.js';
import { TOL, alibiSlopes, own, sinOmega } from '../expect/code.js';
import { dot, permuted, raw, rotateHalf, score } from '../expect/rope.js';
import { assertClose, loadBoth, moduleName } from './helpers.js';

const cores = await loadBoth();
const near = (q, got, want, what) => assertClose(got, want, { abs: TOL[q] * Math.max(1, Math.abs(want)), rel: 0 }, what);
const upTo = (n) => Array.from({ length: n + 1 }, (_, k) => k);

// Every setting the controls reach, per quantity (dot, rope: every pair of positions; scaled: every
// scaling, factor and pair; ALiBi: every head count, head and distance).
const SETTINGS = {
  pe: upTo(SETUP.pe.positions - 1).flatMap((pos) => upTo(SETUP.pe.d - 1).map((dim) => ({ pos, dim }))),
  wavelength: upTo(SETUP.wavelength.d - 1).map((wdim) => ({ wdim })),
  dot: WIDTHS.flatMap((width) => upTo(19).flatMap((i) => upTo(19).map((j) => ({ width, i, j })))),
  rope: upTo(19).flatMap((m) => upTo(19).map((n) => ({ m, n }))),
  'partial-rope': upTo(19).flatMap((m) => upTo(19).map((n) => ({ m, n }))),
  t5: [true, false].flatMap((bidir) => upTo(T5_REL.max - T5_REL.min).map((k) => ({ rel: T5_REL.min + k, bidir }))),
  alibi: upTo(15).flatMap((h) => upTo(h).flatMap((head) => upTo(20).map((dist) => ({ heads: h + 1, head: head + 1, dist }))))
    .filter((s) => s.head <= s.heads),
  scaled: SCALINGS.flatMap((scaling) => FACTORS.flatMap((factor) => upTo(SETUP.scaled.d / 2 - 1).map((pair) => ({ scaling, factor, pair })))),
};

for (const pe of cores) {
  const name = moduleName(pe);
  const model = codeModel(pe);

  test(`${name}: every quantity's value over its range against the formula`, () => {
    for (const [q, states] of Object.entries(SETTINGS)) {
      for (const state of states) {
        const { value, call } = model.compute[q](state);
        const want = own[q](state);
        if (q === 't5' || q === 'alibi') assert.equal(value, want, `${q} ${JSON.stringify(state)}`);
        else near(q, value, want, `${q} ${JSON.stringify(state)}`);
        assert.ok(!Object.is(value, -0), `${q} ${JSON.stringify(state)}: −0 would print as -0.000000`);
        assert.equal(typeof call, 'string');
      }
    }
  });

  test(`${name}: each curve follows the formula along its x, marks the value, and names the right numbers`, () => {
    const cases = [
      ['pe', { pos: 10, dim: 4 }, (x) => ({ pos: x, dim: 4 })],
      ['pe', { pos: 49, dim: 19 }, (x) => ({ pos: x, dim: 19 })],
      ['wavelength', { wdim: 5 }, (x) => ({ wdim: x })],
      ['dot', { width: 8, i: 2, j: 8 }, (x) => ({ width: 8, i: 2, j: x })],
      ['dot', { width: 16, i: 19, j: 0 }, (x) => ({ width: 16, i: 19, j: x })],
      ['rope', { m: 3, n: 7 }, (x) => ({ m: 3, n: x })],
      ['partial-rope', { m: 11, n: 0 }, (x) => ({ m: 11, n: x })],
      ['t5', { rel: -20, bidir: true }, (x) => ({ rel: x, bidir: true })],
      ['t5', { rel: 7, bidir: false }, (x) => ({ rel: x, bidir: false })],
      ['alibi', { heads: 6, head: 5, dist: 20 }, (x) => ({ heads: 6, head: 5, dist: x })],
      ...SCALINGS.map((scaling) => ['scaled', { scaling, factor: 16, pair: 30 }, (x) => ({ scaling, factor: 16, pair: x })]),
    ];
    for (const [q, state, at] of cases) {
      const c = model.curves[q](state);
      const where = `${q} ${JSON.stringify(state)}`;
      // wavelength and scaled plot log10 of the value.
      const shown = (v) => (q === 'wavelength' || q === 'scaled' ? Math.log10(v) : v);
      c.x.forEach((x, k) => {
        const want = shown(own[q](at(x)));
        if (q === 't5' || q === 'alibi') assert.equal(c.y[k], want, `${where}: x ${x}`);
        else near(q, c.y[k], want, `${where}: x ${x}`);
      });
      const k = Array.from(c.x).indexOf(c.at);
      assert.ok(k >= 0, `${where}: the marked x is on the curve`);
      const value = shown(model.compute[q](state).value);
      if (q === 't5' || q === 'alibi') assert.equal(c.y[k], value, `${where}: marked point`);
      else near(q, c.y[k], value, `${where}: marked point`);
      assert.ok(c.yDomain[0] <= Math.min(...c.y) && Math.max(...c.y) <= c.yDomain[1], `${where}: the curve fits its y domain`);
      if (q === 'pe') near(q, c.vars.wavelength, (2 * Math.PI) / sinOmega(Math.floor(state.dim / 2), SETUP.pe.d), `${where}: wavelength`);
      if (q === 'wavelength') near(q, c.vars.longest, own.wavelength({ wdim: SETUP.wavelength.d - 1 }), `${where}: longest`);
      if (q === 'dot') assert.equal(c.vars.max, state.width / 2, `${where}: max`);
      if (q === 'rope' || q === 'partial-rope') near(q, c.vars.max, own[q]({ m: state.m, n: state.m }), `${where}: score at Δ = 0`);
      if (q === 't5') assert.equal(c.vars.bidir, state.bidir);
      if (q === 'alibi') assert.equal(c.vars.slope, alibiSlopes(state.heads)[state.head - 1], `${where}: slope`);
      if (q === 'scaled') c.plain.forEach((y, p) => near(q, y, Math.log10(own.scaled({ scaling: 'default', factor: 1, pair: p })), `${where}: plain ${p}`));
    }
    // The T5 curve spans the rel slider's range.
    const t5 = model.curves.t5({ rel: 0, bidir: true });
    assert.deepEqual([t5.x[0], t5.x.at(-1)], [T5_REL.min, T5_REL.max]);
  });

  test(`${name}: the pairing table at every (m, n): neighbours, rotate_half on the same vectors, and the permuted vectors give the neighbours' score`, () => {
    for (let m = 0; m < 20; m++) {
      for (let n = 0; n < 20; n++) {
        const where = `(${m}, ${n})`;
        const got = model.pairing(m, n);
        assertClose(got.interleaved, score(m, n), { abs: 2e-6, rel: 0 }, `${where}: neighbours`);
        assertClose(got.half, dot(rotateHalf(raw, m), rotateHalf(raw, n)), { abs: 2e-6, rel: 0 }, `${where}: rotate_half`);
        assertClose(got.permuted, dot(rotateHalf(permuted, m), rotateHalf(permuted, n)), { abs: 2e-6, rel: 0 }, `${where}: permuted`);
        // The claim: the permutation makes rotate_half agree with the neighbours.
        assertClose(got.permuted, got.interleaved, { abs: 2e-6, rel: 0 }, `${where}: permuted = neighbours`);
      }
    }
  });
}
