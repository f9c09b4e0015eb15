# Shared by scripts/wasm-deps/*.sh: fetch a Debian source package (the one the
# native -dev package is built from) and compile C sources with emcc into a
# static library. Sourced, not run. Third-party sources stay in build/third_party
# (never committed); outputs go to build/<name>-wasm/{lib,include}.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CACHE="$ROOT/build/third_party"
export NODE_PATH=/usr/share/nodejs
export DEBIAN_FRONTEND=noninteractive

log() { printf '[%s-wasm] %s\n' "${DEP_NAME:-dep}" "$*" >&2; }
# apt and /etc/apt need root; use sudo when not root.
as_root() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo -E "$@"; fi; }

# True when build/<name>-wasm already holds every file named (FORCE=1 rebuilds).
already_built() {
  [[ "${FORCE:-0}" != 1 ]] || return 1
  local f
  for f in "$@"; do [[ -f "$f" ]] || return 1; done
}

# The source package that builds a binary package ("libzstd-dev" -> "libzstd").
source_of() { apt-cache show "$1" 2>/dev/null | sed -n 's/^Source: *\([^ ]*\).*/\1/p' | head -n1; }

# ---- 1. make sure apt knows the source package (deb-src entry) ----------------

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
    printf '# Added by profscope scripts/wasm-deps/common.sh: source packages of the same mirrors.\n%s' "$deb822" \
      | as_root tee /etc/apt/sources.list.d/profscope-deb-src.sources >/dev/null
    log "wrote /etc/apt/sources.list.d/profscope-deb-src.sources"
  fi
  if [[ -n "$oneline" ]]; then
    printf '# Added by profscope scripts/wasm-deps/common.sh\n%s\n' "$oneline" \
      | as_root tee /etc/apt/sources.list.d/profscope-deb-src.list >/dev/null
    log "wrote /etc/apt/sources.list.d/profscope-deb-src.list"
  fi
  if [[ -z "${deb822//[$'\n' ]/}" && -z "$oneline" ]]; then
    log "found no Debian '$codename' apt source to mirror as deb-src"; exit 1
  fi
}


# fetch_source PKG MARKER: unpacks Debian's source package PKG into $CACHE once
# and sets SRC_DIR to it; MARKER is a path inside the tree proving it is whole.
fetch_source() {
  local pkg="$1" marker="$2"
  SRC_DIR="$(find "$CACHE" -maxdepth 1 -type d -name "${pkg}-*" 2>/dev/null | sort | tail -n1 || true)"
  if [[ -n "$SRC_DIR" && -e "$SRC_DIR/$marker" ]]; then log "source: $SRC_DIR"; return 0; fi
  command -v emcc >/dev/null || { log "emcc not found (apt-get install emscripten)"; exit 1; }
  if ! apt-cache showsrc "$pkg" 2>/dev/null | grep '^Package:' >/dev/null; then
    add_deb_src
    log "apt-get update"
    as_root apt-get update -qq
    apt-cache showsrc "$pkg" 2>/dev/null | grep '^Package:' >/dev/null || { log "apt still has no source package '$pkg'"; exit 1; }
  fi
  # apt-get source unpacks with dpkg-source (package dpkg-dev).
  if ! command -v dpkg-source >/dev/null; then
    log "installing dpkg-dev (for dpkg-source)"
    as_root apt-get install -y -qq --no-install-recommends dpkg-dev >/dev/null
  fi
  mkdir -p "$CACHE"
  log "apt-get source $pkg -> $CACHE"
  # apt's _apt sandbox user may not write here; run the download as root quietly.
  if ! (cd "$CACHE" && apt-get source -qq -o APT::Sandbox::User=root "$pkg" >/dev/null); then
    # The mirror may lack the newest version's source (a bookworm-security update whose binary it
    # serves): take the newest other version of the same source package that it has.
    local ver fetched=""
    for ver in $(apt-cache showsrc "$pkg" 2>/dev/null | sed -n 's/^Version: *//p' | sort -u -r -V); do
      log "apt-get source $pkg=$ver (the newest source could not be fetched)"
      if (cd "$CACHE" && apt-get source -qq -o APT::Sandbox::User=root "$pkg=$ver" >/dev/null); then
        fetched="$ver"; break
      fi
    done
    [[ -n "$fetched" ]] || { log "no version of source package '$pkg' could be fetched"; exit 1; }
    log "source package $pkg $fetched fetched (the newest, which the native build's library may be, was not)"
  fi
  SRC_DIR="$(find "$CACHE" -maxdepth 1 -type d -name "${pkg}-*" | sort | tail -n1)"
  [[ -e "$SRC_DIR/$marker" ]] || { log "unpacked source has no $marker ($SRC_DIR)"; exit 1; }
  log "source: $SRC_DIR"
}

# compile_static OUT LIBNAME CFLAGS... -- SOURCES...: emcc every source (in
# parallel) and archive them as OUT/lib/LIBNAME.
compile_static() {
  local out="$1" lib="$2"; shift 2
  local cflags=()
  while [[ $# -gt 0 && "$1" != "--" ]]; do cflags+=("$1"); shift; done
  shift
  local obj="$out/obj"
  rm -rf "${obj:?}" "${out:?}/lib" "${out:?}/include"
  mkdir -p "$obj" "$out/lib" "$out/include"
  log "compiling $# files"
  export obj
  # shellcheck disable=SC2016  # $1/$@ expand in the inner sh
  printf '%s\n' "$@" | xargs -P "$(nproc)" -I{} sh -c '
    src="$1"; shift
    name="$(basename "$(dirname "$src")")_$(basename "$src" .c).o"
    emcc "$@" -c "$src" -o "$obj/$name"' _ {} "${cflags[@]}"
  emar rcs "$out/lib/$lib" "$obj"/*.o
  rm -rf "$obj"
  log "built $out/lib/$lib ($(stat -c %s "$out/lib/$lib") bytes)"
}
