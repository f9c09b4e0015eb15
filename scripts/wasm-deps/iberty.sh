#!/usr/bin/env bash
# libiberty's demanglers for WebAssembly (perf 6.1 names C++/Rust/D symbols
# with libiberty's cplus_demangle(name, DMGL_NO_OPTS)), from Debian's source
# package of libiberty-dev: build/iberty-wasm/lib/libiberty.a +
# include/libiberty/{demangle.h,libiberty.h,ansidecl.h}.
DEP_NAME=iberty
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
OUT="$ROOT/build/iberty-wasm"
already_built "$OUT/lib/libiberty.a" "$OUT/include/libiberty/demangle.h" && { log "already built"; exit 0; }
PKG="$(source_of libiberty-dev)"
fetch_source "${PKG:-libiberty}" libiberty/cp-demangle.c
L="$SRC_DIR/libiberty"
# What configure would find on a wasm32 libc (emscripten's musl).
mkdir -p "$OUT/cfg"
printf '%s\n' '#define HAVE_STDLIB_H 1' '#define HAVE_STRING_H 1' '#define HAVE_LIMITS_H 1' \
  '#define HAVE_UNISTD_H 1' '#define HAVE_STDINT_H 1' '#define HAVE_INTTYPES_H 1' '#define HAVE_ALLOCA_H 1' \
  '#define STDC_HEADERS 1' '#define HAVE_DECL_BASENAME 1' > "$OUT/cfg/config.h"
compile_static "$OUT" libiberty.a -O2 -DNDEBUG -DHAVE_CONFIG_H -I"$OUT/cfg" -I"$SRC_DIR/include" \
  -- "$L"/{cp-demangle,cplus-dem,rust-demangle,d-demangle,safe-ctype,xmalloc,xstrdup,xexit}.c
rm -rf "$OUT/cfg"
mkdir -p "$OUT/include/libiberty"
cp "$SRC_DIR"/include/{demangle.h,libiberty.h,ansidecl.h} "$OUT/include/libiberty/"
