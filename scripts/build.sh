#!/usr/bin/env bash
# Builds everything, incrementally:
#   1. native  (build/native):     libprofscope_core, build/native/profscope, profscope_tests
#   2. WASM    (build/wasm-build): build/wasm/profscope_wasm.{mjs,wasm}
#   3. web     (web/dist):         vite build of web/
# Needs the tools scripts/setup.sh installs (and the build/<lib>-wasm C
# libraries from scripts/build-wasm-deps.sh for step 2).
#
#   bash scripts/build.sh            all three
#   bash scripts/build.sh native     only one step (native|wasm|web); several may be given
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export NODE_PATH=/usr/share/nodejs   # Debian's emscripten finds its node modules (acorn) here

steps=("$@")
[[ ${#steps[@]} -gt 0 ]] || steps=(native wasm web)

step() { printf '\n== %s ==\n' "$*" >&2; }
now() { date +%s; }

build_native() {
  step "native build (build/native)"
  local t; t=$(now)
  cmake -S . -B build/native -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build build/native
  # for clangd and friends (the symlink is git-ignored)
  ln -sfn build/native/compile_commands.json compile_commands.json
  echo "native build: $(( $(now) - t ))s" >&2
}

build_wasm() {
  step "WASM build (build/wasm-build -> build/wasm)"
  local t; t=$(now)
  bash scripts/build-wasm-deps.sh   # each library is built once
  emcmake cmake -S . -B build/wasm-build -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DPROFSCOPE_WASM=ON >/dev/null
  cmake --build build/wasm-build
  [[ -f build/wasm/profscope_wasm.mjs && -f build/wasm/profscope_wasm.wasm ]] || {
    echo "WASM build did not produce build/wasm/profscope_wasm.{mjs,wasm}" >&2; exit 1; }
  echo "WASM build: $(( $(now) - t ))s" >&2
}

build_web() {
  step "web build (web -> web/dist)"
  if ! compgen -G "web/vite.config.*" >/dev/null; then
    echo "no web/vite.config.* yet: web build skipped" >&2
    return 0
  fi
  local t; t=$(now)
  if node -e 'process.exit(require("./package.json").scripts?.["build:web"] ? 0 : 1)'; then
    npm run --silent build:web
  else
    npx --no-install vite build web
  fi
  echo "web build: $(( $(now) - t ))s" >&2
}

for s in "${steps[@]}"; do
  case "$s" in
    native) build_native ;;
    wasm) build_wasm ;;
    web) build_web ;;
    *) echo "unknown step '$s' (native|wasm|web)" >&2; exit 2 ;;
  esac
done
