#!/bin/sh
# Two real recordings of the same multi-threaded program (mt_work.c), for the
# diff tests: perf 6.1 (Debian 12), x86_64, as root, perf_event_paranoid 2.
# Run A sorts 4 rounds, run B 8 rounds (the sort thread's share grows); the
# hash and sum threads do the same work in both. The binary runs from
# /tmp/profscope-mt (the path perf records); mt_work is kept here for --symbols.
set -e
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p /tmp/profscope-mt
gcc -O1 -g -fno-omit-frame-pointer -pthread -o /tmp/profscope-mt/mt_work "$here/mt_work.c"
cp /tmp/profscope-mt/mt_work "$here/mt_work"
cd /tmp/profscope-mt
perf record -q -g -F 999 -o "$here/a.perf.data" ./mt_work 4 >/dev/null
perf record -q -g -F 999 -o "$here/b.perf.data" ./mt_work 8 >/dev/null
# references from perf itself: samples per thread, and the sample count
for r in a b; do
  perf report -i "$here/$r.perf.data" --stdio -g none --sort pid -F sample,pid 2>/dev/null | grep -v '^#' | awk 'NF' > "$here/$r.report_tid.txt"
  perf script -i "$here/$r.perf.data" -F tid 2>/dev/null | wc -l | tr -d ' ' > "$here/$r.samples.txt"
done
