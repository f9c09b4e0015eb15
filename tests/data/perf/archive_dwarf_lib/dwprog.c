/* archive_dwarf_lib: a program without frame pointers, its own shared library
 * (libdwlib.so) and two threads, recorded with --call-graph dwarf, then perf
 * archive. Time is spent in the program and the library only (no libc hits),
 * so the archive holds the program, the library, [vdso] if hit, and kallsyms. */
#include <pthread.h>
#include <time.h>
long lib_outer(long n, int reps);
volatile long sink;
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
__attribute__((noinline)) long leaf(int n) { long x = 0; for (int i = 0; i < n; i++) x += (long)i * i % 7; return x; }
__attribute__((noinline)) long rec(int d) { if (d == 0) return leaf(200000); return rec(d - 1) + d; }
__attribute__((noinline)) void via_lib(void) { sink += lib_outer(50000, 4); }
static void *worker(void *a) { (void)a; double t0 = now(); while (now() - t0 < 0.6) sink += rec(9); return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  double t0 = now();
  while (now() - t0 < 0.6) via_lib();
  pthread_join(t, 0);
  return (int)(sink & 1);
}
