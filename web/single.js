// Entry point of the single-file build (dist/positional-encoding.html): both core modules and
// every catalog are bundled in, so the page needs no request at all and opens from file://.
import { loadPosenc } from '../wasm/posenc.js';
import scalarFactory from '../wasm/dist/posenc-scalar.mjs';
import scalarWasm from '../wasm/dist/posenc-scalar.wasm';
import simdFactory from '../wasm/dist/posenc-simd.mjs';
import simdWasm from '../wasm/dist/posenc-simd.wasm';
import { start } from './app.js';
import catalogs from 'posenc:catalogs';

const modules = {
  simd: { factory: simdFactory, wasmBinary: simdWasm },
  scalar: { factory: scalarFactory, wasmBinary: scalarWasm },
};

start({
  loadCore: (options) => loadPosenc({ ...options, modules }),
  loadPart: async (lang, part) => catalogs[lang][part],
});
