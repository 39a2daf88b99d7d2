// Loading an Emscripten module of this project (the core, or the trainer), in Node or a
// browser: the SIMD build where the engine validates WebAssembly SIMD, the scalar one otherwise.

const SIMD_PROBE = new Uint8Array([
  // (module (func (result v128) i32.const 0 i8x16.splat i8x16.popcnt)) — from wasm-feature-detect
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253,
  15, 253, 98, 11,
]);

/** True when this engine validates WebAssembly SIMD (128-bit) code. */
export function simdSupported() {
  try {
    return typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

const isNode = typeof process === 'object' && !!process.versions?.node && typeof window === 'undefined' &&
  typeof importScripts !== 'function';

async function readWasm(url) {
  // Node 20's fetch cannot read file: URLs; the module is then handed its bytes directly.
  // The specifier is a variable so that a bundler leaves it alone: with a literal, esbuild
  // bundling a page for the browser fails on 'node:fs/promises' unless the page's author marks
  // it external (tests/js/package.test.js bundles one). A browser never reaches this line.
  const fsModule = 'node:fs/promises';
  const { readFile } = await import(fsModule);
  return readFile(url);
}

/**
 * Instantiates `<stem>-simd` or `<stem>-scalar`. options: { simd: 'auto'|true|false, baseUrl,
 * modules: { simd: { factory, wasmBinary }, scalar: {...} } } (modules already in memory, as in
 * the single file). Returns { module, simd }.
 */
export async function loadModule(stem, defaultBase, options = {}) {
  const { simd = 'auto', modules } = options ?? {};
  if (simd !== 'auto' && simd !== true && simd !== false) {
    throw new TypeError(`options.simd must be 'auto', true or false, got ${String(simd)}`);
  }
  const supported = simdSupported();
  if (simd === true && !supported) {
    throw new RangeError('options.simd is true but this engine does not support WebAssembly SIMD');
  }
  const useSimd = simd === 'auto' ? supported : simd;
  const name = `${stem}-${useSimd ? 'simd' : 'scalar'}`;
  let factory;
  let moduleArgs;
  if (modules) {
    const inline = modules[useSimd ? 'simd' : 'scalar'];
    factory = inline.factory;
    moduleArgs = { wasmBinary: inline.wasmBinary };
  } else {
    const base = options.baseUrl ? new URL(options.baseUrl) : defaultBase;
    factory = (await import(new URL(`${name}.mjs`, base).href)).default;
    const wasmUrl = new URL(`${name}.wasm`, base);
    moduleArgs = isNode
      ? { wasmBinary: await readWasm(wasmUrl) }
      : { locateFile: (file) => new URL(file, base).href };
  }
  const module = await factory(moduleArgs);
  if (module.simd() !== useSimd) throw new Error(`${name} reports simd=${module.simd()}`);
  return { module, simd: useSimd };
}
