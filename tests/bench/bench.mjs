// Benchmark of the positional-encoding core: plain JS vs the scalar and SIMD wasm modules vs
// the native build vs NumPy, on four kernels. A report, never a test: it always exits 0 unless
// the bench itself cannot run (e.g. the wasm modules are missing).
//
//   node tests/bench/bench.mjs            (npm run bench builds first)
//   BENCH_ROUNDS=30 node tests/bench/bench.mjs   (timed rounds per implementation)
//   POSENC_BENCH_NATIVE=/path/to/posenc-bench-native node tests/bench/bench.mjs
//
// Method
//   * JS-side implementations (plain JS, wasm scalar, wasm SIMD) run in this process. Each
//     round times every kernel once per implementation, the implementation order rotating from
//     round to round, so machine noise hits all three alike; a full GC (untimed) runs before
//     every sample, so nobody pays for collecting another implementation's 16 MiB results.
//   * The native binary and the NumPy script are separate processes; they run in BLOCKS slices
//     between slices of the JS rounds, each slice with its own warm-up, and their samples are
//     pooled. All columns are medians of the same number of timed runs.
//   * The wasm columns time the public API as a JS caller pays for it: arguments copied into
//     wasm memory, validated, the kernel, and the result copied out into a new Float32Array.
//
// Kernels
//   sinusoidal  4096 positions x d_model 1024            pe.sinusoidal(4096, 1024)
//   rope        4096 x 128, half layout, positions 0..4095  pe.ropeApply(x, 4096, 128, {layout:'half'})
//   qk          Q K^T / sqrt(64), 1024 x 1024, d = 64     pe.attention(q, k, 64, {softmax:false})
//   softmax     row softmax of a 1024 x 1024 matrix B: pe.softmax(B, 1024) (B is copied in,
//               checked for NaN/+Infinity, and the result copied out).
//               Native: copy of B + kernels::softmaxRow (= softmaxRowScalar) per row.
//               NumPy / plain JS: softmax(B) into a new array.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';

import { loadPosenc } from '../../wasm/posenc.js';
import * as plain from './plain.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
// POSENC_BENCH_NATIVE: another build of the native bench binary (default: the one build.sh makes).
const NATIVE_BIN = process.env.POSENC_BENCH_NATIVE
  ? path.resolve(process.env.POSENC_BENCH_NATIVE)
  : path.join(root, 'build/native/posenc-bench-native');
const NUMPY_SCRIPT = path.join(here, 'numpy_bench.py');
const SYSTEM_PYTHON = '/usr/bin/python3';
const OUT_FILE = path.join(root, 'tests/out/bench.json');

const ROUNDS = Math.max(3, Number.parseInt(process.env.BENCH_ROUNDS ?? '', 10) || 61);
const BLOCKS = 3;           // slices of JS rounds, with a native and a NumPy run after each
const JS_WARMUP = 3;        // untimed rounds first (JIT tiers, wasm memory growth)
const CHILD_WARMUP = 2;     // untimed runs at the start of each child process

const SIZES = {
  sinusoidal: { positions: 4096, dModel: 1024 },
  rope: { rows: 4096, dim: 128 },
  qk: { rows: 1024, dim: 64 },
  softmax: { rows: 1024, cols: 1024 },
};
const KERNELS = ['sinusoidal', 'rope', 'qk', 'softmax'];
const KERNEL_LABEL = {
  sinusoidal: 'sinusoidal 4096×1024',
  rope: 'RoPE 4096×128 (half)',
  qk: 'Q·Kᵀ 1024×1024 d=64',
  softmax: 'softmax 1024×1024',
};
const IMPLS = ['plain', 'scalar', 'simd', 'native', 'numpy'];
const IMPL_LABEL = {
  plain: 'plain JS', scalar: 'wasm scalar', simd: 'wasm SIMD', native: 'native', numpy: 'NumPy',
};
// A full GC before every timed JS-side sample: otherwise the garbage of one implementation
// (16 MiB results) is collected during whichever implementation happens to allocate next.
// Measured here: the p25–p75 spread of the SIMD sinusoidal drops from ~9–17 ms to ~5.9–6.0 ms.
// The GC of a call's own result is then not in its time (it happens before the next sample).
let collectGarbage = null;
try {
  v8.setFlagsFromString('--expose-gc');
  collectGarbage = vm.runInNewContext('gc');
} catch {
  collectGarbage = null;
}

