#!/usr/bin/env python3
# Writes the seeds of fuzz/unwind_fuzz.cc into fuzz/seeds/unwind_fuzz/ (run
# once; the seeds are committed). Inputs are laid out for libFuzzer's
# FuzzedDataProvider: the blobs from the front (CFI, .eh_frame_hdr, stack
# copy), the integers from the back (flags, lengths, mapping, then registers).
# Material: the .eh_frame/.eh_frame_hdr and the whole ELF of
# tests/data/perf/dwarf_mt_nofp_pipe/mt_nofp, a real 8 KiB stack copy of
# tests/data/perf/dwarf_static_nofp/perf.data, and a small program built with
# a zlib-compressed .debug_frame (gcc -g -fno-asynchronous-unwind-tables,
# objcopy --compress-debug-sections=zlib-gabi), given as argv[1].
import os, struct, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, 'fuzz', 'seeds', 'unwind_fuzz')

def section(elf, name):
    with tempfile.NamedTemporaryFile() as t:
        subprocess.run(['objcopy', '-O', 'binary', '--only-section=' + name, elf, t.name], check=True)
        return open(t.name, 'rb').read()

def seed(name, flags, cfi, hdr, stack, map_start, pgoff, regs):
    back = [(flags, 1), (len(cfi), 2), (len(hdr), 2), (len(stack), 2), (map_start, 4), (pgoff, 2)]
    back += [(r, 8) for r in regs]
    tail = b''.join(v.to_bytes(n, 'little') for v, n in reversed(back))
    open(os.path.join(OUT, name), 'wb').write(cfi + hdr + stack + tail)

os.makedirs(OUT, exist_ok=True)
mt = os.path.join(ROOT, 'tests', 'data', 'perf', 'dwarf_mt_nofp_pipe', 'mt_nofp')
eh, hdr = section(mt, '.eh_frame'), section(mt, '.eh_frame_hdr')
perf = open(os.path.join(ROOT, 'tests', 'data', 'perf', 'dwarf_static_nofp', 'perf.data'), 'rb').read()
stack = perf[0x7c0 + 0xe8: 0x7c0 + 0xe8 + 8192]  # the first SAMPLE's stack copy (record + 0xe8)
x86 = [0] * 17
x86[16] = 0x100000 + 0x10100      # pc inside the synthetic module's range
seed('x86_64_eh_frame_hdr', 4 | 8, eh, hdr, stack[:2048], 0x100000, 0, x86)
seed('x86_64_eh_frame_only', 0, eh, b'', stack[:512], 0x100000, 0, x86)
elf = open(mt, 'rb').read()
x86e = [0] * 17
x86e[16] = 0x200000 + 0x1245      # a pc in mt_nofp's .text, mapped at 0x200000
seed('x86_64_elf', 4 | 16 | 32, elf, b'', stack, 0x200000, 0, x86e)
if len(sys.argv) > 1:
    small = open(sys.argv[1], 'rb').read()
    x86s = [0] * 17
    x86s[16] = 0x300000 + 0x1142
    seed('x86_64_elf_zlib_debug_frame', 16, small, b'', stack[:1024], 0x300000, 0, x86s)
a64 = [0] * 33
a64[32] = 0x100000 + 0x10100
seed('aarch64_eh_frame_hdr', 1 | 4 | 8, eh, hdr, stack[:1024], 0x100000, 0, a64)
seed('i386_eh_frame', 2, eh, hdr, stack[:256], 0x100000, 0, [0] * 9)
print('seeds in', OUT)
