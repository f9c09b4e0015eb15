#!/bin/bash
# perf case 'vmlinux_fp': kernel frames named from a vmlinux (profscope --symbols
# vmlinux, perf script --vmlinux). This machine has no vmlinux of its kernel
# (a custom 6.18 build: no /boot/vmlinux*, no /usr/lib/debug/boot, no modules)
# and Debian's linux-image-*-dbg is for Debian's kernels, so the vmlinux is
# made here by the real toolchain from the running kernel's /proc/kallsyms
# (mkvmlinux.py + as + ld): the text symbols holding the recorded kernel
# addresses (and the symbol after each), in a NOBITS .text linked 16 MiB below
# the running kernel's _text (as if from another KASLR boot: perf and profscope
# must relocate by the recorded _text), with the recorded kernel's build-id.
# vmlinux.other has another build-id (refused by both).
# Made with Debian 12's gcc 12.2, binutils 2.40 and perf 6.1 as root, under /opt/demo.
#   perf.data            perf record -e task-clock -F 2000 -g ./sys (kernel + user)
#   script_vmlinux.txt   perf script --vmlinux vmlinux
#   script_other.txt     perf script --vmlinux vmlinux.other (perf refuses it and
#                        falls back to /proc/kallsyms: not a reference of names
#                        without the file; kept to show perf's refusal)
set -eu
D=$(dirname "$(readlink -f "$0")")
R=/opt/demo/run/vmlinux_fp
rm -rf "$R" && mkdir -p "$R" && cp "$D/sys.c" "$D/mkvmlinux.py" "$R/"
cd "$R"
gcc -O1 -fno-omit-frame-pointer -o sys sys.c
perf record -e task-clock -F 2000 -g -o perf.data ./sys 2> record.stderr
KID=$(perf buildid-list -i perf.data 2>/dev/null | awk '$2 == "[kernel.kallsyms]" {print $1}')
perf script -F ip -i perf.data 2> /dev/null | awk 'NF == 1 {print $1}' | sort -u > kaddrs.txt
python3 mkvmlinux.py /proc/kallsyms kaddrs.txt 0x1000000 vmlinux.s
as -o vmlinux.o vmlinux.s 2> /dev/null
TEXT=$(awk '$3 == "_text" {print $1; exit}' /proc/kallsyms)
BASE=$(printf '0x%x' $(( 0x$TEXT - 0x1000000 )))
printf 'SECTIONS {\n  .note.gnu.build-id %s : { *(.note.gnu.build-id) }\n  .text %s (NOLOAD) : { *(.text) }\n}\n' \
  $(printf '0x%x' $(( 0x$TEXT - 0x2000000 ))) "$BASE" > vmlinux.lds
ld -T vmlinux.lds --build-id=0x$KID -e _text -o vmlinux vmlinux.o
ld -T vmlinux.lds --build-id=0x00112233445566778899aabbccddeeff00112233 -e _text -o vmlinux.other vmlinux.o
perf script --vmlinux "$R/vmlinux" -i perf.data > script_vmlinux.txt 2> /dev/null
cp perf.data sys record.stderr vmlinux vmlinux.other script_vmlinux.txt "$D/"
