/* DWARF unwinding test workload: samples in a SIGPROF handler (the stack
   goes through the kernel's signal frame and libc's __restore_rt) and in
   PLT stubs (a tiny libc function called through the PLT in a tight loop).
   Built without frame pointers, dynamically linked. */
#include <signal.h>
#include <stdlib.h>
#include <sys/time.h>

volatile long sink;
volatile long ticks;

__attribute__((noipa)) static long handler_work(long n) {
  long s = 0;
  for (long i = 0; i < n; ++i) s += labs(i - n / 2 + ticks);
  return s;
}

static void on_prof(int sig) {
  (void)sig;
  ++ticks;
  sink += handler_work(300000);
}

__attribute__((noipa)) static long plt_loop(long n, long k) {
  long s = 0;
  for (long i = 0; i < n; ++i) s += labs(i - k) + llabs(i - 9);
  return s;
}

__attribute__((noipa)) static long outer(long rounds) {
  long s = 0;
  for (long k = 0; k < rounds; ++k) s += plt_loop(200000, k);
  return s;
}

int main(int argc, char** argv) {
  long rounds = argc > 1 ? atol(argv[1]) : 300;
  struct sigaction sa = {0};
  sa.sa_handler = on_prof;
  sigaction(SIGPROF, &sa, 0);
  struct itimerval it = {{0, 1000}, {0, 1000}};
  setitimer(ITIMER_PROF, &it, 0);
  sink = outer(rounds);
  return (int)(sink & 1) ^ (int)(ticks & 0);
}
