#!/bin/bash
# perf case 'dwarf_fork_exec_nofp': perf 6.1 (Debian linux-perf 6.1.x) `perf record --call-graph dwarf,4096 -F 250`
# of forky (forky.c, gcc 12 -O2 without frame pointers): the parent works, two forked children work with
# the parent's maps (no MMAP of their own: perf clones them on FORK), and a third child execs the
# program again. perf 6.1 places a DSO's .eh_frame_hdr from the lowest mapping of that DSO in the
# process, and keeps the maps a child inherited after its exec: the exec'd child's libc lies above the
# parent's copy, so perf finds no unwind table for libc there and its stacks stop in
# __libc_start_call_main. References: scripts/perf-refs/perf_refs.sh (folded_*.txt through
# perf_fold.py, report_D.txt.gz, header.txt, evlist.txt, script_*.txt) and script_default.txt.
# libc/ld.so from this machine's Debian 12 libc6 (+ libc6-dbg). Run as root under /opt/demo.
set -eu
D=$(dirname "$(readlink -f "$0")")
REFS=$(cd "$D/../../../../scripts/perf-refs" && pwd)
mkdir -p /opt/demo/src /opt/demo/bin
cp "$D/forky.c" /opt/demo/src/
(cd /opt/demo/src && gcc -O2 -g -fomit-frame-pointer -ffile-prefix-map=/opt/demo/src=/src -o /opt/demo/bin/forky forky.c)
R=/opt/demo/run/dwarf_fork_exec_nofp
rm -rf "$R" && mkdir -p "$R" && cd "$R"
cp /opt/demo/bin/forky .
perf record --call-graph dwarf,4096 -F 250 -o perf.data ./forky 2> record.stderr > /dev/null
bash "$REFS/perf_refs.sh" perf.data
perf script -i perf.data > script_default.txt
cp evlist.txt folded.log folded_addrs.txt folded_addrs_nobin.txt folded_sym.txt header.txt perf.data record.stderr \
   report_D.txt.gz script_addrs.txt script_default.txt script_sym.txt forky "$D/"
