// The family list is declared once, in the core's registry (core/families/registry.hpp):
// wasm/families.gen.js must be what the native trainer prints of it, and every JavaScript list of
// families must come from that file.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import test from 'node:test';

import { FAMILY_REGISTRY } from '../../wasm/families.gen.js';
import { readRegistry, render, OUT, TRAINER } from '../../wasm/tools/gen-families.mjs';
import { ATTENTION_FAMILIES, TRAIN_FAMILIES } from '../../wasm/train.js';
import { FAMILIES, familyPerHead, familyReadsTable } from '../../web/families.js';

test('wasm/families.gen.js is what the registry prints', () => {
  assert.ok(existsSync(TRAINER), `${TRAINER} is not built: run npm run build`);
  const registry = readRegistry();
  assert.equal(readFileSync(OUT, 'utf8'), render(registry), 'run node wasm/tools/gen-families.mjs');
  assert.deepEqual(FAMILY_REGISTRY.map((f) => ({ ...f, hooks: [...f.hooks] })), registry);
});

test('the JS lists and facts derive from the registry', () => {
  assert.deepEqual(TRAIN_FAMILIES, FAMILY_REGISTRY.map((f) => f.name));
  assert.deepEqual(ATTENTION_FAMILIES, FAMILY_REGISTRY.filter((f) => f.figure).map((f) => f.name));
  assert.deepEqual(FAMILIES, ATTENTION_FAMILIES);
  // The figure families come first: a family's id in familyAttention is its registry id.
  const firstTrainerOnly = FAMILY_REGISTRY.findIndex((f) => !f.figure);
  assert.ok(FAMILY_REGISTRY.slice(firstTrainerOnly).every((f) => !f.figure));
  for (const f of FAMILY_REGISTRY) {
    assert.equal(familyPerHead(f.name), f.perHead, f.name);
    assert.equal(familyReadsTable(f.name), f.readsTable, f.name);
  }
  // A family that fills no hook is NoPE's case; every other fills at least one.
  assert.deepEqual(FAMILY_REGISTRY.filter((f) => f.hooks.length === 0).map((f) => f.name), ['none']);
});

test('posenc.d.ts lists the registry in its family unions', () => {
  const dts = readFileSync(new URL('../../wasm/posenc.d.ts', import.meta.url), 'utf8');
  const union = (names) => names.map((n) => `'${n}'`).join(' | ');
  assert.ok(dts.includes(`export type TrainFamily = ${union(TRAIN_FAMILIES)};`));
  assert.ok(dts.includes(`family: ${union(ATTENTION_FAMILIES)},`));
});
