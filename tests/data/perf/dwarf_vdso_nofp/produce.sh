#!/bin/bash
# perf case 'dwarf_vdso_nofp': perf 6.1 (Debian linux-perf 6.1.x) `perf record --call-graph dwarf,4096 -F 500`
# of vdsoprog (vdsoprog.c, gcc 12 -O2 without frame pointers, dynamic): most samples are in
# clock_gettime's [vdso] code, which perf names and unwinds through with its own copy of the vdso
# (this machine's kernel, the same on every machine here). No perf archive: the program is kept
# here. References: script_default.txt (`perf script`), folded_sym.txt / folded_addrs.txt /
# folded_addrs_nobin.txt (scripts/perf-refs/perf_refs.sh, perf_fold.py), report_D.txt.gz,
# evlist.txt, header.txt. libc/ld.so frames from this machine's Debian 12 libc6 (+ libc6-dbg).
# Run as root under /opt/demo.
set -eu
D=$(dirname "$(readlink -f "$0")")
REFS=$(cd "$D/../../../../scripts/perf-refs" && pwd)
mkdir -p /opt/demo/src /opt/demo/bin
cp "$D/vdsoprog.c" /opt/demo/src/
(cd /opt/demo/src && gcc -O2 -g -fomit-frame-pointer -ffile-prefix-map=/opt/demo/src=/src -o /opt/demo/bin/vdsoprog vdsoprog.c)
R=/opt/demo/run/dwarf_vdso_nofp
rm -rf "$R" && mkdir -p "$R" && cd "$R"
cp /opt/demo/bin/vdsoprog .
perf record --call-graph dwarf,4096 -F 500 -o perf.data ./vdsoprog 2> record.stderr > /dev/null
bash "$REFS/perf_refs.sh" perf.data
perf script -i perf.data > script_default.txt
cp evlist.txt folded.log folded_addrs.txt folded_addrs_nobin.txt folded_sym.txt header.txt perf.data record.stderr \
   report_D.txt.gz script_addrs.txt script_default.txt script_sym.txt vdsoprog "$D/"
