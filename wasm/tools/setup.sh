#!/usr/bin/env bash
# Installs what building and testing need, and nothing when it is all there (idempotent, quick).
# Debian's archive for the toolchain and Chromium; the npm registry for esbuild (bundling dist/)
# playwright-core (driving Debian's Chromium in the tests), puppeteer-core (driving Debian's Firefox)
# and axe-core (the accessibility test).
# Usage: setup.sh            everything the tests need
#        setup.sh --build    only what building and serving need (no browser)
set -euo pipefail
cd "$(dirname "$0")/../.."

need=()
lean=()  # installed without their recommends (torch's would pull in hundreds of MB more)
have() { command -v "$1" >/dev/null 2>&1; }
pkg_missing() { ! dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

have em++ || need+=(emscripten)
have cmake || need+=(cmake)
have ninja || need+=(ninja-build)
have g++ || need+=(g++)
pkg_missing libeigen3-dev && need+=(libeigen3-dev)
pkg_missing doctest-dev && need+=(doctest-dev)
# The Lab (wasm/lab/): Dear ImGui and GLFW for its desktop build, dpkg-dev to unpack Dear ImGui's
# source package for its WebAssembly build.
pkg_missing libimgui-dev && need+=(libimgui-dev)
pkg_missing libglfw3-dev && need+=(libglfw3-dev)
have dpkg-source || need+=(dpkg-dev)
# The Lab's font (Latin and Cyrillic for the page's four languages): DejaVu Sans, cut down at build
# time by fontTools' subsetter, run by Debian's own python3 (wasm/lab/lab.cmake).
pkg_missing fonts-dejavu-core && need+=(fonts-dejavu-core)
pkg_missing python3-fonttools && need+=(python3-fonttools)
if [ "${1:-}" != "--build" ]; then
  have chromium || need+=(chromium)
  # The cross-engine tests (tests/engines/): Firefox, driven over WebDriver BiDi, and WebKit, Safari's
  # engine (WebKitWebDriver launching MiniBrowser, which libwebkit2gtk-4.1-0 ships), both under Xvfb.
  have firefox-esr || need+=(firefox-esr)
  have WebKitWebDriver || need+=(webkit2gtk-driver)
  # The native suite under AddressSanitizer + UndefinedBehaviorSanitizer is built with Clang and
  # its sanitizer runtimes (build.sh --native-tests).
  have clang++ || need+=(clang)
  pkg_missing libclang-rt-dev && need+=(libclang-rt-dev)
  # Only for `npm run bench`'s NumPy column: Debian's numpy for Debian's python3.
  pkg_missing python3-numpy && need+=(python3-numpy)
  # The code step's test runs every NumPy and PyTorch snippet the page shows with Debian's python3;
  # the trainer's parity test and bench use the same torch.
  pkg_missing python3-torch && lean+=(python3-torch)
  # The training bench times PyTorch with OpenBLAS as well as with Debian's reference BLAS.
  pkg_missing libopenblas0-pthread && lean+=(libopenblas0-pthread)
  # The desktop Lab's test: a virtual X display and Mesa's software OpenGL.
  have xvfb-run || need+=(xvfb)
  have xauth || need+=(xauth)
  pkg_missing libgl1-mesa-dri && need+=(libgl1-mesa-dri)
fi

if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]} from Debian's archive"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
if [ ${#lean[@]} -gt 0 ]; then
  echo "setup: installing ${lean[*]} from Debian's archive (without recommends)"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  [ ${#need[@]} -gt 0 ] || $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${lean[@]}" >/dev/null
fi

# Dear ImGui's sources for the Lab's WebAssembly build: Debian's source package, unpacked into
# build/imgui-src/imgui (gitignored), only when missing. `apt-get source` needs a deb-src entry,
# added once for the system's own suite.
imgui_dir=build/imgui-src/imgui
if [ ! -f "$imgui_dir/imgui.cpp" ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  if ! grep -rqsE '^(deb-src |Types:.*deb-src)' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
    echo "setup: adding a deb-src entry for Debian $suite (for apt-get source imgui)"
    printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
      "$suite" | $SUDO tee /etc/apt/sources.list.d/posenc-deb-src.sources >/dev/null
    $SUDO apt-get update -qq
  fi
  echo "setup: fetching Dear ImGui's sources (apt-get source imgui) into build/imgui-src/"
  rm -rf build/imgui-src
  mkdir -p build/imgui-src
  (cd build/imgui-src && apt-get source -qq --download-only imgui 2>/dev/null ||
     { $SUDO apt-get update -qq && apt-get source -qq --download-only imgui; })
  # (dpkg-source cannot check the .dsc's signature without debian-keyring and says so; apt has
  # already checked the files against the archive's signed index.)
  (cd build/imgui-src && dpkg-source -x imgui_*.dsc imgui.tmp >/dev/null 2>&1 && mv imgui.tmp imgui) ||
    { echo "setup: could not unpack Dear ImGui's source package" >&2; exit 1; }
fi

if [ ! -f node_modules/playwright-core/package.json ] || [ ! -f node_modules/esbuild/package.json ] ||
   [ ! -f node_modules/axe-core/axe.min.js ] || [ ! -f node_modules/puppeteer-core/package.json ]; then
  echo "setup: installing npm dev dependencies"
  npm ci --no-audit --no-fund --loglevel=error
fi
