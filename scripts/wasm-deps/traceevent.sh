#!/usr/bin/env bash
# libtraceevent for WebAssembly (prints tracepoint payloads through their
# "print fmt", as perf script does), from Debian's source package of
# libtraceevent-dev: build/traceevent-wasm/lib/libtraceevent.a +
# include/{event-parse.h,trace-seq.h,kbuffer.h,event-utils.h}.
# When the source package cannot be fetched the WASM build goes on without
# it (tracepoint payloads are then printed as name=value fields) and says so.
DEP_NAME=traceevent
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
OUT="$ROOT/build/traceevent-wasm"
already_built "$OUT/lib/libtraceevent.a" "$OUT/include/event-parse.h" && { log "already built"; exit 0; }
PKG="$(source_of libtraceevent-dev)"
if ! (fetch_source "${PKG:-libtraceevent}" src/event-parse.c); then
  log "WARNING: Debian's ${PKG:-libtraceevent} source package could not be fetched; the WASM module is built without libtraceevent"
  exit 0
fi
fetch_source "${PKG:-libtraceevent}" src/event-parse.c
compile_static "$OUT" libtraceevent.a -O2 -DNDEBUG -D_GNU_SOURCE -I"$SRC_DIR/include/traceevent" -I"$SRC_DIR/src" \
  -- "$SRC_DIR"/src/{event-parse,event-parse-api,event-plugin,kbuffer-parse,parse-filter,parse-utils,tep_strerror,trace-seq}.c
cp "$SRC_DIR"/include/traceevent/{event-parse.h,trace-seq.h,kbuffer.h,event-utils.h} "$OUT/include/"
