/* dwarf_fork_exec_nofp: a program without frame pointers that forks two children (they inherit its maps)
 * and forks a third that execs the program again (perf keeps the maps it inherited after the exec). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>
#include <time.h>
volatile long sink;
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
__attribute__((noinline)) long spin(int n) { long x = 0; for (int i = 0; i < n; i++) x += i * i % 7; return x; }
__attribute__((noinline)) void child_work(int k) { double t0 = now(); while (now() - t0 < 0.4) sink += spin(10000 + k); }
__attribute__((noinline)) void parent_work(void) { double t0 = now(); while (now() - t0 < 0.4) sink += spin(30000); }
int main(int argc, char **argv) {
  if (argc > 1) { child_work(99); return 0; }
  for (int k = 0; k < 2; k++) if (fork() == 0) { child_work(k); _exit(0); }
  if (fork() == 0) { execl("/proc/self/exe", "forky", "x", (char *)0); _exit(1); }
  parent_work();
  while (wait(0) > 0) {}
  return 0;
}
