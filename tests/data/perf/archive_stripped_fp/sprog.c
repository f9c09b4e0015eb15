/* archive_stripped_fp: a program with frame pointers, stripped of its symbol
 * table (strip --strip-all: only .dynsym is left, which names none of these
 * functions). perf names its frames "[unknown]" although it has the file. */
#include <time.h>
volatile long sink;
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
__attribute__((noinline)) long leaf(int n) { long x = 0; for (int i = 0; i < n; i++) x += (long)i * i % 7; return x; }
__attribute__((noinline)) long mid(int n) { return leaf(n) + leaf(n / 2); }
int main(void) {
  double t0 = now();
  while (now() - t0 < 0.8) sink += mid(100000);
  return (int)(sink & 1);
}
