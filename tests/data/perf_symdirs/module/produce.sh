#!/bin/bash
# A stand-in kernel module for the module-file tests: this machine's kernel
# has no modules (no /proc/modules, no /lib/modules), so no recording with a
# module mapping can be made here and module naming is NOT checked against
# perf. demo-mod.ko is a relocatable object made by Debian 12's gcc 12.2
# (ET_REL, as a .ko), demo-mod.ko.xz the same compressed by xz 5.4 (perf reads
# compressed modules; [demo_mod] is its name in perf).
set -eu
cd "$(dirname "$(readlink -f "$0")")"
gcc -O1 -fno-pie -c -o demo-mod.ko demo_mod.c
xz -k -f -9 demo-mod.ko
