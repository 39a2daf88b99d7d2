// wasm/schema.js is the one statement of the API's signatures: the files made from it are
// current, every option a function declares is the one it applies (its default is the module's),
// and an option or scaling field the schema does not declare is a TypeError naming the function,
// the key and the allowed keys, raised before wasm is called.

import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { describe, test } from 'node:test';

import { API, ROPE_SCALINGS } from '../../wasm/schema.js';
import { expectedFiles } from '../../wasm/tools/gen-api.mjs';
import { loadBoth, moduleName } from './helpers.js';

const modules = await loadBoth();
const root = new URL('../../', import.meta.url);

test('posenc.d.ts, docs/api.md\'s API table and wasm/bindings/api.gen.hpp are what wasm/tools/gen-api.mjs makes of the schema', async () => {
  for (const [path, want] of Object.entries(await expectedFiles())) {
    const have = await readFile(new URL(path, root), 'utf8');
    assert.ok(have === want, `${path} is not current: run node wasm/tools/gen-api.mjs`);
  }
});

// The binding files: args.cpp (the readers) and one file per core file it binds.
const bindingFiles = (await readdir(new URL('wasm/bindings/', root))).filter((f) => f.endsWith('.cpp'));
const bound = bindingFiles.filter((f) => f !== 'args.cpp').map((f) => f.replace(/\.cpp$/, ''));

test('every binding file names its fields through api.gen.hpp: no option is read by a key written in the binding', async () => {
  // The readers taking (opts, "key", ...) are gone from args.hpp; this catches a direct o["key"].
  assert.ok(bound.length >= 10, `binding files found: ${bound.join(', ')}`);
  for (const file of bindingFiles) {
    const source = await readFile(new URL(`wasm/bindings/${file}`, root), 'utf8');
    assert.doesNotMatch(source, /\b(o|sc|opts)\["/, `${file} reads an option by a literal key`);
  }
});

test('one binding file per core file: wasm/bindings/<name>.cpp binds core/<name>.hpp and no other core file', async () => {
  // Every core header a binding includes, apart from the shared ones (errors, limits, the family
  // registry that names the families, the kernels' dispatch that says which build runs).
  const shared = new Set(['errors', 'limits', 'families/registry', 'kernels/dispatch']);
  for (const name of bound) {
    const source = await readFile(new URL(`wasm/bindings/${name}.cpp`, root), 'utf8');
    await readFile(new URL(`core/${name}.hpp`, root), 'utf8');  // throws when there is no such core file
    const cores = [...source.matchAll(/#include "core\/([\w/]+)\.hpp"/g)].map((m) => m[1]).filter((c) => !shared.has(c));
    assert.deepEqual(cores, [name], `wasm/bindings/${name}.cpp includes core files ${cores.join(', ')}`);
  }
  // And every function of the API is bound by exactly one of them.
  const byFunction = new Map();
  for (const name of bound) {
    const source = await readFile(new URL(`wasm/bindings/${name}.cpp`, root), 'utf8');
    for (const [, fn] of source.matchAll(/emscripten::function\("(\w+)"/g)) byFunction.set(fn, [...(byFunction.get(fn) ?? []), name]);
  }
  for (const fn of Object.keys(API)) assert.equal(byFunction.get(fn)?.length, 1, `${fn} is bound by ${byFunction.get(fn)?.join(', ') ?? 'no file'}`);
});

for (const pe of modules) {
  describe(`${moduleName(pe)}: the schema's options`, () => {
    test('an option given its schema default gives exactly the result of leaving it out', () => {
      let checked = 0;
      for (const [fn, spec] of Object.entries(API)) {
        const bare = pe[fn](...spec.example);
        for (const [key, f] of Object.entries(spec.options ?? {})) {
          const computed = typeof f.default === 'string' && f.type !== 'string';
          if (f.default === undefined || computed) continue;
          const explicit = pe[fn](...spec.example, { [key]: f.default });
          assert.deepEqual(explicit, bare, `${fn}(…, { ${key}: ${JSON.stringify(f.default)} })`);
          checked++;
        }
      }
      assert.ok(checked > 0, 'no default was checked');
    });

    test('a scaling field given its schema default gives exactly the result of leaving it out', () => {
      for (const [type, s] of Object.entries(ROPE_SCALINGS)) {
        const bare = pe.ropeFrequencies(8, { scaling: { type, ...s.example } });
        for (const [key, f] of Object.entries(s.fields)) {
          if (f.default === undefined) continue;
          assert.deepEqual(pe.ropeFrequencies(8, { scaling: { type, ...s.example, [key]: f.default } }), bare, `${type}.${key}`);
        }
      }
    });

    test('an unknown option is a TypeError naming the function, the key and every allowed key', () => {
      for (const [fn, spec] of Object.entries(API)) {
        if (!spec.options) continue;
        const keys = Object.keys(spec.options);
        assert.throws(() => pe[fn](...spec.example, { bogus: 1 }), (e) => e.constructor === TypeError &&
          e.message.startsWith(`options.bogus is not an option of ${fn}()`) && e.message.endsWith(`allowed: ${keys.join(', ')}`), fn);
        // A neighbour's option is as unknown (ropeFrequencies has no layout; sinusoidal no seed).
        const foreign = ['layout', 'seed', 'causal', 'base'].find((k) => !keys.includes(k));
        assert.throws(() => pe[fn](...spec.example, { [foreign]: 1 }), (e) => e.constructor === TypeError && e.message.includes(`options.${foreign} is not an option of ${fn}()`), `${fn} ${foreign}`);
        // Present but undefined counts as absent, as for a known key; a getter is not run.
        assert.deepEqual(pe[fn](...spec.example, { bogus: undefined }), pe[fn](...spec.example));
        assert.throws(() => pe[fn](...spec.example, { get bogus() { throw new Error('ran'); } }), TypeError);
      }
    });

    test('a scaling field its type does not take is a TypeError naming it and the type\'s fields', () => {
      for (const [type, s] of Object.entries(ROPE_SCALINGS)) {
        const fields = ['type', ...Object.keys(s.fields)];
        const stray = ['factor', 'seqLen', 'betaFast', 'shortFactor'].find((k) => !fields.includes(k));
        for (const call of [(o) => pe.ropeFrequencies(8, o), (o) => pe.ropeApply(new Float32Array(16), 2, 8, o)]) {
          assert.throws(() => call({ scaling: { type, ...s.example, [stray]: 2 } }), (e) => e.constructor === TypeError &&
            e.message.includes(`options.scaling.${stray} is not a field of`) && e.message.includes(`'${type}' scaling`) &&
            e.message.endsWith(`allowed: ${fields.join(', ')}`), `${type}.${stray}`);
        }
      }
    });
  });
}
