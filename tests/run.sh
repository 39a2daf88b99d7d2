#!/usr/bin/env bash
# `npm test`: install what is missing, build, then every suite. Stops at the first failure and
# ends with one line counting every test case of every suite.
set -euo pipefail
cd "$(dirname "$0")/.."

bash wasm/tools/setup.sh
bash wasm/tools/build.sh --tests
node web/tools/build-dist.mjs

log=$(mktemp)
trap 'rm -f "$log"' EXIT
passed=0
failed=0
count_doctest() {  # adds "[doctest] test cases: N | P passed | F failed" of the last run
  local line
  line=$(grep -a "test cases:" "$log" | tail -1)
  passed=$((passed + $(sed -E 's/.*\| *([0-9]+) passed.*/\1/' <<<"$line")))
  failed=$((failed + $(sed -E 's/.*\| *([0-9]+) failed.*/\1/' <<<"$line")))
}

echo "== doctest: core, native build"
build/native/posenc-core-tests --no-colors 2>&1 | tee "$log"
count_doctest
echo "== doctest: core, native build under AddressSanitizer + UndefinedBehaviorSanitizer"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  build/native-sanitize/posenc-core-tests --no-colors 2>&1 | tee "$log"
count_doctest
echo "== doctest: core compiled to WebAssembly with SIMD, run by node (SIMD vs scalar kernels)"
node build/wasm/posenc-core-tests-simd.cjs --no-colors 2>&1 | tee "$log"
count_doctest
echo "== node:test: the JS API on both modules, the page and the Lab in headless Chromium, the desktop Lab under Xvfb,"
echo "   the cross-engine suite in Firefox and WebKit (tests/engines/)"
rm -rf tests/out/perf
node --test tests/js/ tests/browser/ tests/native/ tests/engines/ 2>&1 | tee "$log"
passed=$((passed + $(grep -a '^# pass ' "$log" | awk '{print $3}')))
failed=$((failed + $(grep -a '^# fail ' "$log" | awk '{print $3}')))
# A test that cannot run here says why and is counted as skipped, never as passed.
skipped=$(grep -a '^# skipped ' "$log" | awk '{print $3}')
echo
node tests/browser/perf-report.mjs
echo
echo "tests: ${passed} passed, ${failed} failed$([ "${skipped:-0}" -gt 0 ] && echo ", ${skipped} skipped")"
[ "$failed" -eq 0 ]