const TARGETS = { sinusoidalMs: 4, qkMs: 6, simdVsScalar: 3, sinusoidalMaxAbsError: 2e-6 };

// ---------------------------------------------------------------------------------------------
// Inputs (seeded, identical for every JS-side implementation)

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function uniform(n, lo, hi, seed) {
  const rnd = mulberry32(seed);
  const v = new Float32Array(n);
  for (let i = 0; i < n; i++) v[i] = lo + (hi - lo) * rnd();
  return v;
}

const { rows: ropeRows, dim: ropeDim } = SIZES.rope;
const { rows: qkRows, dim: qkDim } = SIZES.qk;
const { rows: smRows, cols: smCols } = SIZES.softmax;
const ropeX = uniform(ropeRows * ropeDim, -1, 1, 1);
const qkQ = uniform(qkRows * qkDim, -1, 1, 2);
const qkK = uniform(qkRows * qkDim, -1, 1, 3);
const smScores = uniform(smRows * smCols, -8, 8, 4);
const qkScale = 1 / Math.sqrt(qkDim);

// ---------------------------------------------------------------------------------------------
// The JS-side implementations: impl -> kernel -> () => Float32Array

function wasmKernels(pe) {
  return {
    sinusoidal: () => pe.sinusoidal(SIZES.sinusoidal.positions, SIZES.sinusoidal.dModel),
    rope: () => pe.ropeApply(ropeX, ropeRows, ropeDim, { layout: 'half' }),
    qk: () => pe.attention(qkQ, qkK, qkDim, { softmax: false }),
    softmax: () => pe.softmax(smScores, smCols),
  };
}

const plainKernels = {
  sinusoidal: () => plain.sinusoidal(SIZES.sinusoidal.positions, SIZES.sinusoidal.dModel),
  rope: () => plain.ropeApplyHalf(ropeX, ropeRows, ropeDim),
  qk: () => plain.qk(qkQ, qkRows, qkK, qkRows, qkDim, qkScale),
  softmax: () => plain.softmaxRows(smScores, smRows, smCols),
};

// ---------------------------------------------------------------------------------------------
// Float64 references and error measures

function sinusoidalRef(positions, dModel, base = 10000) {
  const half = Math.ceil(dModel / 2);
  const step = -Math.log(base) / dModel;
  const freq = new Float64Array(half);
  for (let i = 0; i < half; i++) freq[i] = Math.exp(2 * i * step);
  const out = new Float64Array(positions * dModel);
  for (let p = 0; p < positions; p++) {
    for (let c = 0; c < dModel; c++) {
      const a = p * freq[c >> 1];
      out[p * dModel + c] = c & 1 ? Math.cos(a) : Math.sin(a);
    }
  }
  return out;
}

function ropeRef(x, rows, dim, base = 10000) {
  const n = dim / 2;
  const out = new Float64Array(rows * dim);
  for (let r = 0; r < rows; r++) {
    for (let i = 0; i < n; i++) {
      const a = r / Math.pow(base, (2 * i) / dim);
      const c = Math.cos(a), s = Math.sin(a);
      const av = x[r * dim + i], bv = x[r * dim + i + n];
      out[r * dim + i] = av * c - bv * s;
      out[r * dim + i + n] = bv * c + av * s;
    }
  }
  return out;
}

function qkRef(q, k, rows, d, scale) {
  const out = new Float64Array(rows * rows);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < rows; j++) {
      let s = 0;
      for (let t = 0; t < d; t++) s += q[i * d + t] * k[j * d + t];
      out[i * rows + j] = s * scale;
    }
  }
  return out;
}

// Softmax in float64 of each row of `input(i)` (the values a kernel actually receives).
function softmaxRef(rows, cols, input) {
  const out = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    let m = -Infinity;
    for (let j = 0; j < cols; j++) m = Math.max(m, input(r * cols + j));
    let sum = 0;
    for (let j = 0; j < cols; j++) sum += (out[r * cols + j] = Math.exp(input(r * cols + j) - m));
    for (let j = 0; j < cols; j++) out[r * cols + j] /= sum;
  }
  return out;
}

