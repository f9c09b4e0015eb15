#!/bin/bash
# perf case 'tracepoint_sched_g': perf 6.1 (Debian linux-perf 6.1.187) `perf record -e
# sched:sched_switch -g` of the same static ksys program as ../archive_kernel_fp (same binary,
# same build-id, recorded on the same boot: that case's perf archive tarball holds the program
# and the kernel's kallsyms this case needs). Tracepoint samples with callchains; TRACING_DATA
# holds the sched formats. References: script_default.txt (`perf script`: payloads printed
# through their print fmt by perf's libtraceevent with Debian's plugins in
# /usr/lib/traceevent/plugins), script_trace.txt (-F comm,tid,time,event,trace),
# folded_sym.txt / folded_addrs.txt (fold.py through perf's Python scripting API),
# report_D.txt.gz, evlist.txt, header.txt. Run as root under /opt/demo after ../archive_kernel_fp/produce.sh.
set -eu
D=$(dirname "$(readlink -f "$0")")
R=/opt/demo/run/tracepoint_sched
rm -rf "$R" && mkdir -p "$R" && cd "$R"
cp /opt/demo/bin/ksys_static ksys
cp "$D/fold.py" /opt/demo/src/fold.py
perf record -e sched:sched_switch -g -o perf.data -- ./ksys 2> record.stderr > /dev/null
perf script -i perf.data > script_default.txt
perf script -i perf.data -F comm,tid,time,event,trace > script_trace.txt
FOLD_LOG=folded.log perf script -i perf.data -s /opt/demo/src/fold.py > folded_sym.txt
FOLD_ADDRS=1 perf script -i perf.data -s /opt/demo/src/fold.py > folded_addrs.txt
perf report -D -i perf.data | gzip -9 > report_D.txt.gz
perf evlist -v -i perf.data > evlist.txt
perf report --header-only -I -i perf.data > header.txt
cp perf.data record.stderr script_default.txt script_trace.txt folded_sym.txt folded_addrs.txt folded.log \
   report_D.txt.gz evlist.txt header.txt "$D/"
