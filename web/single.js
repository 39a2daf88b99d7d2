// Entry point of the single-file build (dist/positional-encoding.html): both core modules, both
// trainer modules, the train step's reference run and every catalog are bundled in, so the page
// needs no request at all and opens from file://. A file cannot start Web Workers (its CSP allows
// no worker script), so the train step trains on the page's own thread and says so.
import { loadPosenc } from '../wasm/posenc.js';
import scalarFactory from '../wasm/dist/posenc-scalar.mjs';
import scalarWasm from '../wasm/dist/posenc-scalar.wasm';
import simdFactory from '../wasm/dist/posenc-simd.mjs';
import simdWasm from '../wasm/dist/posenc-simd.wasm';
import trainScalarFactory from '../wasm/dist/posenc-train-scalar.mjs';
import trainScalarWasm from '../wasm/dist/posenc-train-scalar.wasm';
import trainSimdFactory from '../wasm/dist/posenc-train-simd.mjs';
import trainSimdWasm from '../wasm/dist/posenc-train-simd.wasm';
import { start } from './app.js';
import reference from './data/train-reference.json';
import { trainPlatform } from './train/platform.js';
import catalogs from 'posenc:catalogs';

const modules = {
  simd: { factory: simdFactory, wasmBinary: simdWasm },
  scalar: { factory: scalarFactory, wasmBinary: scalarWasm },
};

start({
  loadCore: (options) => loadPosenc({ ...options, modules }),
  loadPart: async (lang, part) => catalogs[lang][part],
  train: trainPlatform({
    modules: {
      simd: { factory: trainSimdFactory, wasmBinary: trainSimdWasm },
      scalar: { factory: trainScalarFactory, wasmBinary: trainScalarWasm },
    },
    data: reference,
    workerUrl: null,
  }),
});
