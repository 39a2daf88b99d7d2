#!/usr/bin/env bash
# `npm run perf`: how fast the page updates, measured and printed, never asserted. Every step's
# update times in Chromium, Firefox and WebKit with nothing else running (tests/quiet/: seeded
# control changes one frame apart, the attention step at 2,048 tokens over three page loads, the
# page's main thread pinned to a core of its own), then the per-engine tables against the
# budgets (tests/browser/perf-report.mjs): 8 ms p95 per update, 16 ms for the attention step. The
# tables from the last `npm test` (the browsers beside the other tests, the train step's main
# thread, the soak) are printed with them when tests/out/perf/ holds them. Then the time to each
# of the six idea steps' first number, over loopback and over a phone connection
# (tests/bench/first-screen.mjs). Leave the machine
# alone while it runs: a busy core shows up as slow updates.
set -euo pipefail
cd "$(dirname "$0")/.."
bash wasm/tools/setup.sh
bash wasm/tools/build.sh
node web/tools/build-dist.mjs >/dev/null
rm -rf tests/out/perf/quiet
node tests/quiet/host-speed.mjs || true  # one core's speed, printed above the tables (a gauge)
POSENC_PERF_SET=quiet node --test tests/quiet/
echo
node tests/browser/perf-report.mjs
# The first screen of the six steps of the idea, over loopback and a phone connection.
node tests/bench/first-screen.mjs
