#!/bin/bash
# perf record --threads writes a directory: perf.data/data (header, attrs, features, a few
# synthesized records) and perf.data/data.N (records of each writer thread).
# Made with Debian's perf 6.1 (linux-perf 6.1.192) on the calltree workload of
# tests/data/perf/default_event, in /opt/demo/run/threads_dir:
cp ../../perf/default_event/calltree .
perf record --threads -F 1000 -g -o perf.data ./calltree 2> record.stderr
perf report -D -i perf.data > report_D.txt
