// The package a course author installs: `npm pack` (its prepack builds the modules) gives a
// tarball with exactly the JS API, its types, the README, docs/api.md and the core's and the trainer's built
// modules; installed offline into a fresh project (so it can have no dependencies), it works
// (1) imported by name in Node and (2) bundled by esbuild into a page that loads its modules from
// a folder it names with `baseUrl`, in headless Chromium. Values are checked against the
// float64 reference formulas in reference.js, not against the repository's own modules.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import * as esbuild from 'esbuild';

import { startBrowser } from './browser.js';
import { assertAllClose, assertClose, TOL } from '../js/helpers.js';
import * as ref from '../js/reference.js';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../..', import.meta.url));

// What the package must hold, and nothing else (no tests, web/, build/, core sources, or the
// Lab's posenc-lab.* that shares wasm/dist/).
const MODULES = ['posenc', 'posenc-train'].flatMap((stem) =>
  ['simd', 'scalar'].flatMap((v) => [`wasm/dist/${stem}-${v}.mjs`, `wasm/dist/${stem}-${v}.wasm`]));
const EXPECTED_FILES = [
  'LICENSE', 'README.md', 'docs/api.md', 'package.json', 'wasm/families.gen.js', 'wasm/loader.js', 'wasm/posenc.d.ts', 'wasm/posenc.js', 'wasm/schema.js', 'wasm/train.js',
  'wasm/model.js', 'wasm/model/families.js', 'wasm/model/fields.js', 'wasm/model/rope.js',
  ...MODULES,
].sort();

// A trainer run small enough for a test: 5 steps of a one-layer model of width 16.
const TRAIN = { task: 'copy', trainLengths: [1, 2, 3, 4], dModel: 16, heads: 2, layers: 1, mlp: 32,
  batch: 8, steps: 5, warmup: 2, learningRate: 3e-3, testExamples: 4, seed: 3 };
const YARN = { base: 10000, scaling: { type: 'yarn', factor: 16, originalMaxPositions: 4096 } };

// The learning rate of step s (0-based) as docs/trainer.md states the schedule: linear warm-up to
// the peak, then cosine decay to a tenth of it.
function learningRate(s, { steps, warmup, learningRate: peak }) {
  if (s < warmup) return (peak * (s + 1)) / warmup;
  const low = 0.1 * peak;
  return low + 0.5 * (peak - low) * (1 + Math.cos((Math.PI * (s - warmup)) / (steps - warmup)));
}

// npm run from the test must not take the caller's npm settings (under `npm test` the parent npm
// exports its config as npm_config_*, e.g. a dry run or a registry) for the package's.
const npmEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
const npm = (args, cwd) => run('npm', args, { cwd, env: npmEnv, maxBuffer: 1 << 26 });

let tmp;
let packed;      // npm pack --json's entry for the tarball
let project;     // the fresh course project the tarball is installed into
let installed;   // node_modules/posenc-explainer inside it

before(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'posenc-package-'));
  const { stdout } = await npm(['pack', '--json', '--pack-destination', tmp], REPO);
  [packed] = JSON.parse(stdout);
  project = join(tmp, 'course');
  await mkdir(project);
  await writeFile(join(project, 'package.json'),
    JSON.stringify({ name: 'course', version: '1.0.0', private: true, type: 'module' }, null, 2));
  // An empty cache and --offline: any dependency the package declared would fail to install.
  await npm(['install', '--offline', '--no-audit', '--no-fund', '--cache', join(tmp, 'npm-cache'),
    join(tmp, packed.filename)], project);
  installed = join(project, 'node_modules', 'posenc-explainer');
});

