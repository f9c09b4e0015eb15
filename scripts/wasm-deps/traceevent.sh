#!/usr/bin/env bash
# libtraceevent for WebAssembly (prints tracepoint payloads through their
# "print fmt", as perf script does): build/traceevent-wasm/lib/libtraceevent.a +
# include/{event-parse.h,trace-seq.h,kbuffer.h,event-utils.h}.
#
# From Debian's libtraceevent source package (what libtraceevent-dev, the
# native build's library, is built from). When that cannot be fetched, from
# the copy of libtraceevent in the kernel tree (tools/lib/traceevent) that
# Debian's own perf 6.1 is built with (linux-perf links it statically; it is
# what printed the corpus' perf script references): Debian ships that tree as
# the linux-source-X.Y package, downloaded with apt. Only tools/lib/traceevent
# and tools/include are unpacked, into build/third_party (never committed).
# When neither can be had the WASM build goes on without libtraceevent
# (tracepoint payloads are then printed as name=value fields) and says so.
DEP_NAME=traceevent
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
OUT="$ROOT/build/traceevent-wasm"
already_built "$OUT/lib/libtraceevent.a" "$OUT/include/event-parse.h" && { log "already built"; exit 0; }
SOURCES=(event-parse event-parse-api event-plugin kbuffer-parse parse-filter parse-utils tep_strerror trace-seq)

# kernel_tree_source: sets SRC_DIR to tools/lib/traceevent of Debian's
# linux-source package for the kernel series linux-perf is built from.
kernel_tree_source() {
  local ver series pkg dir deb
  ver="$(apt-cache show linux-perf 2>/dev/null | sed -n 's/^Version: *//p' | sort -V | tail -n1)"
  [[ "$ver" =~ ^([0-9]+\.[0-9]+)\. ]] || { log "apt knows no linux-perf package"; return 1; }
  series="${BASH_REMATCH[1]}"
  pkg="linux-source-$series"
  dir="$CACHE/$pkg"
  SRC_DIR="$dir/tools/lib/traceevent"
  if [[ -f "$SRC_DIR/event-parse.c" && -d "$dir/tools/include" ]]; then log "source: $SRC_DIR"; return 0; fi
  command -v emcc >/dev/null || { log "emcc not found (apt-get install emscripten)"; return 1; }
  mkdir -p "$CACHE/deb"
  log "apt-get download $pkg (Debian's kernel tree; only tools/lib/traceevent is kept)"
  (cd "$CACHE/deb" && apt-get download -qq -o APT::Sandbox::User=root "$pkg" >/dev/null) || return 1
  deb="$(ls "$CACHE/deb/${pkg}"_*.deb | sort -V | tail -n1)"
  rm -rf "$dir"
  dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/$pkg.tar.xz" \
    | tar -xJ -C "$CACHE" --wildcards "$pkg/tools/lib/traceevent/*" "$pkg/tools/include/*" "$pkg/COPYING" || return 1
  rm -f "$deb"
  [[ -f "$SRC_DIR/event-parse.c" ]] || { log "$deb has no tools/lib/traceevent"; return 1; }
  log "source: $SRC_DIR"
}

# source_fixes EVENT_PARSE_C: the library prints for the host it runs on; three
# of its printf calls depend on a 64-bit host, which wasm32 is not. Rewritten
# (in the unpacked copy under build/, never committed) to print what the
# native x86_64 build prints from the same bytes:
#  - a plain %p argument is cast to a 32-bit pointer: print the 64-bit value
#    as glibc prints a pointer ("0x..." or "(nil)");
#  - %zu/%zd (size_t, 32-bit here) with a 64-bit file: widened to %llu/%lld,
#    as the library already widens %lu;
#  - %Lu (sched_stat_runtime's runtime): glibc reads it as %llu, emscripten's
#    musl prints nothing: written %llu.
# And one fix of a bug fuzzing found (fuzz/regressions/perf_fuzz): when a
# format's field list fails to parse, event_read_fields frees the field it
# had already linked into the event (freed again by tep_free): the pointer is
# cleared once the field is linked.
# rewrite FILE LINE SED WHY: applies SED to FILE when LINE (a fixed string)
# occurs there exactly once; otherwise says WHY it matters.
rewrite() {
  local f="$1" line="$2" script="$3" why="$4" n
  n=$(grep -cF -- "$line" "$f" || true)
  if [[ "$n" == 1 ]]; then sed -i "$script" "$f"; else log "NOTE: $f: '$line' found $n times, not rewritten: $why"; fi
}

source_fixes() {
  local f="$1"
  grep -q "profscope: linked" "$f" && return 0   # already rewritten (the last fix below)
  rewrite "$f" 'trace_seq_printf(s, "%p", (void *)(intptr_t)val);' \
    's|trace_seq_printf(s, "%p", (void \*)(intptr_t)val);|if (val) trace_seq_printf(s, "0x%llx", val); else trace_seq_puts(s, "(nil)"); /* profscope: wasm32 */|' \
    "pointers print 32-bit in WASM"
  rewrite "$f" "if (ls == 1 && (p = strchr(print_format, 'l')))" \
    "s|if (ls == 1 \&\& (p = strchr(print_format, 'l')))|if ((p = strchr(print_format, 'z')) \|\| (p = strchr(print_format, 'Z'))) *p = 'l'; /* profscope: wasm32 */\n\t\t\t\tif (ls == 1 \&\& (p = strchr(print_format, 'l')))|" \
    "%zu prints 32-bit in WASM"
  rewrite "$f" "if (event->tep->long_size == 8 && ls == 1 &&" \
    "s|if (event->tep->long_size == 8 \&\& ls == 1 \&\&|{ char *q = strchr(print_format, 'L'); if (q \&\& strlen(print_format) < 30) { memmove(q + 1, q, strlen(q) + 1); q[0] = q[1] = 'l'; } } /* profscope: wasm32 */\n\t\t\tif (event->tep->long_size == 8 \&\& ls == 1 \&\&|" \
    "%Lu prints nothing in WASM"
  rewrite "$f" "$(printf '\t\tfields = &field->next;')" \
    "s|^\t\tfields = \&field->next;$|\t\tfields = \&field->next;\n\t\tfield = NULL; /* profscope: linked, not ours to free on failure */|" \
    "this copy is assumed to have its own fix of the field-list double free"
}

