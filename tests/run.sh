#!/usr/bin/env bash
# `npm test`: install what is missing, build, then every suite. Stops at the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."

bash wasm/tools/setup.sh
bash wasm/tools/build.sh --tests

echo "== doctest: core, native build"
build/native/posenc-core-tests
echo "== doctest: core, native build under AddressSanitizer + UndefinedBehaviorSanitizer"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  build/native-sanitize/posenc-core-tests
echo "== doctest: core compiled to WebAssembly with SIMD, run by node (SIMD vs scalar kernels)"
node build/wasm/posenc-core-tests-simd.cjs
echo "== node:test: the JS API on both modules, and the page in headless Chromium"
rm -rf tests/out/perf
node --test tests/js/ tests/browser/
node tests/browser/perf-report.mjs
