#!/usr/bin/env bash
# zlib for WebAssembly (inflate and deflate: compressed ELF sections, .tar.gz,
# gzip'ed pprof exports), from Debian's source package of zlib1g-dev:
# build/zlib-wasm/lib/libz.a + include/{zlib.h,zconf.h}.
DEP_NAME=zlib
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
OUT="$ROOT/build/zlib-wasm"
already_built "$OUT/lib/libz.a" "$OUT/include/zlib.h" "$OUT/include/zconf.h" && { log "already built"; exit 0; }
PKG="$(source_of zlib1g-dev)"
fetch_source "${PKG:-zlib}" zlib.h
compile_static "$OUT" libz.a -O2 -DNDEBUG -DHAVE_UNISTD_H -DHAVE_STDARG_H -I"$SRC_DIR" \
  -- "$SRC_DIR"/{adler32,compress,crc32,deflate,gzclose,gzlib,gzread,gzwrite,infback,inffast,inflate,inftrees,trees,uncompr,zutil}.c
cp "$SRC_DIR/zlib.h" "$SRC_DIR/zconf.h" "$OUT/include/"
