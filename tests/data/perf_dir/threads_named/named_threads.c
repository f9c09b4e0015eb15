// Three named threads, each spinning in functions of its own, and main waiting:
// a small multi-threaded workload for perf record --threads.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static volatile unsigned long sink;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

__attribute__((noinline)) static void leaf_a(void) { for (int i = 0; i < 20000; i++) sink += i; }
__attribute__((noinline)) static void mid_a(void) { leaf_a(); }
__attribute__((noinline)) static void leaf_b(void) { for (int i = 0; i < 20000; i++) sink ^= i; }
__attribute__((noinline)) static void mid_b(void) { leaf_b(); leaf_b(); }
__attribute__((noinline)) static void leaf_c(void) { for (int i = 0; i < 20000; i++) sink += i * 3; }

static void *run(void *arg) {
  const char *name = arg;
  pthread_setname_np(pthread_self(), name);
  double end = now() + 0.6;
  while (now() < end) {
    if (name[0] == 'a') mid_a();
    else if (name[0] == 'b') mid_b();
    else leaf_c();
  }
  return NULL;
}

int main(void) {
  pthread_t t[3];
  static char *names[] = {"alpha", "beta", "gamma"};
  for (int i = 0; i < 3; i++) pthread_create(&t[i], NULL, run, names[i]);
  for (int i = 0; i < 3; i++) pthread_join(t[i], NULL);
  printf("%lu\n", sink);
  return 0;
}
