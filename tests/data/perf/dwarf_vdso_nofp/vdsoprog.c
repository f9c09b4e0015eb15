/* dwarf_vdso_nofp: a program without frame pointers that spends much of its
 * time in clock_gettime, which runs in the [vdso]: perf unwinds through the
 * vdso with its own copy of it (the running kernel's). */
#include <time.h>
volatile long sink;
__attribute__((noinline)) long stamp(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_nsec; }
__attribute__((noinline)) long busy(int n) { long x = 0; for (int i = 0; i < n; i++) x += stamp() & 7; return x; }
int main(void) {
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  do { sink += busy(1000); clock_gettime(CLOCK_MONOTONIC, &t); } while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 600000000L);
  return (int)(sink & 1);
}