after(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('npm pack', () => {
  test('the tarball holds exactly the JS API, its types, the README and both builds of the core and the trainer', (t) => {
    assert.deepEqual(packed.files.map((f) => f.path).sort(), EXPECTED_FILES);
    for (const f of packed.files) assert.ok(f.size > 0, `${f.path} is empty`);
    t.diagnostic(`${packed.filename}: ${packed.size} bytes packed, ${packed.unpackedSize} unpacked`);
  });

  test('the installed package is public, has no runtime dependencies and exports wasm/posenc.js with its types', async () => {
    const pkg = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8'));
    assert.notEqual(pkg.private, true);
    assert.equal(pkg.dependencies, undefined);
    assert.equal(pkg.peerDependencies, undefined);
    assert.deepEqual(pkg.exports, { '.': { types: './wasm/posenc.d.ts', default: './wasm/posenc.js' } });
    const wasm = await readFile(join(installed, 'wasm/dist/posenc-simd.wasm'));
    assert.deepEqual([...wasm.subarray(0, 4)], [0, 0x61, 0x73, 0x6d]);  // "\0asm"
  });
});

describe('imported by name in Node from the course project', () => {
  let out;
  before(async () => {
    // The script lives in the course project, so 'posenc-explainer' resolves through its
    // node_modules and the package's exports, as an author's code would.
    const script = `
      import { loadPosenc, loadTrainer } from 'posenc-explainer';
      const out = { resolved: import.meta.resolve('posenc-explainer'), builds: [] };
      for (const simd of [true, false]) {
        const pe = await loadPosenc({ simd });
        const tr = await loadTrainer({ simd });
        const result = await tr.train(${JSON.stringify(TRAIN)});
        out.builds.push({
          simd: pe.simd, trainerSimd: tr.simd,
          sinusoidal: Array.from(pe.sinusoidal(50, 20)),
          invFreq: Array.from(pe.ropeFrequencies(128).invFreq),
          yarn: pe.ropeFrequencies(128, ${JSON.stringify(YARN)}).attentionFactor,
          alibi6: Array.from(pe.alibiSlopes(6)), alibi8: Array.from(pe.alibiSlopes(8)),
          train: { status: result.status, steps: result.steps, loss: Array.from(result.log.loss),
            learningRate: Array.from(result.log.learningRate),
            lengths: result.accuracy.map((a) => a.length), vocab: tr.vocabulary(${JSON.stringify(TRAIN)}).size },
        });
      }
      console.log(JSON.stringify(out));`;
    await writeFile(join(project, 'check.mjs'), script);
    const { stdout } = await run(process.execPath, ['check.mjs'], { cwd: project, maxBuffer: 1 << 26 });
    out = JSON.parse(stdout);
  });

  test('the name resolves to the installed copy, not the repository', () => {
    assert.equal(out.resolved, `file://${join(installed, 'wasm/posenc.js')}`);
  });

  test('both builds give the reference sinusoidal table, RoPE frequencies, YaRN factor and ALiBi slopes', () => {
    assert.deepEqual(out.builds.map((b) => [b.simd, b.trainerSimd]), [[true, true], [false, false]]);
    for (const b of out.builds) {
      const name = b.simd ? 'SIMD' : 'scalar';
      assertAllClose(b.sinusoidal, ref.sinusoidal(50, 20), TOL.f32, `${name} sinusoidal(50, 20)`);
      assertAllClose(b.invFreq, ref.ropeFrequencies(128).invFreq, TOL.f64, `${name} ropeFrequencies(128)`);
      assertClose(b.yarn, 0.1 * Math.log(16) + 1, TOL.f64, `${name} YaRN x16 attention factor`);
      assertAllClose(b.alibi6, [1 / 4, 1 / 16, 1 / 64, 1 / 256, 1 / 2, 1 / 8], TOL.alibi, `${name} alibiSlopes(6)`);
      assertAllClose(b.alibi8, ref.alibiSlopes(8), TOL.alibi, `${name} alibiSlopes(8)`);
    }
  });

  test('loadTrainer() trains 5 steps: near-uniform first loss, the documented schedule, scored up to 4x the longest length', () => {
    for (const { simd, train } of out.builds) {
      const name = simd ? 'SIMD' : 'scalar';
      assert.equal(train.status, 'done', name);
      assert.equal(train.steps, 5, name);
      assert.equal(train.loss.length, 5, name);
      assert.ok(train.loss.every(Number.isFinite), `${name}: losses ${train.loss}`);
      // An untrained model predicts nearly uniformly over the vocabulary: loss ~ ln |V|.
      assert.ok(Math.abs(train.loss[0] - Math.log(train.vocab)) < 0.1,
        `${name}: first loss ${train.loss[0]}, ln ${train.vocab} = ${Math.log(train.vocab)}`);
      assertAllClose(train.learningRate, [0, 1, 2, 3, 4].map((s) => learningRate(s, TRAIN)), TOL.f32Round,
        `${name} learning rates`);
      assert.deepEqual(train.lengths, Array.from({ length: 16 }, (_, i) => i + 1), name);
    }
    // The two builds may sum in other orders; docs/trainer.md promises agreement within 1e-5.
    assertAllClose(out.builds[0].train.loss, out.builds[1].train.loss, { abs: 0, rel: 1e-5 }, 'SIMD vs scalar losses');
  });
});

describe('bundled by esbuild into a page, in headless Chromium', () => {
  let browser;
  let page;
  let result;
  const requests = [];
  const failures = [];

  before(async () => {
    // The author's page: its own code imports the package by name; the built modules are copied
    // from the installed package to a folder the page names with baseUrl (a bundle cannot find
    // them beside itself: import.meta.url is the bundle's URL).
    const site = join(tmp, 'site');
    await mkdir(site);
    await cp(join(installed, 'wasm/dist'), join(site, 'posenc'), { recursive: true });
    await writeFile(join(project, 'page.js'), `
      import { loadPosenc, loadTrainer } from 'posenc-explainer';
      const baseUrl = new URL('./posenc/', document.baseURI);
      const out = document.getElementById('out');
      try {
        const builds = [];
        for (const simd of [true, false]) {
          const pe = await loadPosenc({ simd, baseUrl });
          builds.push({ simd: pe.simd, pe104: pe.sinusoidal(50, 20)[10 * 20 + 4],
            alibi6: Array.from(pe.alibiSlopes(6)) });
        }
        const tr = await loadTrainer({ baseUrl });
        const trained = await tr.train(${JSON.stringify({ ...TRAIN, steps: 2, warmup: 1 })});
        out.textContent = JSON.stringify({ builds, trainer: { simd: tr.simd, steps: trained.steps,
          loss0: trained.log.loss[0], vocab: tr.vocabulary(${JSON.stringify(TRAIN)}).size } });
        out.dataset.state = 'done';
      } catch (e) {
        out.textContent = String(e?.stack ?? e);
        out.dataset.state = 'error';
      }`);
    const built = await esbuild.build({
      absWorkingDir: project, entryPoints: ['page.js'], bundle: true, format: 'esm',
      outfile: join(site, 'page.bundle.js'), logLevel: 'silent',
    });
    assert.deepEqual(built.warnings, [], 'esbuild warns on the package');
    await writeFile(join(site, 'index.html'),
      // (the empty icon keeps Chromium from asking for /favicon.ico, a 404 in page.errors)
      '<!doctype html><meta charset="utf-8"><title>course</title><link rel="icon" href="data:,">' +
      '<output id="out" data-state="loading"></output><script type="module" src="page.bundle.js"></script>');

    // Only the author's folder is served: nothing can come from the repository.
    browser = await startBrowser({ root: site });
    page = await browser.newPage();
    page.on('request', (r) => requests.push(new URL(r.url()).pathname));
    page.on('response', (r) => { if (r.status() >= 400) failures.push(`${r.status()} ${r.url()}`); });
    await page.goto(`${browser.url}index.html`);
    await page.waitForSelector('#out:not([data-state="loading"])', { timeout: 30_000 });
    const text = await page.textContent('#out');
    assert.equal(await page.getAttribute('#out', 'data-state'), 'done', text);
    result = JSON.parse(text);
  });

  after(async () => {
    await browser?.close();
  });

  test('the page reads PE(10, 4) and the ALiBi slopes from both builds, loaded from baseUrl', () => {
    assert.deepEqual(result.builds.map((b) => b.simd), [true, false]);
    const want = ref.sinusoidal(50, 20)[10 * 20 + 4];   // sin(10 * 10000^(-4/20)) = 0.99990
    for (const b of result.builds) {
      assertClose(b.pe104, want, TOL.f32, `${b.simd ? 'SIMD' : 'scalar'} PE(10, 4)`);
      assertAllClose(b.alibi6, [1 / 4, 1 / 16, 1 / 64, 1 / 256, 1 / 2, 1 / 8], TOL.alibi, 'alibiSlopes(6)');
    }
    // Both core builds and the trainer the probe picked (SIMD), each from the baseUrl folder.
    const fetched = ['posenc-simd', 'posenc-scalar', 'posenc-train-simd'].flatMap((m) => [`${m}.mjs`, `${m}.wasm`]);
    for (const f of fetched) assert.ok(requests.includes(`/posenc/${f}`), `${f} not fetched from /posenc/`);
    assert.deepEqual(failures, []);
    assert.deepEqual(page.errors, []);
  });

  test('the trainer loads from baseUrl in the page and trains', () => {
    assert.equal(result.trainer.simd, true);
    assert.equal(result.trainer.steps, 2);
    assert.ok(Math.abs(result.trainer.loss0 - Math.log(result.trainer.vocab)) < 0.1,
      `first loss ${result.trainer.loss0}, ln ${result.trainer.vocab}`);
  });
});