function maxAbsError(got, ref) {
  if (got.length !== ref.length) return NaN;
  let e = 0;
  for (let i = 0; i < ref.length; i++) {
    const d = Math.abs(got[i] - ref[i]);
    if (!(d <= e)) e = d;  // NaN propagates
  }
  return e;
}

function maxRelError(got, ref) {
  if (got.length !== ref.length) return NaN;
  let e = 0;
  for (let i = 0; i < ref.length; i++) {
    const d = Math.abs(got[i] - ref[i]) / Math.max(Math.abs(ref[i]), 1e-30);
    if (!(d <= e)) e = d;
  }
  return e;
}

// ---------------------------------------------------------------------------------------------
// Child processes

// One thread, like every other column: OpenBLAS (installed for the training bench, and then the
// system's BLAS) would otherwise run NumPy's matmul on every core.
function childEnvForNumpy() {
  const env = { ...process.env, OPENBLAS_NUM_THREADS: '1', OMP_NUM_THREADS: '1' };
  delete env.OPENBLAS_CORETYPE;
  delete env.OPENBLAS_L2_SIZE;
  return env;
}

function numpyAvailable() {
  if (!existsSync(SYSTEM_PYTHON)) return `${SYSTEM_PYTHON} not found`;
  const r = spawnSync(SYSTEM_PYTHON, ['-c', 'import numpy'], { env: childEnvForNumpy(), encoding: 'utf8' });
  return r.status === 0 ? null : `${SYSTEM_PYTHON} has no numpy (${(r.stderr || r.error?.message || '').trim().split('\n').pop()})`;
}

function runChild(cmd, args, env) {
  const r = spawnSync(cmd, args, { env, encoding: 'utf8', timeout: 120_000, maxBuffer: 1 << 24 });
  if (r.error) return { error: r.error.message };
  if (r.status !== 0) return { error: `exit ${r.status}: ${(r.stderr || '').trim().slice(-400)}` };
  try {
    return { json: JSON.parse(r.stdout.trim().split('\n').pop()) };
  } catch (e) {
    return { error: `unparsable output: ${e.message}` };
  }
}

// ---------------------------------------------------------------------------------------------
// Statistics and formatting

function median(v) {
  if (!v.length) return NaN;
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : 0.5 * (s[m - 1] + s[m]);
}

function quantile(v, q) {
  if (!v.length) return NaN;
  const s = [...v].sort((a, b) => a - b);
  const x = q * (s.length - 1);
  const lo = Math.floor(x), hi = Math.ceil(x);
  return s[lo] + (s[hi] - s[lo]) * (x - lo);
}

const fmtMs = (v) => (Number.isFinite(v) ? (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)) : '—');
const fmtX = (v) => (Number.isFinite(v) ? `${v >= 10 ? v.toFixed(1) : v.toFixed(2)}×` : '—');
const fmtE = (v) => (Number.isFinite(v) ? v.toExponential(2) : String(v));

function table(headers, rows, alignRight) {
  const width = headers.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const line = (cells) => '| ' + cells.map((x, c) => (alignRight[c] ? x.padStart(width[c]) : x.padEnd(width[c]))).join(' | ') + ' |';
  const sep = '|' + width.map((w, c) => (alignRight[c] ? '-'.repeat(w + 1) + ':' : ':' + '-'.repeat(w + 1))).join('|') + '|';
  return [line(headers), sep, ...rows.map(line)].join('\n');
}

