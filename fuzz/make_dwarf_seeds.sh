#!/usr/bin/env bash
# Makes fuzz/seeds/dwarf_fuzz/: the raw-section inputs of dwarf_fuzz (see its
# header) from a small C++ program with inlined calls, built with g++ -O2 -g
# as DWARF 4 and DWARF 5.
set -eu
D=$(cd "$(dirname "$0")" && pwd)/seeds/dwarf_fuzz
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cat > "$T/p.cc" <<'SRC'
#include <cstdlib>
static inline int leaf(int x) { return x * 3 + 1; }
struct S { int v; int get() const { return leaf(v) + 2; } };
__attribute__((noinline)) int mid(const S& s) { return s.get() * 2; }
int main(int argc, char** argv) { S s{argc > 1 ? atoi(argv[1]) : 1}; return mid(s); }
SRC
mkdir -p "$D"
for v in 4 5; do
  g++ -O2 -g -gdwarf-$v -o "$T/p$v" "$T/p.cc"
  hdr=""
  for s in info abbrev str line_str str_offsets addr ranges rnglists; do
    f="$T/$s"; : > "$f"
    objcopy --dump-section ".debug_$s=$f" "$T/p$v" 2>/dev/null || : > "$f"
  done
  python3 - "$T" "$D/v$v.bin" <<'PY'
import struct, sys
t, out = sys.argv[1], sys.argv[2]
names = ['info', 'abbrev', 'str', 'line_str', 'str_offsets', 'addr', 'ranges', 'rnglists']
secs = [open(t + '/' + n, 'rb').read()[:30000] for n in names]
lens = [len(s) for s in secs]
lens[0] <<= 1  # bit 0 of byte 0: 0 = little-endian
open(out, 'wb').write(struct.pack('<8H', *lens) + b''.join(secs))
PY
done
ls -la "$D"
