#!/usr/bin/env bash
# `npm run test:browser -- <step> [<step> ...] [--walks]`: one step's browser tests alone, in
# headless Chromium: tests/browser/<step>.test.js, and with --walks the whole-page walks
# (accessibility, languages, touch, print, embeds, downloads) over those steps only
# (POSENC_STEPS, tests/browser/step-ids.js). Rebuilds what changed first, dist/ included (the
# browser tests open the built site). `npm test` runs every browser test over every step.
set -euo pipefail
cd "$(dirname "$0")/.."
steps=()
walks=0
for arg in "$@"; do
  case "$arg" in
    --walks) walks=1 ;;
    -*) echo "test:browser: unknown option $arg (usage: npm run test:browser -- <step> ... [--walks])" >&2; exit 2 ;;
    *) steps+=("$arg") ;;
  esac
done
[ ${#steps[@]} -gt 0 ] || { echo "usage: npm run test:browser -- <step> ... [--walks]" >&2; exit 2; }
files=()
for s in "${steps[@]}"; do
  [ -f "tests/browser/$s.test.js" ] || { echo "test:browser: no tests/browser/$s.test.js (steps: $(node -e "import('./tests/browser/step-ids.js').then((m) => console.log(m.ALL_STEP_IDS.join(' ')))"))" >&2; exit 2; }
  files+=("tests/browser/$s.test.js")
done
if [ "$walks" -eq 1 ]; then
  files+=(tests/browser/a11y.test.js tests/browser/locales.test.js tests/browser/touch.test.js
    tests/browser/print.test.js tests/browser/embed.test.js tests/browser/downloads.test.js)
fi
bash wasm/tools/setup.sh
bash wasm/tools/build.sh
node web/tools/build-dist.mjs >/dev/null
POSENC_STEPS=$(IFS=,; echo "${steps[*]}") node --test --test-concurrency=2 "${files[@]}"
