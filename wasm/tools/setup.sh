#!/usr/bin/env bash
# Installs what building and testing need, and nothing when it is all there (idempotent, quick).
# Debian's archive for the toolchain and Chromium; the npm registry for esbuild (bundling dist/)
# playwright-core (driving Debian's Chromium in the tests) and axe-core (the accessibility test).
# Usage: setup.sh            everything the tests need
#        setup.sh --build    only what building and serving need (no browser)
set -euo pipefail
cd "$(dirname "$0")/../.."

need=()
have() { command -v "$1" >/dev/null 2>&1; }
pkg_missing() { ! dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

have em++ || need+=(emscripten)
have cmake || need+=(cmake)
have ninja || need+=(ninja-build)
have g++ || need+=(g++)
have wasm-objdump || need+=(wabt)
pkg_missing libeigen3-dev && need+=(libeigen3-dev)
pkg_missing doctest-dev && need+=(doctest-dev)
if [ "${1:-}" != "--build" ]; then
  have chromium || need+=(chromium)
  # Only for `npm run bench`'s NumPy column: Debian's numpy for Debian's python3.
  pkg_missing python3-numpy && need+=(python3-numpy)
fi

if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]} from Debian's archive"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi

if [ ! -f node_modules/playwright-core/package.json ] || [ ! -f node_modules/esbuild/package.json ] ||
   [ ! -f node_modules/axe-core/axe.min.js ]; then
  echo "setup: installing npm dev dependencies"
  npm ci --no-audit --no-fund --loglevel=error
fi