// One timed call. The result lives only inside this frame, so the GC before the next sample can
// free it (a result held in the caller's loop variable survived the GC and changed the timings).
let sink = 0;
function timeOnce(f) {
  collectGarbage?.();
  const t0 = performance.now();
  const out = f();
  const t1 = performance.now();
  sink += out[out.length - 1];
  return t1 - t0;
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const started = performance.now();
  let scalarPe, simdPe;
  try {
    scalarPe = await loadPosenc({ simd: false });
    simdPe = await loadPosenc({ simd: true });
  } catch (e) {
    console.error(`cannot load the wasm modules (run \`bash wasm/tools/build.sh\` first): ${e.message}`);
    process.exit(1);
  }
  const jsImpls = { plain: plainKernels, scalar: wasmKernels(scalarPe), simd: wasmKernels(simdPe) };
  const order = ['plain', 'scalar', 'simd'];

  const notes = [];
  const unavailable = {};
  if (!existsSync(NATIVE_BIN)) unavailable.native = `${path.relative(root, NATIVE_BIN)} not built (bash wasm/tools/build.sh --tests)`;
  const npMissing = numpyAvailable();
  if (npMissing) unavailable.numpy = npMissing;

  console.log(`posenc bench: ${ROUNDS} timed rounds (medians), ${JS_WARMUP} warm-up rounds, ` +
    `native/NumPy in ${BLOCKS} interleaved slices; node ${process.version}, ${os.cpus()[0]?.model ?? '?'} ×${os.cpus().length}`);
  for (const [k, why] of Object.entries(unavailable)) console.log(`  ${IMPL_LABEL[k]}: unavailable — ${why}`);

  // Samples: impl -> kernel -> [ms]
  const samples = Object.fromEntries(IMPLS.map((i) => [i, Object.fromEntries(KERNELS.map((k) => [k, []]))]));
  const childInfo = {};

  for (let w = 0; w < JS_WARMUP; w++) {
    for (const k of KERNELS) for (const impl of order) sink += jsImpls[impl][k]()[7];
  }

  const perBlock = [];
  for (let b = 0; b < BLOCKS; b++) perBlock.push(Math.floor(ROUNDS / BLOCKS) + (b < ROUNDS % BLOCKS ? 1 : 0));
  let round = 0;
  for (let b = 0; b < BLOCKS; b++) {
    for (let r = 0; r < perBlock[b]; r++, round++) {
      const rot = order.map((_, i) => order[(i + round) % order.length]);
      for (const k of KERNELS) {
        for (const impl of rot) {
          samples[impl][k].push(timeOnce(jsImpls[impl][k]));
        }
      }
    }
    // The child processes run between JS slices, in alternating order.
    const children = b % 2 ? ['numpy', 'native'] : ['native', 'numpy'];
    for (const c of children) {
      if (unavailable[c]) continue;
      const args = ['--runs', String(perBlock[b]), '--warmup', String(CHILD_WARMUP)];
      const res = c === 'native'
        ? runChild(NATIVE_BIN, args, process.env)
        : runChild(SYSTEM_PYTHON, [NUMPY_SCRIPT, ...args], childEnvForNumpy());
      if (res.error) {
        unavailable[c] = res.error;
        console.log(`  ${IMPL_LABEL[c]}: failed — ${res.error}`);
        continue;
      }
      const { kernels, runs: _runs, ...info } = res.json;  // runs: per slice, see config
      childInfo[c] = info;
      for (const k of KERNELS) samples[c][k].push(...(kernels[k]?.samples_ms ?? []));
    }
  }
  const benchSeconds = (performance.now() - started) / 1000;

  // ---- accuracy (untimed)
  const accuracy = {};
  {
    const { positions, dModel } = SIZES.sinusoidal;
    const ref = sinusoidalRef(positions, dModel);
    accuracy.sinusoidal = {
      measure: 'max abs error vs float64 JS reference (Math.sin/Math.cos of p * exp(2i * -ln(10000)/d))',
      simd: maxAbsError(jsImpls.simd.sinusoidal(), ref),
      scalar: maxAbsError(jsImpls.scalar.sinusoidal(), ref),
      plain: maxAbsError(jsImpls.plain.sinusoidal(), ref),
    };
  }
  {
    const ref = qkRef(qkQ, qkK, qkRows, qkDim, qkScale);
    let maxRef = 0;
    for (const v of ref) maxRef = Math.max(maxRef, Math.abs(v));
    accuracy.qk = {
      measure: `max abs error vs float64 Q·Kᵀ/sqrt(d) on the same float32 inputs (max |score| ${maxRef.toFixed(3)})`,
      simd: maxAbsError(jsImpls.simd.qk(), ref),
      scalar: maxAbsError(jsImpls.scalar.qk(), ref),
      plain: maxAbsError(jsImpls.plain.qk(), ref),
    };
  }
  {
    const ref = ropeRef(ropeX, ropeRows, ropeDim);
    accuracy.rope = {
      measure: 'max abs error vs float64 rotation of the same float32 x (|x| < 1)',
      simd: maxAbsError(jsImpls.simd.rope(), ref),
      scalar: maxAbsError(jsImpls.scalar.rope(), ref),
      plain: maxAbsError(jsImpls.plain.rope(), ref),
    };
  }
  {
    // The wasm kernels see fround(1 + B); plain JS sees B. Each is checked against the float64
    // softmax of what it received, so the number is the kernel's own error.
    const refWasm = softmaxRef(smRows, smCols, (i) => smScores[i]);
    const refPlain = softmaxRef(smRows, smCols, (i) => smScores[i]);
    accuracy.softmax = {
      measure: 'max relative error of a weight vs float64 softmax of the kernel\'s input',
      simd: maxRelError(jsImpls.simd.softmax(), refWasm),
      scalar: maxRelError(jsImpls.scalar.softmax(), refWasm),
      plain: maxRelError(jsImpls.plain.softmax(), refPlain),
    };
  }

  // ---- summary
  const results = {};
  for (const k of KERNELS) {
    results[k] = {};
    for (const impl of IMPLS) {
      const s = samples[impl][k];
      results[k][impl] = s.length
        ? { median_ms: median(s), p25_ms: quantile(s, 0.25), p75_ms: quantile(s, 0.75), min_ms: Math.min(...s), runs: s.length, samples_ms: s }
        : { median_ms: null, unavailable: unavailable[impl] ?? 'no samples' };
    }
    const m = (impl) => results[k][impl].median_ms ?? NaN;
    results[k].ratios = {
      simd_vs_scalar: m('scalar') / m('simd'),
      simd_vs_plain: m('plain') / m('simd'),
      simd_vs_numpy: m('numpy') / m('simd'),
      simd_vs_native: m('native') / m('simd'),
    };
  }

  const rows = KERNELS.map((k) => {
    const m = (impl) => results[k][impl].median_ms ?? NaN;
    const r = results[k].ratios;
    return [KERNEL_LABEL[k], ...IMPLS.map((impl) => fmtMs(m(impl))), fmtX(r.simd_vs_scalar), fmtX(r.simd_vs_plain), fmtX(r.simd_vs_numpy)];
  });
  console.log('\nMedians in ms (lower is better); ratios are speed-ups of wasm SIMD (other time / SIMD time):\n');
  console.log(table(
    ['kernel', ...IMPLS.map((i) => IMPL_LABEL[i]), 'SIMD vs scalar', 'SIMD vs plain JS', 'SIMD vs NumPy'],
    rows,
    [false, true, true, true, true, true, true, true, true],
  ));

  console.log('\nSpread (p25–p75 ms):');
  for (const k of KERNELS) {
    const parts = IMPLS.filter((i) => results[k][i].median_ms != null)
      .map((i) => `${IMPL_LABEL[i]} ${fmtMs(results[k][i].p25_ms)}–${fmtMs(results[k][i].p75_ms)}`);
    console.log(`  ${KERNEL_LABEL[k].padEnd(22)} ${parts.join(', ')}`);
  }

  console.log('\nAccuracy:');
  for (const k of ['sinusoidal', 'qk', 'rope', 'softmax']) {
    const a = accuracy[k];
    console.log(`  ${KERNEL_LABEL[k].padEnd(22)} SIMD ${fmtE(a.simd)}, scalar ${fmtE(a.scalar)}, plain JS ${fmtE(a.plain)}  (${a.measure})`);
  }

  // ---- targets
  const simdMs = (k) => results[k].simd.median_ms;
  const targets = [];
  const target = (name, met, detail) => targets.push({ name, met, detail });
  target(`sinusoidal 4096×1024 ≤ ${TARGETS.sinusoidalMs} ms (wasm SIMD)`, simdMs('sinusoidal') <= TARGETS.sinusoidalMs,
    `${fmtMs(simdMs('sinusoidal'))} ms`);
  target(`Q·Kᵀ 1024×1024 d=64 ≤ ${TARGETS.qkMs} ms (wasm SIMD)`, simdMs('qk') <= TARGETS.qkMs, `${fmtMs(simdMs('qk'))} ms`);
  for (const k of KERNELS) {
    const r = results[k].ratios.simd_vs_scalar;
    target(`SIMD ≥ ${TARGETS.simdVsScalar}× scalar: ${KERNEL_LABEL[k]}`, r >= TARGETS.simdVsScalar, fmtX(r));
  }
  for (const k of KERNELS) {
    const r = results[k].ratios.simd_vs_numpy;
    target(`SIMD faster than NumPy: ${KERNEL_LABEL[k]}`, Number.isFinite(r) ? r > 1 : null,
      Number.isFinite(r) ? `${fmtX(r)} (NumPy ${fmtMs(results[k].numpy.median_ms)} ms)` : `NumPy ${unavailable.numpy ?? 'unavailable'}`);
  }
  for (const impl of ['simd', 'scalar']) {
    const e = accuracy.sinusoidal[impl];
    target(`sinusoidal max abs error ≤ ${TARGETS.sinusoidalMaxAbsError.toExponential(0)} (wasm ${impl === 'simd' ? 'SIMD' : 'scalar'})`,
      e <= TARGETS.sinusoidalMaxAbsError, fmtE(e));
  }
  console.log('\nTargets:');
  for (const t of targets) console.log(`  [${t.met === null ? 'n/a ' : t.met ? 'met ' : 'MISS'}] ${t.name}: ${t.detail}`);
  const met = targets.filter((t) => t.met).length;
  const judged = targets.filter((t) => t.met !== null).length;
  console.log(`  ${met} of ${judged} targets met.`);

  notes.push(
    collectGarbage
      ? 'JS side: a full GC (untimed) before every sample, so no implementation pays for collecting another\'s garbage; allocation of the result is timed, its later collection is not.'
      : 'JS side: could not expose gc(); samples include whatever GC happens to run.',
    'wasm columns time the public API as called from JS: inputs copied into wasm memory and validated, kernel, result copied out into a new Float32Array.',
    'softmax (wasm): pe.softmax(B, 1024): copies B (4 MiB) into wasm memory, checks it for NaN/+Infinity, runs the row kernel and copies the result out. Native: memcpy of B + kernels::softmaxRow (the scalar body natively); NumPy/plain JS: softmax(B) into a new array.',
    'rope: every implementation computes its frequencies and the per-row sin/cos (float64 angles) inside the timed call and returns a new array.',
    'native: the core\'s scalar kernels, g++ Release (-O3), no -march flags, called with preallocated output buffers; separate process, its samples pooled over the interleaved slices.',
    'NumPy: Debian python3-numpy via /usr/bin/python3, one thread (OPENBLAS_NUM_THREADS=1; OPENBLAS_CORETYPE/OPENBLAS_L2_SIZE unset for it); matmul goes through the system BLAS named in numpy_info.blas.',
  );
  if (childInfo.numpy) {
    const n = childInfo.numpy;
    notes.push(`NumPy ${n.numpy} on Python ${n.python}, BLAS ${n.blas ?? 'unknown'}.`);
  }
  console.log('\nNotes:');
  for (const n of notes) console.log(`  - ${n}`);
  console.log(`\nBench took ${benchSeconds.toFixed(1)} s (checksum ${Number.isFinite(sink) ? 'ok' : sink}).`);

  const report = {
    date: new Date().toISOString(),
    environment: {
      node: process.version, platform: `${os.platform()} ${os.arch()}`, cpu: os.cpus()[0]?.model ?? null,
      cpus: os.cpus().length,
    },
    config: { rounds: ROUNDS, gcBeforeEachSample: !!collectGarbage, jsWarmupRounds: JS_WARMUP, blocks: BLOCKS, childWarmupPerBlock: CHILD_WARMUP, sizes: SIZES },
    native_info: childInfo.native ?? null,
    numpy_info: childInfo.numpy ?? null,
    unavailable,
    results,
    accuracy,
    targets,
    notes,
    bench_seconds: benchSeconds,
  };
  mkdirSync(path.dirname(OUT_FILE), { recursive: true });
  writeFileSync(OUT_FILE, JSON.stringify(report, (k, v) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 1) + '\n');
  console.log(`Results written to ${path.relative(process.cwd(), OUT_FILE) || OUT_FILE}`);
}

main().catch((e) => {
  console.error(e?.stack ?? e);
  process.exit(1);
});
