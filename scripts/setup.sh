#!/usr/bin/env bash
# Sets up a Debian 12 machine for profscope and builds everything. Idempotent:
# when everything is present it only runs the (incremental) build.
#
#   1. apt packages (only the missing ones; apt-get update only then)
#   2. npm ci       (when node_modules is missing or older than package-lock.json)
#   3. the C libraries for WASM, once (scripts/build-wasm-deps.sh: libzstd, zlib)
#   4. native + WASM + web builds (scripts/build.sh)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export DEBIAN_FRONTEND=noninteractive
export NODE_PATH=/usr/share/nodejs
# Never let Playwright fetch browsers: the tests use Debian's chromium.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

log() { printf '[setup] %s\n' "$*" >&2; }
t0=$(date +%s)

# ---- 1. apt packages -------------------------------------------------------------
# clang-14 + libclang-rt-14-dev: the libFuzzer targets (fuzz/run.sh, part of npm run test)
# binutils + libc6-dbg: the unwinding corpus test repeats each libc frame once per inline
# level perf adds for it, which perf (built without libbfd) gets from binutils' addr2line
# on libc6-dbg's debug file, as the references were made
APT_PACKAGES=(emscripten cmake ninja-build g++ pkg-config libgtest-dev libbenchmark-dev
  libzstd-dev zlib1g-dev libprotozero-dev zstd chromium clang-14 libclang-rt-14-dev
  binutils libc6-dbg)
missing=()
for p in "${APT_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if [[ ${#missing[@]} -gt 0 ]]; then
  SUDO=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { log "need root (or sudo) to install: ${missing[*]}"; exit 1; }
    SUDO=(sudo -E)
  fi
  log "installing apt packages: ${missing[*]}"
  "${SUDO[@]}" apt-get update -qq
  # with Recommends (fonts-liberation for chromium, as on the developers' machines)
  "${SUDO[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
else
  log "apt packages present"
fi

# ---- 2. npm dependencies ----------------------------------------------------------------
if [[ ! -d node_modules || ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  log "npm ci"
  npm ci --no-audit --no-fund --loglevel=error
else
  log "node_modules up to date"
fi

# ---- 3. C libraries for WASM, from Debian's source packages (once) ----------------------------
bash scripts/build-wasm-deps.sh

# ---- 4. build -------------------------------------------------------------------------------
bash scripts/build.sh
log "done in $(( $(date +%s) - t0 ))s"
