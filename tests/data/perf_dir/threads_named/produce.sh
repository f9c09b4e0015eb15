#!/bin/bash
# perf record --threads of three named threads (alpha, beta, gamma: pthread_setname_np), user space only,
# with frame pointers: a perf.data directory whose two data.N files (one per CPU of this 2-CPU machine)
# both hold samples of every thread. Made 2026-11-27 with Debian's perf 6.1 on Debian 12 (kernel 6.x),
# gcc 12; perf script named the frames from named_threads and this machine's
# /lib/x86_64-linux-gnu/libc.so.6 (perf read the files in readdir order: data.1, data.0, data).
gcc -O1 -g -fno-omit-frame-pointer -pthread -o named_threads named_threads.c
perf record --threads --all-user -F 2000 -g -o perf.data ./named_threads 2> record.stderr
perf script -i perf.data > script_default.txt
