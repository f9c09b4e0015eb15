#!/bin/bash
# perf case 'archive_dwarf_lib': perf 6.1 (Debian linux-perf 6.1.x) `perf record --call-graph dwarf,8192 -F 400`
# of dwprog (dwprog.c + its own library libdwlib.so from dwlib.c, both gcc 12 -O2 without frame
# pointers; two threads; time spent in the program and the library only), then `perf archive`.
# The program and the library reach the decoder only through perf.data.tar.bz2 (their build-id
# cache entries, with [kernel.kallsyms]'s kallsyms): the DWARF unwinder must read their
# .eh_frame from the tarball. libc/ld.so frames (thread start, main's callers) were unwound and
# named from this machine's Debian 12 libc6 (+ libc6-dbg). References: script_default.txt
# (`perf script`), folded_sym.txt / folded_addrs.txt (perf's own callchains folded root first by
# scripts/perf-refs/perf_fold.py, names or absolute addresses; folded_addrs_nobin.txt: with no binary), report_D.txt.gz, evlist.txt,
# header.txt, archive_contents.txt. Run as root (perf_event_paranoid 2) under /opt/demo.
set -eu
D=$(dirname "$(readlink -f "$0")")
F=$(cd "$D/../../../../scripts/perf-refs" && pwd)
mkdir -p /opt/demo/src /opt/demo/bin
cp "$D/dwprog.c" "$D/dwlib.c" /opt/demo/src/
cd /opt/demo/src
gcc -O2 -g -fomit-frame-pointer -fPIC -shared -ffile-prefix-map=/opt/demo/src=/src -o /opt/demo/bin/libdwlib.so dwlib.c
gcc -O2 -g -fomit-frame-pointer -ffile-prefix-map=/opt/demo/src=/src -o /opt/demo/bin/dwprog dwprog.c \
    -L/opt/demo/bin -ldwlib -Wl,-rpath,'$ORIGIN' -lpthread
R=/opt/demo/run/archive_dwarf_lib
rm -rf "$R" && mkdir -p "$R" && cd "$R"
cp /opt/demo/bin/dwprog /opt/demo/bin/libdwlib.so .
perf record --call-graph dwarf,8192 -F 400 -o perf.data ./dwprog 2> record.stderr > /dev/null
perf script -i perf.data > script_default.txt
perf script -i perf.data -s "$F/perf_fold.py" folded 2> folded.log
perf report -D -i perf.data > report_D.txt 2> /dev/null
perf evlist -v -i perf.data > evlist.txt 2> /dev/null
perf report --header-only -I -i perf.data > header.txt 2> /dev/null
E=$(mktemp -d); mkdir -p "$E/symfs" "$E/buildid"   # what perf prints with no binary at all
perf --buildid-dir "$E/buildid" script --symfs "$E/symfs" -i perf.data -s "$F/perf_fold.py" "$E/nobin" 2> /dev/null
mv "$E/nobin_addrs.txt" folded_addrs_nobin.txt; rm -rf "$E"
perf archive perf.data > archive.stdout 2>&1
tar tjf perf.data.tar.bz2 > archive_contents.txt
rm -f dwprog libdwlib.so   # the binaries reach the decoder only through the archive
cp archive.stdout archive_contents.txt evlist.txt folded.log folded_addrs.txt folded_addrs_nobin.txt folded_sym.txt header.txt \
   perf.data perf.data.tar.bz2 record.stderr script_default.txt "$D/"
gzip -9c report_D.txt > "$D/report_D.txt.gz"
