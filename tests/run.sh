#!/usr/bin/env bash
# `npm test`: install what is missing, build, then every suite. Stops at the first failure and
# ends with one line counting every test case of every suite.
set -euo pipefail
cd "$(dirname "$0")/.."

# Where the wall time goes: each phase's start (and when the node:test files and the native
# suites end), in minutes and seconds
# since npm test began.
# Each line after the first also says how busy the machine's cores were since the line before
# (from /proc/stat, where there is one): a phase whose cores sat idle could run more at once.
cpu_busy=""
phase() {
  local busy="" _ u n s i w q sq st
  # (2>/dev/null first: a redirection that fails reports on the stderr set before it.)
  if read -r _ u n s i w q sq st _ 2>/dev/null </proc/stat; then
    local now="$((u + n + s + q + sq + st)) $((i + w))"
    if [ -n "$cpu_busy" ]; then
      local b0=${cpu_busy% *} i0=${cpu_busy#* } b1=${now% *} i1=${now#* }
      local total=$((b1 - b0 + i1 - i0))
      if [ "$total" -gt 0 ]; then busy=" (cores $(((b1 - b0) * 100 / total)) % busy since the line before)"; fi
    fi
    cpu_busy=$now
  fi
  printf '== [%d:%02d] %s%s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*" "$busy"
}

# What building needs comes first. The rest (the browsers, Xvfb, torch, NumPy: what only the tests
# need) installs beside the build, which needs none of it, so that on a fresh machine apt's
# download and unpacking overlap the compiler's minutes instead of coming before them. Only as
# root: through sudo, a password prompt in the middle of the build's output would make no sense,
# so then it all installs first, as before.
phase "setup: what building needs"
if [ "$(id -u)" -ne 0 ]; then
  bash wasm/tools/setup.sh
else
  bash wasm/tools/setup.sh --build
  setup_log=$(mktemp)
  bash wasm/tools/setup.sh >"$setup_log" 2>&1 &
  setup=$!
  # A failed build stops the script here; apt is still let finish and its output shown.
  trap 'wait "$setup" 2>/dev/null; cat "$setup_log"; rm -f "$setup_log"' EXIT
fi
phase "build: the WebAssembly modules, the Lab and the wasm doctest suite (the rest of setup beside it)"
bash wasm/tools/build.sh --wasm-tests
node web/tools/build-dist.mjs
if [ -n "${setup:-}" ]; then
  setup_ok=0
  wait "$setup" || setup_ok=$?
  trap - EXIT
  cat "$setup_log"
  rm -f "$setup_log"
  [ "$setup_ok" -eq 0 ] || { echo "setup: installing what the tests need failed (exit $setup_ok)" >&2; exit 1; }
fi

# Logs: the wasm doctest (later every node:test file's log, in order), the native suites, and a folder of the node:test files' own logs.
log=$(mktemp)
native_log=$(mktemp)
file_logs=$(mktemp -d)
trap 'rm -rf "$log" "$native_log" "$file_logs"' EXIT
passed=0
failed=0
count_doctest() {  # $1 a log, $2 how many doctest runs it must hold: adds each run's
  # "[doctest] test cases: N | P passed | F failed"; a run missing from it (its build or the
  # binary failed before the summary) is a failure
  local line runs=0
  while read -r line; do
    passed=$((passed + $(sed -E 's/.*\| *([0-9]+) passed.*/\1/' <<<"$line")))
    failed=$((failed + $(sed -E 's/.*\| *([0-9]+) failed.*/\1/' <<<"$line")))
    runs=$((runs + 1))
  done < <(grep -a "test cases:" "$1")
  [ "$runs" -eq "$2" ] || failed=$((failed + $2 - runs))
}

# A test file that hangs (a wait on the page that never ends) fails after this long, by name,
# instead of holding npm test until CI's own limit; node reports it as cancelled, counted below
# as a failure. The longest file takes a few minutes on a slow run of this machine.
file_timeout=$((20 * 60 * 1000))

phase "doctest: core compiled to WebAssembly with SIMD, run by node (SIMD vs scalar kernels)"
node build/wasm/posenc-core-tests-simd.cjs --no-colors 2>&1 | tee "$log"
count_doctest "$log" 1
rm -rf tests/out/perf
# The native suites (plain, and under AddressSanitizer + UndefinedBehaviorSanitizer) are built and
# run beside the browser tests below, at nice 19, so they do not hold up their start. The browser
# tests keep both cores busy, so the build competes with them, but at nice 19 it gets only a small
# share of a contended core (a nice-0 task weighs about 70 times as much). Their output is
# printed after the browser tests'.
(
  set +e  # a failing suite must not keep the other from running
  nice -n 19 bash wasm/tools/build.sh --native-tests || exit 1
  echo "== doctest: core, native build"
  nice -n 19 build/native/posenc-core-tests --no-colors
  echo "== doctest: core, native build under AddressSanitizer + UndefinedBehaviorSanitizer"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    nice -n 19 build/native-sanitize/posenc-core-tests --no-colors
) >"$native_log" 2>&1 &
native=$!
# Every other suite: the JS API, Chromium (the steps, the page, the Lab, the trainer, and the
# walks over the whole page: accessibility, touch, languages, embeds, exports, print, dist/, the
# soak), Firefox and WebKit (all but their timing test, which `npm run perf` runs) and the
# desktop Lab: each file in its own node:test run, two at a time, the slowest first so that none
# starts late and runs on alone at the end (one node --test over all the files would choose its
# own order). Two at a time because the phase keeps both cores busy; more lanes starve each
# file's browser. Update times are still recorded here (tests/out/perf/), for `npm run perf` to
# print beside its own.
concurrency=2
slowest=(browser/a11y engines/firefox browser/touch browser/soak browser/train browser/relative-bias
  browser/lab browser/attention browser/page engines/webkit browser/order browser/embed)
files=()
for f in "${slowest[@]/#/tests/}"; do
  [ -f "$f.test.js" ] && files+=("$f.test.js")  # a renamed file just loses its early start
done
for f in tests/browser/*.test.js tests/engines/*.test.js tests/js/*.test.js tests/native/*.test.js; do
  [[ " ${files[*]} " == *" $f "* ]] || files+=("$f")
done
phase "node:test, ${#files[@]} files, $concurrency at a time: the JS API, the page in headless Chromium, Firefox and WebKit (tests/engines/), the desktop Lab under Xvfb"
# One Chromium for every browser file of this phase (tests/browser/chromium-server.mjs): each
# opens a context in it instead of starting its own (the timed ones still start their own). If
# it does not start, each file starts its own, as before it.
chromium_ws=$(mktemp)
node tests/browser/chromium-server.mjs >"$chromium_ws" &
chromium_server=$!
trap 'kill "$chromium_server" 2>/dev/null || true; rm -rf "$log" "$native_log" "$file_logs" "$chromium_ws"' EXIT
for _ in $(seq 300); do
  [ -s "$chromium_ws" ] && break
  kill -0 "$chromium_server" 2>/dev/null || break
  sleep 0.1
done
POSENC_CHROMIUM_WS=$(head -n 1 "$chromium_ws")
if [[ "$POSENC_CHROMIUM_WS" == ws://* ]]; then
  export POSENC_CHROMIUM_WS
else
  echo "the shared Chromium did not start: each browser test file starts its own" >&2
  unset POSENC_CHROMIUM_WS
fi
# Each file's output goes to its own log (and its exit status to a file beside it), printed
# below in the order above once all have run; meanwhile a line says when each file ended and how
# long it took.
printf '%s\0' "${files[@]}" | xargs -0 -P "$concurrency" -I{} bash -c '
  out="$0/${1//\//_}"
  start=$SECONDS
  node --test --test-timeout="$2" "$1" >"$out.log" 2>&1
  rc=$?
  echo "$rc" >"$out.rc"
  printf "   %3d s  %s%s\n" $((SECONDS - start)) "$1" "$([ "$rc" -eq 0 ] || echo "  (exit $rc)")"' "$file_logs" {} "$file_timeout" || true  # counted below
kill "$chromium_server" 2>/dev/null || true
wait "$chromium_server" 2>/dev/null || true
trap 'rm -rf "$log" "$native_log" "$file_logs"' EXIT
rm -f "$chromium_ws"
unset POSENC_CHROMIUM_WS
for f in "${files[@]}"; do
  cat "$file_logs/${f//\//_}.log" 2>/dev/null || echo "(no log from $f: it never ran)"
done >"$log"
phase "node:test done"
echo
cat "$log"
wait "$native" || true  # counted from its log
phase "native suites done"
echo
echo "== the native doctest suites, built and run beside the browser tests:"
cat "$native_log"
count_doctest "$native_log" 2
# A test that cannot run here says why and is counted as skipped, never as passed.
skipped=0
for f in "$log"; do
  passed=$((passed + $(grep -a '^# pass ' "$f" | awk '{s += $3} END {print s + 0}')))
  failed=$((failed + $(grep -a '^# fail ' "$f" | awk '{s += $3} END {print s + 0}')))
  skipped=$((skipped + $(grep -a '^# skipped ' "$f" | awk '{s += $3} END {print s + 0}')))
  # A cancelled test (its file timed out, or its parent failed) did not pass: it counts as failed.
  failed=$((failed + $(grep -a '^# cancelled ' "$f" | awk '{s += $3} END {print s + 0}')))
done
# A run that crashed before its summary counts as a failure, not as nothing.
# So does a file whose run ended in an error with no failure in its summary.
for f in "${files[@]}"; do
  out="$file_logs/${f//\//_}"
  rc=$(cat "$out.rc" 2>/dev/null || echo none)
  if ! grep -aqs '^# pass ' "$out.log"; then
    echo "no summary from $f: it crashed, was killed or never ran" >&2
    failed=$((failed + 1))
  elif [ "$rc" != 0 ] && ! grep -aqE '^# (fail|cancelled) [1-9]' "$out.log"; then
    echo "$f exited $rc with no failure in its summary" >&2
    failed=$((failed + 1))
  fi
done
echo
echo "tests: ${passed} passed, ${failed} failed$([ "$skipped" -gt 0 ] && echo ", ${skipped} skipped")"
[ "$failed" -eq 0 ]
