// The step registry (web/steps/index.js) is the one list of steps: index.html states it again for
// the first paint (its <section>s and stylesheet links are there before any script runs, and the
// page is served from source without a build step), so these tests hold that copy to the registry,
// and each manifest to the files it names.
import assert from 'node:assert/strict';
import { access, readFile, readdir } from 'node:fs/promises';
import { test } from 'node:test';
import { PARTS } from '../../web/catalog-parts.js';
import { CONTENT_PARTS, LANGUAGES, PAGE_PARTS } from '../../web/i18n.js';
import { readParams } from '../../web/state.js';
import { STEPS, STEP_PARTS, STEP_STYLES } from '../../web/steps/index.js';

const root = new URL('../../', import.meta.url);
const text = (path) => readFile(new URL(path, root), 'utf8');

test('index.html has one <section class="step"> per registered step, in the registry order, only the first shown', async () => {
  const html = await text('index.html');
  const sections = [...html.matchAll(/<section id="([\w-]+)" class="step"[^>]*>/g)];
  assert.deepEqual(sections.map((s) => s[1]), STEPS.map((s) => s.id));
  assert.deepEqual(sections.map((s) => s[0].includes(' hidden')), STEPS.map((_, i) => i > 0));
});

test('index.html links the shared styles, then each step\'s stylesheet as its manifest names it, in order', async () => {
  const html = await text('index.html');
  const links = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((x) => x[1]);
  assert.deepEqual(links, ['web/styles.css', ...STEP_STYLES]);
});

test('each manifest names its own module, an existing stylesheet and catalog parts every language has', async () => {
  assert.equal(new Set(STEPS.map((s) => s.id)).size, STEPS.length, 'step ids are unique');
  for (const step of STEPS) {
    const source = await text(`web/steps/${step.id}/${step.id}.js`);
    assert.match(source, new RegExp(`^export const id = '${step.id}';$`, 'm'), `web/steps/${step.id}/${step.id}.js exports id '${step.id}'`);
    assert.match(String(step.load), new RegExp(`import\\('\\./${step.id}/${step.id}\\.js'\\)`), `${step.id}'s load() imports its own module`);
    await access(new URL(step.style, root));
    assert.ok(step.parts.length > 0, `${step.id} names its catalog parts`);
    for (const lang of LANGUAGES) {
      for (const part of step.parts) await access(new URL(`web/i18n/${lang}/${part}.json`, root));
    }
  }
});

test('the catalog parts are the page\'s, the text after the steps\', then every step\'s, none twice', () => {
  assert.deepEqual(PARTS, [...PAGE_PARTS, ...CONTENT_PARTS, ...STEP_PARTS]);
  assert.equal(new Set(PARTS).size, PARTS.length);
});

test('every step has its navigation title in the titles part', async () => {
  for (const lang of LANGUAGES) {
    const titles = JSON.parse(await text(`web/i18n/${lang}/titles.json`));
    for (const step of STEPS) assert.equal(typeof titles[`titles.${step.id}`], 'string', `${lang}: titles.${step.id}`);
  }
});

// What the Lab reads from a URL, from its own source: the family names (each core/families/*.hpp
// kName) and the parameter keys (wasm/lab/lab_state.cpp's number table and its named choices).
async function labVocabulary() {
  const families = [];
  for (const f of await readdir(new URL('core/families/', root))) {
    const hit = (await text(`core/families/${f}`)).match(/kName = "([\w-]+)"/);
    if (hit) families.push(hit[1]);
  }
  const state = await text('wasm/lab/lab_state.cpp');
  const keys = [...state.matchAll(/^\s*\{"(\w+)", /gm)].map((x) => x[1]);
  for (const key of ['family', 'scaling', 'layout', 'causal']) if (state.includes(`key == "${key}"`)) keys.push(key);
  return { families, keys };
}

test('each step\'s Lab mapping, at the step\'s default values, names a Lab family and only keys the Lab reads', async () => {
  const { families, keys } = await labVocabulary();
  assert.ok(families.includes('t5') && keys.includes('qpos'), 'the Lab\'s vocabulary was read');
  const mapped = STEPS.filter((s) => s.lab);
  assert.ok(mapped.length > 0);
  for (const step of mapped) {
    const module = await step.load();
    const state = step.lab(readParams(module.params, ''));
    assert.ok(families.includes(state.family), `${step.id}: family ${state.family}`);
    for (const [key, value] of Object.entries(state)) {
      assert.ok(keys.includes(key), `${step.id}: the Lab reads no key ${key}`);
      if (key !== 'family' && key !== 'scaling') assert.ok(value === undefined || typeof value === 'number' || typeof value === 'boolean', `${step.id}: ${key} = ${value}`);
    }
  }
});
