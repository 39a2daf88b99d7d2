// The program templates of step "code" (web/steps/code/snippets/*.py), file name → text. From
// source they are fetched beside this module before the step mounts (a top-level await: the
// step's import resolves once they are in). The builds (web/tools/build-dist.mjs) put the texts
// into the bundle in place of this module, so dist/ and the single file fetch nothing.
import { TEMPLATE_NAMES } from './snippets.js';

async function load(name) {
  const url = new URL(`snippets/${name}`, import.meta.url);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return [name, await response.text()];
}

export const TEMPLATES = Object.fromEntries(await Promise.all(TEMPLATE_NAMES.map(load)));
