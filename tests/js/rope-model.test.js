// web/steps/rope/model.js against the rotations computed here in float64 (pair i of (0.6, 0.4)
// turned by p·θᵢ, θᵢ = 10000^(−2i/8); tests/expect/rope.js), in both builds, for every (m, n) the
// sliders reach; and the step's claims on the model's own numbers: a rotation keeps each pair's
// length, the score depends only on n − m (the shift plot's diagonal is flat), each pair scores
// as the unrotated pair against one turned by (n − m)·θᵢ, and moving m alone changes the score.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { D, PAIR, POSITIONS, canShift, ropeModel } from '../../web/steps/rope/model.js';
import { D as EXPECT_D, PAIR as EXPECT_PAIR, rotate, score, theta } from '../expect/rope.js';
import { TOL, assertAllClose, assertClose, loadBoth, moduleName } from './helpers.js';

const cores = await loadBoth();
// A score: eight float32 products of rotated float32 values, summed (values up to ~1).
const SCORE = { abs: 2e-5, rel: 0 };

test('the step’s vectors are the ones the expected values describe', () => {
  assert.equal(D, EXPECT_D);
  assert.deepEqual(PAIR, EXPECT_PAIR);
});

test('both positions can shift together exactly while both stay in 0..19', () => {
  for (let a = 0; a < POSITIONS; a++) {
    for (let b = 0; b < POSITIONS; b++) {
      for (const by of [-1, 1]) assert.equal(canShift(a, b, by), Math.min(a, b) + by >= 0 && Math.max(a, b) + by <= 19, `${a},${b} by ${by}`);
    }
  }
});

for (const core of cores) {
  const model = ropeModel(core);
  test(`${moduleName(core)}: θ and every score of the shift plot`, () => {
    assertAllClose(model.theta, [0, 1, 2, 3].map(theta), TOL.f64, 'θ');
    for (let m = 0; m < POSITIONS; m++) {
      for (let n = 0; n < POSITIONS; n++) assertClose(model.scores[m * POSITIONS + n], score(m, n), SCORE, `score(${m}, ${n})`);
    }
  });

  test(`${moduleName(core)}: every (m, n): q′, k′, q′·k′, offset, pairs' angles and turns, both plot series`, () => {
    for (let qpos = 0; qpos < POSITIONS; qpos++) {
      for (let kpos = 0; kpos < POSITIONS; kpos++) {
        const where = `(${qpos}, ${kpos})`;
        const r = model.readout({ qpos, kpos });
        assertAllClose(r.q, rotate(qpos), TOL.rope, `${where}: q′`);
        assertAllClose(r.k, rotate(kpos), TOL.rope, `${where}: k′`);
        assertClose(r.qk, score(qpos, kpos), SCORE, `${where}: q′·k′`);
        assert.equal(r.offset, kpos - qpos);
        r.pairs.forEach((p, i) => {
          assertAllClose(p.q, rotate(qpos).slice(2 * i, 2 * i + 2), TOL.rope, `${where} pair ${i}: q′`);
          assertAllClose(p.k, rotate(kpos).slice(2 * i, 2 * i + 2), TOL.rope, `${where} pair ${i}: k′`);
          assertClose(p.qAngle, qpos * theta(i), TOL.f64, `${where} pair ${i}: m·θ`);
          assertClose(p.kAngle, kpos * theta(i), TOL.f64, `${where} pair ${i}: n·θ`);
          assertClose(p.delta, (kpos - qpos) * theta(i), TOL.f64, `${where} pair ${i}: Δ`);
        });
        // The diagonal: every m with m and m + (n − m) in 0..19.
        const ms = Array.from({ length: POSITIONS }, (_, x) => x).filter((x) => x + kpos - qpos >= 0 && x + kpos - qpos < POSITIONS);
        assert.deepEqual(r.both.x, ms, `${where}: the diagonal's positions`);
        assertAllClose(r.both.y, ms.map((x) => score(x, x + kpos - qpos)), SCORE, `${where}: the diagonal`);
        assertAllClose(r.qOnly.y, Array.from({ length: POSITIONS }, (_, x) => score(x, kpos)), SCORE, `${where}: m alone`);
      }
    }
  });

  test(`${moduleName(core)}: a rotation keeps each pair's length, and each pair scores as the unrotated one against a turn by (n − m)·θᵢ`, () => {
    const length = Math.hypot(...PAIR);
    const turn = ([x, y], a) => [x * Math.cos(a) - y * Math.sin(a), x * Math.sin(a) + y * Math.cos(a)];
    for (let qpos = 0; qpos < POSITIONS; qpos += 3) {
      for (let kpos = 0; kpos < POSITIONS; kpos++) {
        model.readout({ qpos, kpos }).pairs.forEach((p, i) => {
          assertClose(Math.hypot(...p.q), length, TOL.rope, `(${qpos}, ${kpos}) pair ${i}: |q′|`);
          assertClose(Math.hypot(...p.k), length, TOL.rope, `(${qpos}, ${kpos}) pair ${i}: |k′|`);
          const turned = turn(PAIR, (kpos - qpos) * theta(i));
          assertClose(p.q[0] * p.k[0] + p.q[1] * p.k[1], PAIR[0] * turned[0] + PAIR[1] * turned[1], TOL.rope, `(${qpos}, ${kpos}) pair ${i}: q′ᵢ·k′ᵢ`);
        });
      }
    }
  });

  test(`${moduleName(core)}: the score depends only on n − m, and moving m alone changes it`, () => {
    for (let qpos = 0; qpos < POSITIONS; qpos++) {
      for (let kpos = 0; kpos < POSITIONS; kpos++) {
        const r = model.readout({ qpos, kpos });
        for (const y of r.both.y) assertClose(y, r.qk, SCORE, `(${qpos}, ${kpos}): the diagonal is flat`);
        assert.ok(Math.max(...r.qOnly.y) - Math.min(...r.qOnly.y) > 0.5, `(${qpos}, ${kpos}): m alone`);
      }
    }
  });
}
