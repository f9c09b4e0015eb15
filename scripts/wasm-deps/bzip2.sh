#!/usr/bin/env bash
# libbz2 for WebAssembly (perf archive's perf.data.tar.bz2), from Debian's
# source package of libbz2-dev: build/bzip2-wasm/lib/libbz2.a + include/bzlib.h.
DEP_NAME=bzip2
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
OUT="$ROOT/build/bzip2-wasm"
already_built "$OUT/lib/libbz2.a" "$OUT/include/bzlib.h" && { log "already built"; exit 0; }
PKG="$(source_of libbz2-dev)"
fetch_source "${PKG:-bzip2}" bzlib.h
compile_static "$OUT" libbz2.a -O2 -DNDEBUG -D_FILE_OFFSET_BITS=64 -I"$SRC_DIR" \
  -- "$SRC_DIR"/{blocksort,huffman,crctable,randtable,compress,decompress,bzlib}.c
cp "$SRC_DIR/bzlib.h" "$OUT/include/"
