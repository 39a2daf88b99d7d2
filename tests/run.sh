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
# Three lanes at once on this 2-core machine. One lane of browser tests keeps about 0.6-0.9 of a
# core busy (the rest is waiting on pages, engines and the server), so two lanes left a quarter of
# the machine idle:
#   lane 1: the JS API tests, then every step's Chromium test (their update times);
#   lane 2: the Firefox/WebKit suite and the desktop Lab (real windows on Xvfb), then Chromium's
#           accessibility walk (axe in four languages, keyboard, screen-reader text, forced colours);
#   lane 3: the rest of Chromium: touch, the page, the languages, embeds, downloads and overlays,
#           printing, dist/ and the single file (and the first screen's time), the early theme, the
#           text after the steps, the Lab (its frame times) and the soak (its memory).
# The other lanes share the cores with lane 1's timed steps: the update tables are taken under that
# load (their CPU columns say what the updates cost without it).
lane2=(tests/engines/ tests/native/ tests/browser/a11y.test.js)
lane3=(touch page locales embed downloads export-overlays print dist theme-early content lab soak)
lane3=("${lane3[@]/#/tests/browser/}")
lane3=("${lane3[@]/%/.test.js}")
lane1=(tests/js/)
for f in tests/browser/*.test.js; do [[ " ${lane2[*]} ${lane3[*]} " == *" $f "* ]] || lane1+=("$f"); done
echo "== node:test, three lanes at once:"
echo "   lane 1: the JS API on both modules, then every step in headless Chromium (update times)"
echo "   lane 2: Firefox and WebKit (tests/engines/), the desktop Lab under Xvfb, then Chromium's accessibility walk"
echo "   lane 3: the rest of Chromium (touch, page, languages, embeds, exports, print, dist/, the Lab, the soak)"
rm -rf tests/out/perf
lane2_log=$(mktemp)
lane3_log=$(mktemp)
trap 'rm -f "$log" "$lane2_log" "$lane3_log"' EXIT
node --test "${lane2[@]}" >"$lane2_log" 2>&1 &
pid2=$!
node --test "${lane3[@]}" >"$lane3_log" 2>&1 &
pid3=$!
node --test "${lane1[@]}" 2>&1 | tee "$log" || true  # counted below, after lanes 2 and 3 are in
wait "$pid2" || true  # their failures are counted from their logs below
wait "$pid3" || true
echo
echo "== lane 2 (Firefox, WebKit, the desktop Lab, Chromium's accessibility walk):"
cat "$lane2_log"
echo
echo "== lane 3 (the rest of Chromium):"
cat "$lane3_log"
# A test that cannot run here says why and is counted as skipped, never as passed.
skipped=0
for f in "$log" "$lane2_log" "$lane3_log"; do
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