PKG="$(source_of libtraceevent-dev)"
if (fetch_source "${PKG:-libtraceevent}" src/event-parse.c); then
  fetch_source "${PKG:-libtraceevent}" src/event-parse.c
  source_fixes "$SRC_DIR/src/event-parse.c"
  srcs=(); for s in "${SOURCES[@]}"; do srcs+=("$SRC_DIR/src/$s.c"); done
  compile_static "$OUT" libtraceevent.a -O2 -DNDEBUG -D_GNU_SOURCE -I"$SRC_DIR/include/traceevent" -I"$SRC_DIR/src" \
    -- "${srcs[@]}"
  cp "$SRC_DIR"/include/traceevent/{event-parse.h,trace-seq.h,kbuffer.h,event-utils.h} "$OUT/include/"
elif kernel_tree_source; then
  log "Debian's ${PKG:-libtraceevent} source package could not be fetched: building the kernel tree's libtraceevent (the one Debian's perf uses)"
  # tools/include's linux/types.h takes the integer types from the system's
  # <asm/types.h> (linux-libc-dev natively); emscripten's sysroot has none.
  SHIM="$CACHE/traceevent-wasm-shim"
  mkdir -p "$SHIM/asm"
  printf '%s\n' '#pragma once' '#include <stdint.h>' \
    'typedef int8_t __s8; typedef uint8_t __u8; typedef int16_t __s16; typedef uint16_t __u16;' \
    'typedef int32_t __s32; typedef uint32_t __u32; typedef int64_t __s64; typedef uint64_t __u64;' > "$SHIM/asm/types.h"
  printf '%s\n' '#pragma once' > "$SHIM/asm/posix_types.h"
  source_fixes "$SRC_DIR/event-parse.c"
  srcs=(); for s in "${SOURCES[@]}"; do srcs+=("$SRC_DIR/$s.c"); done
  compile_static "$OUT" libtraceevent.a -O2 -DNDEBUG -D_GNU_SOURCE -Wno-everything \
    -I"$SRC_DIR" -I"$SRC_DIR/../../include" -I"$SHIM" -- "${srcs[@]}"
  cp "$SRC_DIR"/{event-parse.h,trace-seq.h,kbuffer.h,event-utils.h} "$OUT/include/"
else
  log "WARNING: neither Debian's ${PKG:-libtraceevent} source package nor its kernel tree could be fetched; the WASM module is built without libtraceevent"
  exit 0
fi
