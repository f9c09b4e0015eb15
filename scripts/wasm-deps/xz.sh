#!/usr/bin/env bash
# liblzma for WebAssembly (decoders only: .tar.xz side files, xz-compressed
# kernel modules), from Debian's source package of liblzma-dev (xz-utils):
# build/xz-wasm/lib/liblzma.a + include/{lzma.h,lzma/*.h}.
DEP_NAME=xz
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
OUT="$ROOT/build/xz-wasm"
already_built "$OUT/lib/liblzma.a" "$OUT/include/lzma.h" && { log "already built"; exit 0; }
PKG="$(source_of liblzma-dev)"
fetch_source "${PKG:-xz-utils}" src/liblzma/api/lzma.h
L="$SRC_DIR/src/liblzma"
# What configure would find for a single-threaded, decoder-only wasm32 build.
DEFS=(-DHAVE_STDBOOL_H=1 -DHAVE__BOOL=1 -DHAVE_STDINT_H=1 -DHAVE_INTTYPES_H=1 -DSIZEOF_SIZE_T=4
  -DHAVE_CHECK_CRC32=1 -DHAVE_CHECK_CRC64=1 -DHAVE_CHECK_SHA256=1 -DHAVE_INTERNAL_SHA256=1
  -DHAVE_DECODER_LZMA1=1 -DHAVE_DECODER_LZMA2=1 -DHAVE_DECODER_DELTA=1 -DHAVE_DECODER_X86=1
  -DHAVE_DECODER_ARM=1 -DHAVE_DECODER_ARMTHUMB=1 -DHAVE_DECODER_ARM64=1 -DHAVE_DECODER_POWERPC=1
  -DHAVE_DECODER_IA64=1 -DHAVE_DECODER_SPARC=1 -DHAVE_LZIP_DECODER=1 -DMYTHREAD_ENABLED=0
  -DTUKLIB_SYMBOL_PREFIX=lzma_)
compile_static "$OUT" liblzma.a -O2 -DNDEBUG "${DEFS[@]}" -I"$L/api" -I"$L/common" -I"$L/check" -I"$L/lz" \
  -I"$L/rangecoder" -I"$L/lzma" -I"$L/delta" -I"$L/simple" -I"$SRC_DIR/src/common" \
  -- "$L"/common/{common,block_util,block_decoder,block_header_decoder,filter_common,filter_decoder,filter_flags_decoder,index,index_hash,index_decoder,stream_decoder,stream_flags_common,stream_flags_decoder,vli_decoder,vli_size,auto_decoder,alone_decoder,lzip_decoder,easy_preset,stream_buffer_decoder}.c \
  "$L"/check/{check,crc32_fast,crc32_table,crc64_fast,crc64_table,sha256}.c \
  "$L"/lz/lz_decoder.c "$L"/lzma/{lzma_decoder,lzma2_decoder}.c "$L"/delta/{delta_common,delta_decoder}.c \
  "$L"/simple/{simple_coder,simple_decoder,x86,arm,armthumb,arm64,powerpc,ia64,sparc}.c
cp "$L/api/lzma.h" "$OUT/include/"
cp -r "$L/api/lzma" "$OUT/include/"
