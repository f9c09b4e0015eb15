#!/bin/bash
# perf case 'tracepoint_kmem_timer': perf 6.1 (Debian linux-perf 6.1.187) `perf record -e
# kmem:kmalloc,kmem:kfree,timer:hrtimer_start,timer:hrtimer_expire_entry,sched:sched_stat_runtime -g` of the static ksys
# program (../archive_kernel_fp/ksys.c), then `perf archive` (the kernel's kallsyms + the program).
# The events' print fmts print kernel addresses with %pS / %ps (a kmalloc's call_site, a timer's
# function): perf script names them from the session's kernel symbols (here the archive's
# kallsyms), not from TRACING_DATA, which perf 6.1 records without kallsyms. References:
# script_default.txt (`perf script`), evlist.txt, header.txt. ksys is the program: perf archive
# leaves it out (its frames are only in callchains) and perf named them from the file itself. Run as root under /opt/demo, built
# as ../archive_kernel_fp/produce.sh builds it.
set -eu
D=$(dirname "$(readlink -f "$0")")
mkdir -p /opt/demo/src /opt/demo/bin
cp "$D/../archive_kernel_fp/ksys.c" /opt/demo/src/
(cd /opt/demo/src && gcc -O1 -g -static -fno-omit-frame-pointer -ffile-prefix-map=/opt/demo/src=/src -o /opt/demo/bin/ksys_static ksys.c -lpthread)
R=/opt/demo/run/tracepoint_kmem_timer
rm -rf "$R" && mkdir -p "$R" && cd "$R"
cp /opt/demo/bin/ksys_static ksys
perf record -e kmem:kmalloc -e kmem:kfree -e timer:hrtimer_start -e timer:hrtimer_expire_entry \
  -e sched:sched_stat_runtime -g \
  -o perf.data ./ksys 2> record.stderr > /dev/null
perf script -i perf.data > script_default.txt
perf archive perf.data > archive.stdout 2>&1
tar tjf perf.data.tar.bz2 > archive_contents.txt
perf evlist -v -i perf.data > evlist.txt
perf report --header-only -I -i perf.data > header.txt
cp archive.stdout archive_contents.txt evlist.txt header.txt perf.data perf.data.tar.bz2 record.stderr \
   script_default.txt ksys "$D/"
