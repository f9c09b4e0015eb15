#!/bin/bash
# perf case 'dwarf_sig_plt_nofp': DWARF callchains of a dynamically linked C
# program without frame pointers whose samples fall in a SIGPROF handler (the
# stack goes through libc's __restore_rt, a signal frame: the interrupted pc
# is not decremented) and in PLT stubs (labs@plt, llabs@plt); frames in
# libc.so.6 / ld-linux-x86-64.so.2 need this machine's Debian 12 libc6.
#   perf record -F 1000 --call-graph dwarf (8 KiB copies)
# Made with Debian 12's gcc 12.2 and perf 6.1 as root (perf_event_paranoid 2),
# under the neutral folder /opt/demo like the shared corpus; run from anywhere.
set -eu
D=$(dirname "$(readlink -f "$0")")
REFS=$(readlink -f "$D/../../../../scripts/perf-refs/perf_refs.sh")
R=/opt/demo/run/dwarf_sig_plt_nofp
rm -rf "$R" && mkdir -p "$R" /opt/demo/src && cp "$D/sig_plt.c" /opt/demo/src/
cd "$R"
gcc -O2 -fomit-frame-pointer -g -ffile-prefix-map=/opt/demo/src=/src -fno-builtin -o sig_plt /opt/demo/src/sig_plt.c
perf record -F 1000 --call-graph dwarf -o perf.data ./sig_plt 200 2> record.stderr
bash "$REFS" perf.data
cp perf.data sig_plt record.stderr report_D.txt.gz header.txt evlist.txt script_sym.txt script_addrs.txt \
   folded_addrs.txt folded_sym.txt folded.log folded_addrs_nobin.txt "$D/"
