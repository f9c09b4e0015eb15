#!/usr/bin/env bash
# perf's own outputs for a perf.data / pipe.data, the references the corpus
# tests compare with (perf 6.1, run in the folder of the recording so that
# perf finds the recorded program at its recorded path):
#   report_D.txt.gz  perf report -D            (record boundaries, gzip'ed)
#   header.txt       perf report --header-only -I
#   evlist.txt       perf evlist -v
#   script_sym.txt   perf script -F comm,tid,time,event,ip,sym
#   script_addrs.txt perf script -F comm,tid,time,event,ip
#   folded_addrs.txt, folded_sym.txt, folded.log
#                    perf script -s perf_fold.py (perf's callchains folded)
#   folded_addrs_nobin.txt
#                    the same with no binary at all: --symfs and --buildid-dir
#                    at empty folders (not even a [vdso] copy is found)
# Usage: perf_refs.sh DATA
set -u
DATA=$1
HERE=$(dirname "$(readlink -f "$0")")
perf report -D -i "$DATA" > report_D.txt 2> /dev/null; gzip -9 -f report_D.txt
perf report --header-only -I -i "$DATA" > header.txt 2> /dev/null
perf evlist -v -i "$DATA" > evlist.txt 2> /dev/null
perf script -F comm,tid,time,event,ip,sym -i "$DATA" > script_sym.txt 2> /dev/null
perf script -F comm,tid,time,event,ip -i "$DATA" > script_addrs.txt 2> /dev/null
perf script -i "$DATA" -s "$HERE/perf_fold.py" folded 2> folded.log
EMPTY=$(mktemp -d)
mkdir -p "$EMPTY/symfs" "$EMPTY/buildid"
perf --buildid-dir "$EMPTY/buildid" script --symfs "$EMPTY/symfs" -i "$DATA" -s "$HERE/perf_fold.py" "$EMPTY/nobin" 2> /dev/null
mv "$EMPTY/nobin_addrs.txt" folded_addrs_nobin.txt
rm -rf "$EMPTY"
