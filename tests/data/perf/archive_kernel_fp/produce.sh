#!/bin/bash
# perf case 'archive_kernel_fp': perf 6.1 (Debian linux-perf 6.1.187) `perf record -F 500 -g` of
# ksys (ksys.c, built static so perf archive holds only the program and the kernel's kallsyms:
# two threads, one spinning in user space, one in read(/dev/zero)/write(/dev/null) system calls),
# then `perf archive`: perf.data.tar.bz2 = [kernel.kallsyms]/<build-id>/kallsyms (this machine's
# /proc/kallsyms at archive time) + the program's build-id cache entry. The program reaches the
# decoder only through the archive. References: script_default.txt (`perf script`),
# folded_sym.txt / folded_addrs.txt (perf's own resolved callchains folded root first by
# fold.py through perf's Python scripting API, names or absolute addresses), report_D.txt.gz,
# evlist.txt, header.txt. Run as root (perf_event_paranoid 2) under /opt/demo, like the shared
# corpus cases.
set -eu
D=$(dirname "$(readlink -f "$0")")
mkdir -p /opt/demo/src /opt/demo/bin
cp "$D/ksys.c" "$D/fold.py" /opt/demo/src/  # fold.py: perf_fold-like folding through perf's Python API
(cd /opt/demo/src && gcc -O1 -g -static -fno-omit-frame-pointer -ffile-prefix-map=/opt/demo/src=/src -o /opt/demo/bin/ksys_static ksys.c -lpthread)
R=/opt/demo/run/archive_kernel_fp
rm -rf "$R" && mkdir -p "$R" && cd "$R"
cp /opt/demo/bin/ksys_static ksys
perf record -F 500 -g -o perf.data ./ksys 2> record.stderr > /dev/null
perf script -i perf.data > script_default.txt
perf archive perf.data > archive.stdout 2>&1
tar tjf perf.data.tar.bz2 > archive_contents.txt
FOLD_LOG=folded.log perf script -i perf.data -s /opt/demo/src/fold.py > folded_sym.txt
FOLD_ADDRS=1 perf script -i perf.data -s /opt/demo/src/fold.py > folded_addrs.txt
perf report -D -i perf.data > report_D.txt
perf evlist -v -i perf.data > evlist.txt
perf report --header-only -I -i perf.data > header.txt
cp archive.stdout archive_contents.txt evlist.txt folded.log folded_addrs.txt folded_sym.txt header.txt \
   perf.data perf.data.tar.bz2 record.stderr script_default.txt "$D/"
gzip -9c report_D.txt > "$D/report_D.txt.gz"
