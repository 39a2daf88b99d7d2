#!/usr/bin/env bash
# `npm pack` / `npm publish` run this first (package.json "prepack"): the tarball must carry the
# built modules, and wasm/dist/ is gitignored, so a fresh clone has none. Building is incremental
# (well under a second when nothing changed), so it always runs: the package then holds modules
# built from these sources, not stale ones. If the build cannot run, npm pack stops here with the
# reason instead of writing a package without its modules.
set -euo pipefail
cd "$(dirname "$0")/../.."

# The modules the package's "files" list names (package.json): the core's and the trainer's
# two builds each. The Lab's posenc-lab.* is not part of the package.
modules=()
for stem in posenc posenc-train; do
  for variant in simd scalar; do
    modules+=("wasm/dist/$stem-$variant.mjs" "wasm/dist/$stem-$variant.wasm")
  done
done

if ! { bash wasm/tools/setup.sh --build && bash wasm/tools/build.sh --core; } >&2; then
  echo "prepack: building the WebAssembly modules failed (see above); no package written." >&2
  echo "prepack: 'npm run build' builds them; then run npm pack again." >&2
  exit 1
fi

missing=()
for f in "${modules[@]}"; do
  # A .wasm must start with the 4-byte magic "\0asm"; an empty or truncated file is as bad as none.
  if [ ! -s "$f" ] || { [[ $f == *.wasm ]] && [ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" != '\0asm' ]; }; then
    missing+=("$f")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "prepack: the build left these modules missing or empty: ${missing[*]}; no package written." >&2
  exit 1
fi
