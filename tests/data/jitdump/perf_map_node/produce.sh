#!/bin/bash
# jitdump case 'perf_map_node': perf 6.1 (Debian linux-perf 6.1.x) `perf record -g -F 4000` of node v20
# (Debian 12's /usr/bin/node) `--perf-basic-prof --interpreted-frames-native-stack` running jswork.js:
# V8 writes /tmp/perf-PID.map (text: "START SIZE name" per JIT code object), which perf reads to name
# the frames in the process's anonymous executable memory (perf's dso for them is /tmp/perf-PID.map).
# The map file is kept here as perf-PID.map. References: script_default.txt (`perf script`),
# folded_sym.txt / folded_addrs.txt (perf's callchains folded by scripts/perf-refs/perf_fold.py),
# report_D.txt.gz, evlist.txt, header.txt. Frames in /usr/bin/node and libc were named from this
# machine's Debian 12 node and libc6 (+ libc6-dbg). Run as root under /opt/demo.
set -eu
D=$(dirname "$(readlink -f "$0")")
F=$(cd "$D/../../../../scripts/perf-refs" && pwd)
R=/opt/demo/run/perf_map_node
rm -rf "$R" && mkdir -p "$R" && cd "$R"
cp "$D/../perf_inject_jit_dwarf/jswork.js" .   # the workload of perf_inject_jit_dwarf
perf record -g -F 4000 -o perf.data node --perf-basic-prof --interpreted-frames-native-stack ./jswork.js > run.stdout 2> record.stderr
PID=$(perf script -i perf.data -F pid 2>/dev/null | awk '{print $1; exit}')
cp "/tmp/perf-$PID.map" .
perf script -i perf.data > script_default.txt
perf script -i perf.data -s "$F/perf_fold.py" folded 2> folded.log
perf report -D -i perf.data > report_D.txt 2> /dev/null
perf evlist -v -i perf.data > evlist.txt 2> /dev/null
perf report --header-only -I -i perf.data > header.txt 2> /dev/null
rm -f "/tmp/perf-$PID.map"
cp evlist.txt folded.log folded_addrs.txt folded_sym.txt header.txt perf.data "perf-$PID.map" record.stderr \
   run.stdout script_default.txt "$D/"
gzip -9c report_D.txt > "$D/report_D.txt.gz"
