#!/usr/bin/env bash
# `npm run test:quick`: every test that needs no browser, for the edit-and-check loop. The native
# doctest suite (g++, the core and the trainer) and every node:test file in tests/js/ (the JS API
# against both WebAssembly builds, the trainer against PyTorch and its committed reference run,
# the catalogs, the page's DOM-free models). What it does not run: the browsers (tests/browser/,
# tests/engines/), the sanitized and WebAssembly doctest suites and the desktop Lab: `npm test`
# runs those too. Builds what changed first (a second run with nothing changed builds nothing).
set -euo pipefail
cd "$(dirname "$0")/.."
bash wasm/tools/setup.sh  # torch for the parity test; quick when all is there
bash wasm/tools/build.sh
bash wasm/tools/build.sh --native-plain
echo "== doctest: core, native build"
build/native/posenc-core-tests --no-colors
echo "== node:test: tests/js/"
node --test --test-concurrency=2 tests/js/
