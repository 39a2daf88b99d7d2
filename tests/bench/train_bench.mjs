// Training throughput, side by side (npm run bench runs it after the kernel bench): the same
// model ('tiny' preset, RoPE, the repeat task) on the same batches, in tokens read per second:
// the trainer module with WebAssembly SIMD and scalar (in this Node process), the native trainer
// (g++ -O3), and PyTorch on one CPU thread (Debian's python3-torch, with Debian's reference
// BLAS and with OpenBLAS). Then the trainer's matrix product in WebAssembly: the project's SIMD
// kernel against Eigen's product on the model's shapes. A report, never a test.
//
//   node tests/bench/train_bench.mjs      TRAIN_BENCH_STEPS=200 TRAIN_BENCH_ROUNDS=5 to change it
//
// Every implementation times steps 5..N-1 of the same run (steps 0-4 warm up); the rounds
// rotate the order so machine noise hits all alike; the table shows medians over rounds.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

import { loadModule } from '../../wasm/loader.js';
import { loadTrainer } from '../../wasm/posenc.js';

const at = (p) => fileURLToPath(new URL(`../../${p}`, import.meta.url));
const TRAINER = at('build/native/posenc-train');
const PYTHON = '/usr/bin/python3';
const BLAS = {
  reference: '/usr/lib/x86_64-linux-gnu/blas',
  openblas: '/usr/lib/x86_64-linux-gnu/openblas-pthread',
};
const STEPS = Number(process.env.TRAIN_BENCH_STEPS) || 105;
const ROUNDS = Number(process.env.TRAIN_BENCH_ROUNDS) || 3;
const WARMUP = 5;
const CONFIG = { task: 'repeat', family: 'rope', steps: STEPS };
const OUT = at('tests/out/train-bench.json');

const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const args = Object.entries(CONFIG).flatMap(([k, v]) => [`--${k}`, String(v)]);

async function main() {
  const trainers = { simd: await loadTrainer({ simd: true }), scalar: await loadTrainer({ simd: false }) };
  const batches = JSON.parse(execFileSync(TRAINER, [...args, '--dump-batches', String(STEPS)], { maxBuffer: 1 << 28 }));
  const tokens = batches.batches.slice(WARMUP).reduce((s, b) => s + b.tokens.length, 0);
  const defaults = trainers.simd.preset('tiny');

  const impls = {
    'wasm SIMD': () => wasmTokensPerSecond(trainers.simd),
    'wasm scalar': () => wasmTokensPerSecond(trainers.scalar),
    native: () => JSON.parse(execFileSync(TRAINER, [...args, '--bench'])).tokensPerSecond,
  };
  const torchInfo = {};
  for (const [name, dir] of Object.entries(BLAS)) {
    if (!existsSync(`${dir}/libblas.so.3`)) continue;
    impls[`PyTorch (${name} BLAS)`] = () => {
      const out = JSON.parse(execFileSync(PYTHON, [at('tests/bench/torch_train_bench.py')], {
        input: JSON.stringify(batches), maxBuffer: 1 << 28,
        env: { ...process.env, LD_LIBRARY_PATH: dir, OPENBLAS_NUM_THREADS: '1', OMP_NUM_THREADS: '1' },
      }));
      torchInfo[name] = out;
      return out.tokensPerSecond;
    };
  }
  function wasmTokensPerSecond(tr) {
    const run = tr.createRun(CONFIG);
    run.step(WARMUP);
    const start = performance.now();
    run.step(STEPS);
    const seconds = (performance.now() - start) / 1000;
    run.dispose();
    return tokens / seconds;
  }

  const names = Object.keys(impls);
  const samples = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + r) % names.length];
      samples[name].push(impls[name]());
    }
  }
  const result = Object.fromEntries(names.map((n) => [n, median(samples[n])]));
  const simd = result['wasm SIMD'];
  console.log(`\nTraining throughput: ${CONFIG.family}, ${CONFIG.task}, the 'tiny' model (d ${defaults.dModel}, ${defaults.layers} layers, ` +
    `${defaults.heads} heads, MLP ${defaults.mlp}, batch ${defaults.batch}), steps ${WARMUP}..${STEPS - 1} (${tokens} tokens), ` +
    `median of ${ROUNDS} rounds:\n`);
  console.log('| implementation | tokens/s | ms/step | wasm SIMD is |');
  console.log('|---|---:|---:|---:|');
  for (const n of names) {
    const msPerStep = (1000 * tokens) / result[n] / (STEPS - WARMUP);
    console.log(`| ${n} | ${Math.round(result[n])} | ${msPerStep.toFixed(2)} | ${n === 'wasm SIMD' ? '—' : `${(simd / result[n]).toFixed(2)}×`} |`);
  }
  const perStep = (1000 * tokens) / simd / (STEPS - WARMUP);
  const defaultRun = (perStep * defaults.steps) / 1000;
  console.log(`\nA default run (${defaults.steps} steps) at this rate: ${defaultRun.toFixed(1)} s of training in wasm SIMD (one core), plus scoring.`);
  for (const [name, t] of Object.entries(torchInfo)) {
    console.log(`PyTorch ${t.torch}, ${t.threads} thread, ${name} BLAS; its loss on batch 0 ${t.firstLoss.toFixed(6)} vs the parity transcription ${t.referenceLoss.toFixed(6)}.`);
  }

  // The product: SIMD kernel vs Eigen inside the SIMD module, on the shapes of a step.
  const { module } = await loadModule('posenc-train', new URL('../../wasm/dist/', import.meta.url), { simd: true });
  const rows = Math.round(tokens / (STEPS - WARMUP));
  const d = defaults.dModel;
  const shapes = [
    [`qkv: ${rows}×${d} · ${d}×${3 * d}`, rows, 3 * d, d],
    [`MLP up: ${rows}×${d} · ${d}×${defaults.mlp}`, rows, defaults.mlp, d],
    [`MLP down: ${rows}×${defaults.mlp} · ${defaults.mlp}×${d}`, rows, d, defaults.mlp],
    [`scores: 18×${d / defaults.heads} · ${d / defaults.heads}×18`, 18, 18, d / defaults.heads],
  ];
  console.log('\nThe trainer\'s product in WebAssembly (best of 7, ms per product):\n');
  console.log('| shape | SIMD kernel | Eigen | SIMD is |');
  console.log('|---|---:|---:|---:|');
  const products = [];
  for (const [label, m, n, k] of shapes) {
    const s = module.gemmBench(m, n, k, 'simd', 7);
    const e = module.gemmBench(m, n, k, 'eigen', 7);
    products.push({ label, simd: s, eigen: e });
    console.log(`| ${label} | ${s.toFixed(4)} | ${e.toFixed(4)} | ${(e / s).toFixed(2)}× |`);
  }
  const goals = [
    ['wasm SIMD ≥ 2× PyTorch one thread (every BLAS)', Object.keys(torchInfo).every((b) => simd >= 2 * result[`PyTorch (${b} BLAS)`])],
    ['wasm SIMD ≥ 2× the scalar build', simd >= 2 * result['wasm scalar']],
  ];
  console.log('\nGoals:');
  for (const [g, met] of goals) console.log(`  [${met ? 'met ' : 'MISS'}] ${g}`);
  mkdirSync(at('tests/out'), { recursive: true });
  writeFileSync(OUT, `${JSON.stringify({ date: new Date().toISOString(), cpu: os.cpus()[0]?.model, config: CONFIG, tokens, samples, result, torchInfo, products, goals }, null, 1)}\n`);
}

await main();
