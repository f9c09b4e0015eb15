#!/usr/bin/env bash
# Sets up a Debian 12 machine for profscope and builds everything. Idempotent:
# when everything is present it only runs the (incremental) build.
#
#   1. apt packages (only the missing ones; apt-get update only then)
#   2. npm ci       (when node_modules was not installed from this package-lock.json)
#   3. the C libraries for WASM, once (scripts/build-wasm-deps.sh: libzstd, zlib, libbz2, liblzma, libiberty,
#                   libtraceevent)
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
# libc6-dbg: libc's and ld.so's debug files, which perf named their frames from in the corpus
# references (tests pass them as side files with libc.so.6 and ld-linux-x86-64.so.2); the
# unwinding corpus test also repeats each libc frame once per inline level perf added for it,
# from binutils' addr2line on that debug file (perf 6.1 without libbfd runs addr2line)
# time: /usr/bin/time measures the hostile-input set's peak memory (tests/node/hostile.test.mjs)
# xz-utils: scripts/wasm-deps/traceevent.sh unpacks the kernel tree's libtraceevent from
#   linux-source-6.1's .tar.xz when Debian's libtraceevent source package cannot be fetched
# bzip2: the hostile-input set unpacks a perf archive tarball to make a lying one (make-hostile-formats.mjs)
# golang-go: `go tool pprof` reads the pprof exports in npm run test (tests/node/export.test.mjs;
#   the pprof tool ships prebuilt with Go: offline, no module download)
APT_PACKAGES=(emscripten cmake ninja-build g++ pkg-config libgtest-dev libbenchmark-dev
  libzstd-dev zlib1g-dev libbz2-dev liblzma-dev libiberty-dev libtraceevent-dev libc6-dbg libprotozero-dev zstd
  chromium clang-14 libclang-rt-14-dev golang-go binutils time bzip2 xz-utils)
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
# The install is stamped with the lock file's hash (not its mtime: a fresh
# clone or a git worktree sharing node_modules has a newer lock file with the
# same content, and must not reinstall).
lock_hash="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [[ ! -d node_modules || "$(cat node_modules/.profscope-lock-hash 2>/dev/null)" != "$lock_hash" ]]; then
  log "npm ci"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$lock_hash" > node_modules/.profscope-lock-hash
else
  log "node_modules up to date"
fi

# ---- 3. C libraries for WASM, from Debian's source packages (once) ----------------------------
bash scripts/build-wasm-deps.sh

# ---- 4. build -------------------------------------------------------------------------------
bash scripts/build.sh
log "done in $(( $(date +%s) - t0 ))s"
