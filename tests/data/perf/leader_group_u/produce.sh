#!/bin/bash
# perf case 'leader_group_u': leader sampling. perf 6.1 (Debian linux-perf 6.1.192)
# `perf record -e '{cpu-clock,task-clock}:Su' -g -F 2000` of the corpus program calltree
# (../../../shared/corpus/perf/default_event/calltree; user space only, so no kallsyms is needed).
# Each SAMPLE is the group leader's (cpu-clock) and carries PERF_SAMPLE_READ with both counters
# (read_format ID|GROUP|LOST); perf 6.1 delivers it once per counter that moved, with the
# counter's increase as the period (session.c deliver_sample_group): 811 cpu-clock and 811
# task-clock samples from 811 records. References, run in /opt/demo/run/leader_group_u with the
# binary there and Debian 12's libc6 (/lib/x86_64-linux-gnu/libc.so.6, /lib64/ld-linux-x86-64.so.2):
# script_default.txt (perf script), folded_sym.EVENT.txt / folded_addrs.EVENT.txt (fold_event.py
# through perf's Python scripting API, one event each), report_group.txt (perf report --group,
# first lines), folded.log, report_D.txt.gz, evlist.txt, header.txt. Run as root.
set -eu
D=$(dirname "$(readlink -f "$0")")
R=/opt/demo/run/leader_group_u
rm -rf "$R" && mkdir -p "$R" && cd "$R"
cp "$D/calltree" "$D/fold_event.py" .
perf record -e '{cpu-clock,task-clock}:Su' -g -F 2000 -o perf.data ./calltree > run.stdout 2> record.stderr
perf script -i perf.data > script_default.txt
for e in cpu-clock task-clock; do
  FOLD_EVENT=$e perf script -i perf.data -s fold_event.py > folded_sym.$e.txt
  FOLD_EVENT=$e FOLD_ADDRS=1 perf script -i perf.data -s fold_event.py > folded_addrs.$e.txt
done
# folded.log in the form of the corpus's perf_fold.py (the events the folded_*.EVENT.txt files are of)
echo "perf_fold: $(perf script -i perf.data -F event | wc -l) samples, events: cpu-clock, task-clock" > folded.log
perf report -i perf.data --stdio --group | head -30 > report_group.txt
perf report -D -i perf.data | gzip -9 > report_D.txt.gz
perf evlist -v -i perf.data > evlist.txt
perf report --header-only -I -i perf.data > header.txt
cp perf.data record.stderr script_default.txt folded_sym.*.txt folded_addrs.*.txt folded.log report_group.txt \
   report_D.txt.gz evlist.txt header.txt "$D/"
