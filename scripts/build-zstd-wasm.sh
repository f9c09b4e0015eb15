#!/usr/bin/env bash
# Builds a static, decompression-only libzstd for WebAssembly with emcc, from
# Debian's own source package (the same version as the native libzstd-dev).
#
#   output: build/zstd-wasm/lib/libzstd.a
#           build/zstd-wasm/include/{zstd.h,zstd_errors.h}
#   cache:  build/third_party/ (the unpacked Debian source; never committed)
#
# Skips everything when the output already exists (FORCE=1 rebuilds).
# Needs root for apt (adds a deb-src entry mirroring the existing apt sources).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$ROOT/build/zstd-wasm"
CACHE="$ROOT/build/third_party"
export NODE_PATH=/usr/share/nodejs
export DEBIAN_FRONTEND=noninteractive

log() { printf '[zstd-wasm] %s\n' "$*" >&2; }
# apt and /etc/apt need root; use sudo when not root.
as_root() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo -E "$@"; fi; }

if [[ "${FORCE:-0}" != 1 && -f "$OUT/lib/libzstd.a" && -f "$OUT/include/zstd.h" && -f "$OUT/include/zstd_errors.h" ]]; then
  log "already built: $OUT/lib/libzstd.a"
  exit 0
fi

command -v emcc >/dev/null || { log "emcc not found (apt-get install emscripten)"; exit 1; }

# The source package that builds libzstd-dev ("libzstd" on Debian 12).
SRC_PKG="$(apt-cache show libzstd-dev 2>/dev/null | sed -n 's/^Source: *\([^ ]*\).*/\1/p' | head -n1)"
SRC_PKG="${SRC_PKG:-libzstd}"

# ---- 1. make sure apt knows the source package (deb-src entry) ----------------
have_src() { apt-cache showsrc "$SRC_PKG" 2>/dev/null | grep -q '^Package:'; }

add_deb_src() {
  local codename
  # shellcheck disable=SC1091
  codename="$(. /etc/os-release && echo "${VERSION_CODENAME:-}")"
  [[ -n "$codename" ]] || { log "cannot tell the Debian codename from /etc/os-release"; exit 1; }

  # deb822 sources (*.sources): copy every enabled "Types: deb" stanza whose
  # suites are this release (bookworm, bookworm-updates, bookworm-security)
  # as a "Types: deb-src" stanza.
  local deb822="" f
  for f in /etc/apt/sources.list.d/*.sources; do
    [[ -f "$f" && "$(basename "$f")" != profscope-deb-src.sources ]] || continue
    deb822+="$(awk -v cn="$codename" '
      BEGIN { RS=""; ORS="\n\n" }
      {
        n = split($0, L, "\n"); types=""; suites=""; enabled="yes"
        for (i = 1; i <= n; i++) {
          if (L[i] ~ /^Types:/)   { types = L[i];  sub(/^Types:[ \t]*/, "", types) }
          if (L[i] ~ /^Suites:/)  { suites = L[i]; sub(/^Suites:[ \t]*/, "", suites) }
          if (L[i] ~ /^Enabled:/) { enabled = L[i]; sub(/^Enabled:[ \t]*/, "", enabled) }
        }
        if (enabled == "no") next
        nt = split(types, T, /[ \t]+/); isdeb = 0
        for (i = 1; i <= nt; i++) if (T[i] == "deb") isdeb = 1
        ns = split(suites, S, /[ \t]+/); ours = 0
        for (i = 1; i <= ns; i++) if (S[i] == cn || index(S[i], cn "-") == 1) ours = 1
        if (!isdeb || !ours) next
        out = ""
        for (i = 1; i <= n; i++) {
          line = L[i]
          if (line ~ /^Types:/) line = "Types: deb-src"
          out = out line "\n"
        }
        printf "%s\n", out
      }' "$f")"$'\n'
  done

  # one-line sources (sources.list, *.list): "deb [opts] URI SUITE COMPONENTS..."
  local oneline
  oneline="$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | awk -v cn="$codename" '
    $1 == "deb" {
      i = 2
      if ($2 ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
      suite = $(i + 1)
      if (suite == cn || index(suite, cn "-") == 1) { sub(/^deb/, "deb-src"); print }
    }' || true)"

  if [[ -n "${deb822//[$'\n' ]/}" ]]; then
    printf '# Added by profscope scripts/build-zstd-wasm.sh: source packages of the same mirrors.\n%s' "$deb822" \
      | as_root tee /etc/apt/sources.list.d/profscope-deb-src.sources >/dev/null
    log "wrote /etc/apt/sources.list.d/profscope-deb-src.sources"
  fi
  if [[ -n "$oneline" ]]; then
    printf '# Added by profscope scripts/build-zstd-wasm.sh\n%s\n' "$oneline" \
      | as_root tee /etc/apt/sources.list.d/profscope-deb-src.list >/dev/null
    log "wrote /etc/apt/sources.list.d/profscope-deb-src.list"
  fi
  if [[ -z "${deb822//[$'\n' ]/}" && -z "$oneline" ]]; then
    log "found no Debian '$codename' apt source to mirror as deb-src"; exit 1
  fi
}

