#!/usr/bin/env bash
# libzstd for WebAssembly (decompression only), from Debian's source package of
# libzstd-dev: build/zstd-wasm/lib/libzstd.a + include/{zstd.h,zstd_errors.h}.
DEP_NAME=zstd
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
OUT="$ROOT/build/zstd-wasm"
already_built "$OUT/lib/libzstd.a" "$OUT/include/zstd.h" "$OUT/include/zstd_errors.h" && { log "already built"; exit 0; }
PKG="$(source_of libzstd-dev)"
fetch_source "${PKG:-libzstd}" lib/zstd.h
compile_static "$OUT" libzstd.a -O2 -DNDEBUG -DZSTD_DISABLE_ASM=1 -DZSTD_NO_INTRINSICS=1 -DZSTD_LEGACY_SUPPORT=0 \
  -DXXH_NAMESPACE=ZSTD_ -DDEBUGLEVEL=0 -I"$SRC_DIR/lib" -I"$SRC_DIR/lib/common" \
  -- "$SRC_DIR"/lib/common/*.c "$SRC_DIR"/lib/decompress/*.c
cp "$SRC_DIR/lib/zstd.h" "$SRC_DIR/lib/zstd_errors.h" "$OUT/include/"
