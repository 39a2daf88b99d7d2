// The trainer against PyTorch (Debian's python3-torch, installed by wasm/tools/setup.sh): the
// native trainer's first step (`posenc-train --dump-step`) for every family and two tasks, the
// same weights and batch rebuilt in tests/train/torch_reference.py. Same logits, loss and
// gradients (autograd), and the same AdamW update (torch.optim.AdamW after clip_grad_norm_).
//
// Tolerances, relative to the largest entry of each compared array:
//   double build vs torch float64: 1e-12 for logits and loss, 1e-11 for gradients (the same
//     formulas; only summation order differs),
//     except sinusoidal: its table comes from the core's float32 kernel (≤ 2e-7 from the exact
//     sine), which moves logits and gradients by ~1e-8, so 1e-6 there.
//   float build vs torch float64: 1e-5 for logits and loss, 1e-4 for gradients (float32 sums over
//     a few hundred terms through two layers).
//   the update, torch's AdamW in the same precision on our gradients: 1e-6 absolute in float
//     (a parameter moves by ~lr = 3e-3, so this is ~3e-4 of the step), 1e-14 in double.
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

const TASKS = ['copy', 'retrieval'];
const PRECISIONS = ['double', 'float'];
const cases = TASKS.flatMap((task) => FAMILIES.flatMap((family) => PRECISIONS.map((precision) => ({ task, family, precision }))));
// Every dump through one python process (importing torch costs about a second each time).
const dumps = cases.map(({ task, family, precision }) => execFileSync(TRAINER,
  ['--family', family, '--task', task, ...CONFIG, '--dump-step', ...(precision === 'double' ? ['--double'] : [])], { maxBuffer: 1 << 26 }));
const compared = JSON.parse(execFileSync(PYTHON, [at('tests/train/torch_reference.py')], {
  input: `[${dumps.join(',')}]`, maxBuffer: 1 << 28,
}));
const compare = (family, task, precision) => compared[cases.findIndex((c) => c.family === family && c.task === task && c.precision === precision)];

for (const task of TASKS) {
  for (const family of FAMILIES) {
    test(`trainer ${family} on ${task}: logits, loss, gradients and the AdamW step equal PyTorch's (double and float)`, () => {
      for (const precision of PRECISIONS) {
        const r = compare(family, task, precision);
        assert.equal(r.family, family);
        assert.equal(r.precision, precision);
        const strict = precision === 'double';
        const tol = strict ? (family === 'sinusoidal' ? 1e-6 : 1e-12) : 1e-5;
        const what = `${family}/${task} ${precision}`;
        assert.ok(r.lossRel <= tol, `${what}: loss ${r.oursLoss} vs torch ${r.loss}`);
        assert.ok(r.logitsRel <= tol, `${what}: logits differ by ${r.logitsRel}`);
        assert.deepEqual(r.zeroGradients, [], `${what}: tensors without gradient`);
        assert.equal(Object.keys(r.gradRel).length, r.tensorCount, `${what}: every tensor compared`);
        for (const [name, rel] of Object.entries(r.gradRel)) {
          assert.ok(rel <= (strict ? tol * 10 : 1e-4), `${what}: gradient of ${name} differs by ${rel}`);
        }
        assert.ok(Math.abs(r.gradNorm - r.oursGradNorm) <= 1e-6 * r.gradNorm, `${what}: gradient norm`);
        assert.ok(r.learningRate > 0);
        assert.ok(r.updatedAbs <= (strict ? 1e-14 : 1e-6), `${what}: AdamW update differs by ${r.updatedAbs}`);
      }
    });
  }
}
