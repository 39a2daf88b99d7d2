// The atlas of real models' configs (web/data/atlas.json), for step "your-model" only. From
// source it is fetched before the step mounts (a top-level await: the step's import resolves once
// it is in); in Node, where fetch reads no file: URL, it is read from disk (the registry's tests
// load every step's module). The builds (web/tools/build-dist.mjs) put its models into the step's
// own chunk in place of this module, so no other step's first screen loads it, and the single
// file carries it.
const url = new URL('../../data/atlas.json', import.meta.url);

async function load() {
  if (url.protocol === 'file:' && !globalThis.document) {
    const { readFile } = await import('node:fs/promises');
    return JSON.parse(await readFile(url, 'utf8'));
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}

/** { models: [...] } as web/data/atlas.json has them. */
export const ATLAS = { models: (await load()).models };
