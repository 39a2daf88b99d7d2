#!/usr/bin/env bash
# Builds the two browser modules (SIMD, scalar), the trainer's two (posenc-train-*), the native
# trainer (build/native/posenc-train) and the Lab (wasm/lab/: posenc-lab-simd/-scalar .mjs/.wasm)
# into wasm/dist/, the desktop Lab (build/native/posenc-lab) and, with --tests, the native and
# wasm doctest suites. Incremental: a second run with nothing changed takes about a second.
# Flags live in CMakeLists.txt; this only names build directories.
# Usage: build.sh                everything the page and the Lab need
#        build.sh --tests        that, and the doctest suites
#        build.sh --wasm-tests   that, and only the WebAssembly doctest suite
#        build.sh --native-tests the native doctest suite (the bench binary only with --tests; the
#                                desktop Lab and trainer CLI are built above) and the sanitized doctest
#                                suite, touching nothing in build/wasm: npm test builds them beside
#                                its browser tests, one of which packs the wasm modules
#        build.sh --native-plain the plain native doctest suite alone (npm run test:quick)
#        build.sh --core     only the core's and the trainer's modules (what the npm package
#                            carries): needs neither Dear ImGui's sources nor GLFW
set -euo pipefail
cd "$(dirname "$0")/../.."
jobs=$(nproc 2>/dev/null || echo 2)

configure_wasm() {
  [ -f build/wasm/build.ninja ] && return
  # emcmake sets an emulator Node 20 rejects (docs/toolchain.md, trap 4): name plain node instead.
  emcmake cmake -S . -B build/wasm -G Ninja -DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node >/dev/null
}
configure_native() {  # $1 build dir, rest: extra cmake args
  local dir=$1; shift
  [ -f "$dir/build.ninja" ] && return
  cmake -S . -B "$dir" -G Ninja "$@" >/dev/null
}

native_plain() {  # extra targets for build/native
  configure_native build/native -DCMAKE_CXX_COMPILER=g++
  cmake --build build/native -j "$jobs" --target posenc-core-tests "$@"
}
native_tests() {  # extra targets for build/native
  native_plain "$@"
  # The sanitized suite with Clang, the plain one with g++, so the core is compiled by both:
  # Clang compiled it in 84 s of CPU where g++ took 130 s (Eigen's templates in core/train/, at
  # -O1 with both sanitizers), and npm test builds it beside its browser tests. A folder set up
  # for another compiler is set up again (CMake keeps the compiler it first found).
  if ! grep -qs '^CMAKE_CXX_COMPILER:.*clang++' build/native-sanitize/CMakeCache.txt; then rm -rf build/native-sanitize; fi
  configure_native build/native-sanitize -DPOSENC_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++
  cmake --build build/native-sanitize -j "$jobs" --target posenc-core-tests
}
if [ "${1:-}" = "--native-tests" ]; then
  native_tests
  exit 0
fi
if [ "${1:-}" = "--native-plain" ]; then
  native_plain
  exit 0
fi

# The bindings' field table, posenc.d.ts's API and docs/api.md's API table come from
# wasm/schema.js; unchanged files keep their mtime, so nothing rebuilds when the schema did not change.
node wasm/tools/gen-api.mjs
configure_wasm
if [ "${1:-}" = "--core" ]; then
  cmake --build build/wasm -j "$jobs" --target posenc-simd posenc-scalar posenc-train-simd posenc-train-scalar
  exit 0
fi

if [ ! -f build/imgui-src/imgui/imgui.cpp ]; then
  echo "build: the Lab needs Dear ImGui's sources in build/imgui-src/: run wasm/tools/setup.sh (or build.sh --core for the core alone)" >&2
  exit 1
fi
# posenc-lab: the Lab (wasm/lab/) for web/lab.html, into wasm/dist/ beside the modules. The wasm
# doctest suite, when asked for, in the same ninja run: its compiles fill the cores while the
# modules' last links run alone.
wasm_targets=(posenc-simd posenc-scalar posenc-train-simd posenc-train-scalar posenc-lab)
case "${1:-}" in --tests | --wasm-tests) wasm_targets+=(posenc-core-tests-simd) ;; esac
cmake --build build/wasm -j "$jobs" --target "${wasm_targets[@]}"
# The Lab's desktop build (GLFW + OpenGL 3): build/native/posenc-lab.
configure_native build/native -DCMAKE_CXX_COMPILER=g++
cmake --build build/native -j "$jobs" --target posenc-lab posenc-train
# The family registry as JavaScript (wasm/families.gen.js), and what gen-api derives from it
# (posenc.d.ts's family unions): a family added to the registry reaches both in this build.
node wasm/tools/gen-families.mjs && node wasm/tools/gen-api.mjs

if [ "${1:-}" = "--tests" ]; then
  native_tests posenc-bench-native
  # The 4-lane peak the training bench compares with (x86-64 only: CMakeLists.txt).
  case "$(uname -m)" in x86_64 | amd64) cmake --build build/native --target posenc-simd-peak ;; esac
fi
