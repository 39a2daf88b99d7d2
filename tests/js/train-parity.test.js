// The trainer against PyTorch (Debian's python3-torch, installed by wasm/tools/setup.sh): the
// native trainer's first step (`posenc-train --dump-step`) for every family and two tasks, the
// same weights and batch rebuilt in tests/train/torch_reference.py. Same logits, loss and
// gradients (autograd), and the same AdamW update (torch.optim.AdamW after clip_grad_norm_).
// Then the fixes: every family with randomised positions (the dump's drawn ids go to torch as
// they are: tables read at them, RoPE turned by them, ALiBi, T5 and FIRE at their differences),
// and scalable softmax for the families whose scores differ in kind (content only, a rotation,
// a fixed bias, a learned bias, a learned pair bias), alone and with randomised positions.
//
// Tolerances, relative to the largest entry of each compared array:
//   double build vs torch float64: 1e-12 for logits and loss, 1e-11 for gradients (the same
//     formulas; only summation order differs),
//     except sinusoidal: its table comes from the core's float32 kernel (≤ 2e-7 from the exact
//     sine), which moves logits and gradients by ~1e-8, so 1e-6 there.
//   float build vs torch float64: 1e-5 for logits and loss, 1e-4 for gradients (float32 sums over
//     a few hundred terms through two layers).
//   Gradients are relative to the tensor's own largest entry, plus a floor of 1e-15 (double) or
//     1e-7 (float) of the model's largest gradient: a tensor whose gradient is tiny (FIRE's
//     first-layer threshold here, ~5e-10 of the largest) is rounding noise at the model's scale in
//     float.
//   the update, torch's AdamW in the same precision on our gradients: 1e-6 absolute in float
//     (a parameter moves by ~lr = 3e-3, so this is ~3e-4 of the step), 1e-14 in double.
//   The last layer's FIRE threshold may be exactly 0 on both sides (no answer row below L).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { TRAIN_FAMILIES } from '../../wasm/train.js';

const at = (p) => fileURLToPath(new URL(`../../${p}`, import.meta.url));
const TRAINER = at('build/native/posenc-train');
const PYTHON = '/usr/bin/python3';  // Debian's, where python3-torch lives
const FAMILIES = TRAIN_FAMILIES;  // the registry's, as the module lists them

const CONFIG = ['--trainLengths', '1-5', '--testLengths', '1-6', '--symbols', '6', '--dModel', '16', '--heads', '2',
  '--layers', '2', '--mlp', '24', '--batch', '4', '--warmup', '0', '--t5Buckets', '8', '--t5MaxDistance', '12'];

const PRECISIONS = ['double', 'float'];
// What each case adds to CONFIG.
const FIXES = {
  plain: [],
  random: ['--randomPositions', '40'],
  ssmax: ['--scalableSoftmax', 'true'],
  both: ['--scalableSoftmax', 'true', '--randomPositions', '24'],
};
const SSMAX_FAMILIES = ['none', 'rope', 'alibi', 't5', 'fire', 'rope-nope'];
const groups = [
  ...['copy', 'retrieval'].flatMap((task) => FAMILIES.map((family) => ({ task, family, fix: 'plain' }))),
  ...FAMILIES.map((family) => ({ task: 'offset', family, fix: 'random' })),
  ...SSMAX_FAMILIES.map((family) => ({ task: 'offset', family, fix: 'ssmax' })),
  ...SSMAX_FAMILIES.map((family) => ({ task: 'copy', family, fix: 'both' })),
];
const cases = groups.flatMap((g) => PRECISIONS.map((precision) => ({ ...g, precision })));
// Every dump through one python process (importing torch costs about a second each time).
const dumps = cases.map(({ task, family, fix, precision }) => execFileSync(TRAINER,
  ['--family', family, '--task', task, ...CONFIG, ...FIXES[fix], '--dump-step', ...(precision === 'double' ? ['--double'] : [])],
  { maxBuffer: 1 << 26 }));
const compared = JSON.parse(execFileSync(PYTHON, [at('tests/train/torch_reference.py')], {
  input: `[${dumps.join(',')}]`, maxBuffer: 1 << 28,
}));

for (const { task, family, fix } of groups) {
  test(`trainer ${family} on ${task}${fix === 'plain' ? '' : ` (${fix})`}: logits, loss, gradients and the AdamW step equal PyTorch's (double and float)`, () => {
    for (const precision of PRECISIONS) {
      const k = cases.findIndex((c) => c.family === family && c.task === task && c.fix === fix && c.precision === precision);
      const r = compared[k];
      const dump = JSON.parse(dumps[k]);
      assert.equal(r.family, family);
      assert.equal(r.precision, precision);
      if (fix === 'random' || fix === 'both') {
        // The batch really is at drawn positions: not 0, 1, ... in some sequence.
        const notPlain = dump.starts.slice(0, -1).some((s, q) => dump.positions.slice(s, dump.starts[q + 1]).some((p, i) => p !== i));
        assert.ok(notPlain, `${family}: positions ${dump.positions}`);
      }
      const strict = precision === 'double';
      const tol = strict ? (family === 'sinusoidal' ? 1e-6 : 1e-12) : 1e-5;
      const what = `${family}/${task}/${fix} ${precision}`;
      assert.ok(r.lossRel <= tol, `${what}: loss ${r.oursLoss} vs torch ${r.loss}`);
      assert.ok(r.logitsRel <= tol, `${what}: logits differ by ${r.logitsRel}`);
      // Exactly zero on both sides is right for one tensor: the last layer's FIRE threshold when
      // every query below L is a row that predicts nothing (only answer rows reach the loss).
      for (const name of r.zeroGradients) assert.equal(name, `position.fire.${dump.config.layers - 1}.threshold`, `${what}: ${name} has no gradient`);
      assert.equal(Object.keys(r.grad).length, r.tensorCount, `${what}: every tensor compared`);
      for (const [name, g] of Object.entries(r.grad)) {
        const allowed = (strict ? tol * 10 : 1e-4) * g.scale + (strict ? 1e-15 : 1e-7) * r.gradTop;
        assert.ok(g.diff <= allowed, `${what}: gradient of ${name} differs by ${g.diff} (largest entry ${g.scale})`);
      }
      assert.ok(Math.abs(r.gradNorm - r.oursGradNorm) <= 1e-6 * r.gradNorm, `${what}: gradient norm`);
      assert.ok(r.learningRate > 0);
      assert.ok(r.updatedAbs <= (strict ? 1e-14 : 1e-6), `${what}: AdamW update differs by ${r.updatedAbs}`);
    }
  });
}
