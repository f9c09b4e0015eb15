#!/bin/bash
# perf case 'symdir_fp': side folders of symbols (profscope --symbols DIR), with
# perf's own output for the same files as reference. Made with Debian 12's gcc
# 12.2, binutils 2.40 and perf 6.1 as root, under the neutral folder /opt/demo;
# run from anywhere. The program has no libc (one DSO), user samples only.
#   symdir          the recorded program (its build-id is in perf.data)
#   perf.data       perf record -e task-clock:u -F 2000 -g
#   cache/          the build-id cache perf record itself wrote (--buildid-dir):
#                   .build-id/xx/yyyy links and opt/demo/run/symdir_fp/symdir/<id>/elf
#   debugdir/       /usr/lib/debug's layout: usr/lib/debug/.build-id/xx/yyyy.debug
#                   (objcopy --only-keep-debug) and the stripped program at its path
#   plain/          a plain folder: the program renamed, in a sub-folder
#   mismatch/       the same program built again with another constant (another
#                   build-id) at the recorded path: must never be used
#   script_cache.txt     perf --buildid-dir cache script, the program moved away
#                        (perf finds it only in the cache)
#   script_mismatch.txt  perf --buildid-dir EMPTY script with the other build at
#                        the recorded path (perf refuses it: build-id mismatch)
#   perf 6.1 found nothing with --symfs debugdir (neither the .build-id debug file
#   nor the stripped program), so debugdir/ and plain/ have no perf reference of
#   their own: profscope's names from them must equal script_cache.txt (the same
#   symbols of the same build-id). The cache's [kernel.kallsyms] (5 MB, no kernel
#   sample with :u) is left out.
set -eu
D=$(dirname "$(readlink -f "$0")")
R=/opt/demo/run/symdir_fp
rm -rf "$R" && mkdir -p "$R" && cp "$D/symdir.c" "$R/"
cd "$R"
CF="-O1 -fno-omit-frame-pointer -fno-pie -no-pie -nostdlib -static -Wl,--build-id"
gcc $CF -DVARIANT=0 -o symdir symdir.c
gcc $CF -DVARIANT=1 -o symdir.other symdir.c
perf --buildid-dir "$R/cache" record -e task-clock:u -F 2000 -g -o perf.data ./symdir 2> record.stderr
BID=$(readelf -n symdir | awk '/Build ID/ {print $3}')
mkdir -p debugdir/usr/lib/debug/.build-id/${BID:0:2} debugdir$R plain/bin mismatch$R
objcopy --only-keep-debug symdir debugdir/usr/lib/debug/.build-id/${BID:0:2}/${BID:2}.debug
strip -s -o debugdir$R/symdir symdir
cp symdir plain/bin/renamed_program
cp symdir.other mismatch$R/symdir
rm -rf "cache/[kernel.kallsyms]" cache/.build-id/$(basename "$(dirname "$(find cache -path '*kallsyms*' -name kallsyms | head -1)")" 2>/dev/null | cut -c1-2) 2>/dev/null || true
E=$(mktemp -d)
mv symdir symdir.keep   # perf must find the program only in the folder given
perf --buildid-dir "$R/cache" script -i perf.data > script_cache.txt 2> /dev/null
cp symdir.other symdir
perf --buildid-dir "$E" script -i perf.data > script_mismatch.txt 2> /dev/null
mv symdir.keep symdir
rm -rf "$E"
rm -rf "$D/cache" "$D/debugdir" "$D/plain" "$D/mismatch"
find cache -xtype l -delete   # links of what was left out
cp -a perf.data symdir record.stderr script_cache.txt script_mismatch.txt cache debugdir plain mismatch "$D/"
