#!/usr/bin/env python3
# A small vmlinux for the kernel addresses of a recording, made by the real
# toolchain (as + ld): the /proc/kallsyms text symbols (T/t/W/w) that hold a
# sampled kernel address and the symbol after each (its end), in a NOBITS
# .text linked SHIFT bytes below the running kernel's _text (as a KASLR boot
# would be seen from another one), with the recorded kernel's build-id.
# Usage: mkvmlinux.py KALLSYMS ADDRS_FILE SHIFT OUT.s
import sys
kall, addrs_file, shift, out = sys.argv[1], sys.argv[2], int(sys.argv[3], 0), sys.argv[4]
syms = []
for line in open(kall):
    p = line.split()
    if len(p) < 3 or p[1] not in 'TtWw' or (len(p) > 3 and p[3].startswith('[')):
        continue
    syms.append((int(p[0], 16), p[2]))
syms.sort()
text = next(a for a, n in syms if n == '_text')
etext = next(a for a, n in syms if n == '_etext')
syms = [(a, n) for a, n in syms if text <= a <= etext]
want = set()
import bisect
starts = [a for a, n in syms]
for line in open(addrs_file):
    line = line.strip()
    if not line: continue
    a = int(line, 16)
    if not (text <= a < etext): continue
    i = bisect.bisect_right(starts, a) - 1
    # every alias at that address, and the next address's symbols (the end)
    for j in range(i, -1, -1):
        if starts[j] != starts[i]: break
        want.add(j)
    j = i + 1
    while j < len(starts) and starts[j] == starts[i]: j += 1
    k = j
    while k < len(starts) and starts[k] == starts[j]:
        want.add(k); k += 1
want.update(i for i, (a, n) in enumerate(syms) if n in ('_text', '_stext', '_etext'))
with open(out, 'w') as f:
    f.write('\t.section .text,"ax",@nobits\n')
    seen = set()
    for i in sorted(want, key=lambda i: (syms[i][0], i)):
        a, n = syms[i]
        if n in seen: continue
        seen.add(n)
        f.write(f'\t.org 0x{a - text:x}\n\t.globl {n}\n\t.type {n},@function\n{n}:\n' if n not in ('_text','_stext','_etext') else f'\t.org 0x{a - text:x}\n\t.globl {n}\n{n}:\n')
print(len(seen), 'symbols', file=sys.stderr)
