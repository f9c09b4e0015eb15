/* A small multi-threaded program for the diff test data (see produce.sh):
   three threads doing different work for a while; argv[1] scales the sort thread. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile uint64_t sink;

__attribute__((noinline)) static uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h;
}

__attribute__((noinline)) static uint64_t hash_block(const uint8_t* p, size_t n, uint64_t seed) {
  uint64_t h = 1469598103934665603ULL ^ seed;
  for (size_t i = 0; i < n; ++i) h = mix(h, p[i]);
  return h;
}

__attribute__((noinline)) static void* hash_worker(void* arg) {
  (void)arg;
  static uint8_t buf[1 << 16];
  for (size_t i = 0; i < sizeof buf; ++i) buf[i] = (uint8_t)(i * 31);
  uint64_t h = 0;
  for (int r = 0; r < 800; ++r) h ^= hash_block(buf, sizeof buf, (uint64_t)r);
  sink = h;
  return NULL;
}

static int cmp_u32(const void* a, const void* b) {
  uint32_t x = *(const uint32_t*)a, y = *(const uint32_t*)b;
  return x < y ? -1 : x > y;
}

__attribute__((noinline)) static void fill(uint32_t* v, size_t n, uint32_t seed) {
  for (size_t i = 0; i < n; ++i) {
    seed = seed * 1664525u + 1013904223u;
    v[i] = seed;
  }
}

__attribute__((noinline)) static void* sort_worker(void* arg) {
  int rounds = *(int*)arg;
  size_t n = 200000;
  uint32_t* v = malloc(n * sizeof *v);
  for (int r = 0; r < rounds; ++r) {
    fill(v, n, (uint32_t)r);
    qsort(v, n, sizeof *v, cmp_u32);
  }
  sink = v[n / 2];
  free(v);
  return NULL;
}

__attribute__((noinline)) static double sum_series(int n) {
  double s = 0;
  for (int i = 1; i < n; ++i) s += 1.0 / ((double)i * i);
  return s;
}

__attribute__((noinline)) static void* sum_worker(void* arg) {
  (void)arg;
  double s = 0;
  for (int r = 0; r < 300; ++r) s += sum_series(200000 + r);
  sink = (uint64_t)s;
  return NULL;
}

int main(int argc, char** argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 4;
  pthread_t t[3];
  pthread_create(&t[0], NULL, hash_worker, NULL);
  pthread_create(&t[1], NULL, sort_worker, &rounds);
  pthread_create(&t[2], NULL, sum_worker, NULL);
  for (int i = 0; i < 3; ++i) pthread_join(t[i], NULL);
  printf("%llu\n", (unsigned long long)sink);
  return 0;
}