# ---- 2. fetch + unpack the source once -----------------------------------------
SRC_DIR="$(find "$CACHE" -maxdepth 1 -type d -name "${SRC_PKG}-*" 2>/dev/null | sort | tail -n1 || true)"
if [[ -z "$SRC_DIR" || ! -f "$SRC_DIR/lib/zstd.h" ]]; then
  if ! have_src; then
    add_deb_src
    log "apt-get update"
    as_root apt-get update -qq
    have_src || { log "apt still has no source package '$SRC_PKG'"; exit 1; }
  fi
  # apt-get source unpacks with dpkg-source (package dpkg-dev).
  if ! command -v dpkg-source >/dev/null; then
    log "installing dpkg-dev (for dpkg-source)"
    as_root apt-get install -y -qq --no-install-recommends dpkg-dev >/dev/null
  fi
  mkdir -p "$CACHE"
  log "apt-get source $SRC_PKG -> $CACHE"
  # apt's _apt sandbox user may not write here; run the download as root quietly.
  (cd "$CACHE" && apt-get source -qq -o APT::Sandbox::User=root "$SRC_PKG" >/dev/null)
  SRC_DIR="$(find "$CACHE" -maxdepth 1 -type d -name "${SRC_PKG}-*" | sort | tail -n1)"
  [[ -f "$SRC_DIR/lib/zstd.h" ]] || { log "unpacked source has no lib/zstd.h ($SRC_DIR)"; exit 1; }
fi
log "source: $SRC_DIR"

# ---- 3. compile lib/common + lib/decompress with emcc ----------------------------
OBJ="$ROOT/build/zstd-wasm/obj"
rm -rf "${OBJ:?}" "${OUT:?}/lib" "${OUT:?}/include"
mkdir -p "$OBJ" "$OUT/lib" "$OUT/include"

CFLAGS=(-O2 -DNDEBUG
  -DZSTD_DISABLE_ASM=1 -DZSTD_NO_INTRINSICS=1
  -DZSTD_LEGACY_SUPPORT=0
  -DXXH_NAMESPACE=ZSTD_ -DDEBUGLEVEL=0
  -I"$SRC_DIR/lib" -I"$SRC_DIR/lib/common")

mapfile -t SOURCES < <(ls "$SRC_DIR"/lib/common/*.c "$SRC_DIR"/lib/decompress/*.c)
log "compiling ${#SOURCES[@]} files"
export OBJ
# shellcheck disable=SC2016  # $1/$@ expand in the inner sh
printf '%s\n' "${SOURCES[@]}" | xargs -P "$(nproc)" -I{} sh -c '
  src="$1"; shift
  name="$(basename "$(dirname "$src")")_$(basename "$src" .c).o"
  emcc "$@" -c "$src" -o "$OBJ/$name"' _ {} "${CFLAGS[@]}"

emar rcs "$OUT/lib/libzstd.a" "$OBJ"/*.o
cp "$SRC_DIR/lib/zstd.h" "$SRC_DIR/lib/zstd_errors.h" "$OUT/include/"
rm -rf "$OBJ"
log "built $OUT/lib/libzstd.a ($(stat -c %s "$OUT/lib/libzstd.a") bytes)"
