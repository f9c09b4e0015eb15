// The program bench/perfreal/run.sh records with `perf record -F 20000 -g`: a deep
// recursion, no libc in the hot path (only arithmetic), built with frame pointers so
// that -g's callchains hold every level. Each task recurses 8..48 levels deep (a hash
// of its number), spinning a little at every level and longer at the bottom, so
// samples fall at every depth; the same callchains come back over and over, as in a
// real program's hot loops.
//   deep SECONDS [THREADS] [PATHS]   (runs until SECONDS have passed, or until killed)
// PATHS (default 1): with 1, one function calls itself from one call site; with more,
// three mutually recursive functions, and each task takes one of PATHS paths through
// them (2 bits a level: which function and which of four call sites), so there are
// many more distinct callchains (and perf report builds a much bigger call graph).
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))

static volatile unsigned long sink;
static volatile int stop;

NOINLINE static unsigned long spin(unsigned long x, int n) {
  for (int i = 0; i < n; i++) x = x * 6364136223846793005UL + 1442695040888963407UL;
  return x;
}

NOINLINE static unsigned long walk_a(int depth, unsigned long path, unsigned long x);
NOINLINE static unsigned long walk_b(int depth, unsigned long path, unsigned long x);
NOINLINE static unsigned long walk_c(int depth, unsigned long path, unsigned long x);

static inline unsigned long next_path(unsigned long p) { return (p >> 2) | (p << 62); }

// Each level: some work, then one of four call sites (two reach walk_a), then more work
// after the call (no tail calls: every level keeps its frame).
#define LEVEL(self_work)                                                   \
  x = spin(x, self_work);                                                  \
  if (depth == 0) return spin(x, 1500);                                    \
  switch (path & 3) {                                                      \
    case 0: x = walk_a(depth - 1, next_path(path), x); break;              \
    case 1: x = walk_b(depth - 1, next_path(path), x); break;              \
    case 2: x = walk_c(depth - 1, next_path(path), x); break;              \
    default: x = walk_a(depth - 1, next_path(path), x) + 1; break;         \
  }                                                                        \
  return x ^ (unsigned long)depth;

NOINLINE static unsigned long walk_a(int depth, unsigned long path, unsigned long x) { LEVEL(40) }
NOINLINE static unsigned long walk_b(int depth, unsigned long path, unsigned long x) { LEVEL(60) }
NOINLINE static unsigned long walk_c(int depth, unsigned long path, unsigned long x) { LEVEL(80) }

static unsigned long mix(unsigned long z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9UL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebUL;
  return z ^ (z >> 31);
}

static unsigned long npaths = 1;

NOINLINE static void *worker(void *arg) {
  unsigned long seed = (unsigned long)arg, x = seed;
  for (unsigned long task = 0; !stop; ++task) {
    unsigned long t = task * 2654435761UL + seed;
    int depth = 8 + (int)(mix(t % 4096 + 1) % 41);
    unsigned long path = npaths > 1 ? mix(t % npaths + 7) : 0;
    x = walk_a(depth, path, x);
  }
  sink = x;
  return 0;
}

int main(int argc, char **argv) {
  int seconds = argc > 1 ? atoi(argv[1]) : 10;
  int threads = argc > 2 ? atoi(argv[2]) : 1;
  if (argc > 3 && atol(argv[3]) > 0) npaths = (unsigned long)atol(argv[3]);
  if (threads < 1) threads = 1;
  if (threads > 64) threads = 64;
  pthread_t t[64];
  for (int i = 0; i < threads; i++) pthread_create(&t[i], 0, worker, (void *)(unsigned long)(i * 7919 + 1));
  struct timespec ts = {seconds, 0};
  nanosleep(&ts, 0);
  stop = 1;
  for (int i = 0; i < threads; i++) pthread_join(t[i], 0);
  return 0;
}
