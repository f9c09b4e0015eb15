#!/bin/bash
# perf case 'archive_stripped_fp': perf 6.1 (Debian linux-perf 6.1.x) `perf record -g -F 400` of sprog
# (sprog.c, gcc 12 -O2 with frame pointers, then `strip --strip-all`: only .dynsym is left, so perf
# has the file but no symbol for its functions and prints "[unknown]" for them, with the file as
# their dso), then `perf archive`. The program reaches the decoder only through perf.data.tar.bz2.
# References: script_default.txt (`perf script`), folded_sym.txt / folded_addrs.txt (perf's
# callchains folded by scripts/perf-refs/perf_fold.py), report_D.txt.gz, evlist.txt, header.txt,
# archive_contents.txt. libc frames were named from this machine's Debian 12 libc6 (+ libc6-dbg).
# Run as root under /opt/demo.
set -eu
D=$(dirname "$(readlink -f "$0")")
F=$(cd "$D/../../../../scripts/perf-refs" && pwd)
mkdir -p /opt/demo/src /opt/demo/bin
cp "$D/sprog.c" /opt/demo/src/
cd /opt/demo/src
gcc -O2 -fno-omit-frame-pointer -o /opt/demo/bin/sprog sprog.c
strip --strip-all /opt/demo/bin/sprog
R=/opt/demo/run/archive_stripped_fp
rm -rf "$R" && mkdir -p "$R" && cd "$R"
cp /opt/demo/bin/sprog .
perf record -g -F 400 -o perf.data ./sprog 2> record.stderr > /dev/null
perf script -i perf.data > script_default.txt
perf script -i perf.data -s "$F/perf_fold.py" folded 2> folded.log
perf report -D -i perf.data > report_D.txt 2> /dev/null
perf evlist -v -i perf.data > evlist.txt 2> /dev/null
perf report --header-only -I -i perf.data > header.txt 2> /dev/null
perf archive perf.data > archive.stdout 2>&1
tar tjf perf.data.tar.bz2 > archive_contents.txt
rm -f sprog   # the program reaches the decoder only through the archive
cp archive.stdout archive_contents.txt evlist.txt folded.log folded_addrs.txt folded_sym.txt header.txt \
   perf.data perf.data.tar.bz2 record.stderr script_default.txt "$D/"
gzip -9c report_D.txt > "$D/report_D.txt.gz"
