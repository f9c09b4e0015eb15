#!/usr/bin/env bash
# Builds the C libraries the WASM module links, each from Debian's source
# package (the same library the native build links from its -dev package):
# one script per library in scripts/wasm-deps/ (output build/<name>-wasm/).
# Each skips itself when its output exists (FORCE=1 rebuilds).
#
#   bash scripts/build-wasm-deps.sh          every library
#   bash scripts/build-wasm-deps.sh zlib     only the ones named
set -euo pipefail
DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/wasm-deps"
deps=("$@")
if [[ ${#deps[@]} -eq 0 ]]; then
  for f in "$DIR"/*.sh; do [[ "$(basename "$f")" == common.sh ]] || deps+=("$(basename "$f" .sh)"); done
fi
for d in "${deps[@]}"; do bash "$DIR/$d.sh"; done
