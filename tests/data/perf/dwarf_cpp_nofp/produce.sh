#!/bin/bash
# perf case 'dwarf_cpp_nofp': DWARF callchains of an optimized C++ program
# without frame pointers (virtual calls, std::sort of strings, std::map, with
# frames in libstdc++.so.6 / libc.so.6 / ld-linux-x86-64.so.2 of this machine's
# Debian 12), with 4 KiB stack copies: deep samples run past the copy (perf
# reads the words beyond it as 0 and ends such stacks in 0xffffffffffffffff).
#   perf record -F 1000 --call-graph dwarf,4096
# Made with Debian 12's g++ 12.2 and perf 6.1 as root (perf_event_paranoid 2),
# under the neutral folder /opt/demo like the shared corpus; run from anywhere.
set -eu
D=$(dirname "$(readlink -f "$0")")
REFS=$(readlink -f "$D/../../../../scripts/perf-refs/perf_refs.sh")
R=/opt/demo/run/dwarf_cpp_nofp
rm -rf "$R" && mkdir -p "$R" /opt/demo/src && cp "$D/cpp_nofp.cpp" /opt/demo/src/
cd "$R"
g++ -O2 -fomit-frame-pointer -g -ffile-prefix-map=/opt/demo/src=/src -o cpp_nofp /opt/demo/src/cpp_nofp.cpp
perf record -F 1000 --call-graph dwarf,4096 -o perf.data ./cpp_nofp 4 > run.stdout 2> record.stderr
bash "$REFS" perf.data
cp perf.data cpp_nofp record.stderr report_D.txt.gz header.txt evlist.txt script_sym.txt script_addrs.txt \
   folded_addrs.txt folded_sym.txt folded.log folded_addrs_nobin.txt "$D/"
