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
# Two lanes at once on this 2-core machine, each about half of the wall time:
#   lane 1: the JS API tests, then every other Chromium test: the steps (their update times),
#           the page, the Lab (its frame times), the trainer and the soak (its memory);
#   lane 2: the Firefox/WebKit suite and the desktop Lab (real windows on Xvfb, mostly waiting on
#           their engines, beside the API tests), then Chromium's walks over the whole page:
#           accessibility (axe in four languages), touch, the languages, embeds, downloads and
#           overlays, printing, dist/ and the single file (and the first screen's time), the early
#           theme, the text after the steps.
# Lane 2 shares the cores with lane 1's timed steps: the update tables are taken under that load
# (their CPU columns say what the updates cost without it).
walks=(a11y touch locales embed downloads export-overlays print dist theme-early content)
walks=("${walks[@]/#/tests/browser/}")
walks=("${walks[@]/%/.test.js}")
timed=()
for f in tests/browser/*.test.js; do [[ " ${walks[*]} " == *" $f "* ]] || timed+=("$f"); done
echo "== node:test, two lanes at once:"
echo "   lane 1: the JS API on both modules, then the page and the Lab in headless Chromium"
echo "   lane 2: Firefox and WebKit (tests/engines/), the desktop Lab under Xvfb, then Chromium's untimed walks (accessibility, touch, languages, embeds, exports, print, dist/)"
rm -rf tests/out/perf
lane2_log=$(mktemp)
trap 'rm -f "$log" "$lane2_log"' EXIT
node --test tests/engines/ tests/native/ "${walks[@]}" >"$lane2_log" 2>&1 &
lane2=$!
node --test tests/js/ "${timed[@]}" 2>&1 | tee "$log" || true  # counted below, after lane 2 is in
wait "$lane2" || true  # its failures are counted from its log below
echo
echo "== lane 2 (Firefox, WebKit, the desktop Lab, Chromium's untimed tests):"
cat "$lane2_log"
# A test that cannot run here says why and is counted as skipped, never as passed.
skipped=0
for f in "$log" "$lane2_log"; do
  passed=$((passed + $(grep -a '^# pass ' "$f" | awk '{s += $3} END {print s + 0}')))
  failed=$((failed + $(grep -a '^# fail ' "$f" | awk '{s += $3} END {print s + 0}')))
  skipped=$((skipped + $(grep -a '^# skipped ' "$f" | awk '{s += $3} END {print s + 0}')))
  # A lane that crashed before its summary counts as a failure, not as nothing.
  grep -aq '^# pass ' "$f" || failed=$((failed + 1))
done
echo
node tests/browser/perf-report.mjs
echo
echo "tests: ${passed} passed, ${failed} failed$([ "$skipped" -gt 0 ] && echo ", ${skipped} skipped")"
[ "$failed" -eq 0 ]
