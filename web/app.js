// Page start-up: load the catalog and the core, then mount the figures.
import { loadPosenc } from '../wasm/posenc.js';
import { applyMessages, loadMessages } from './i18n.js';
import { mountTable } from './steps/table.js';
import { readState, writeState } from './state.js';

async function main() {
  const lang = new URLSearchParams(location.search).get('lang') ?? navigator.language?.slice(0, 2);
  const m = await loadMessages(lang);
  document.documentElement.lang = m.lang;
  document.title = m.t('page.title');
  applyMessages(document, m);

  const engine = document.getElementById('engine');
  if (typeof WebAssembly !== 'object') {
    engine.textContent = m.t('engine.none');
    document.body.classList.add('no-wasm');
    return;
  }
  let core;
  try {
    core = await loadPosenc({ simd: 'auto' });
  } catch (e) {
    engine.textContent = m.t('engine.failed', { message: e.message });
    document.body.classList.add('no-wasm');
    return;
  }
  engine.textContent = m.t(core.simd ? 'engine.simd' : 'engine.scalar');
  document.body.dataset.simd = String(core.simd);

  const state = readState();
  mountTable(document.getElementById('table'), core, state, m, () => writeState(state));
  document.body.dataset.ready = 'true';
}

main();
