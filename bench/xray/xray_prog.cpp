// The program bench/xray/run.sh records with LLVM XRay's FDR runtime (clang-14
// -fxray-instrument): `xray_prog deep DEPTH` recurses DEPTH frames deep once
// (folded stacks quadratic in DEPTH); `xray_prog calls N` makes about N
// instrumented calls over 4 threads through a fixed call graph (a few hundred
// distinct stacks, 3-12 deep, like a program's hot loops).
// main is not instrumented: it selects FDR mode, patches and flushes the log
// itself (LLVM 14 writes no FDR log from XRAY_OPTIONS alone); XRAY_INIT is
// the mode's configuration string.
#include <xray/xray_interface.h>
#include <xray/xray_log_interface.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

static volatile unsigned long sink;
static std::atomic<long> budget{0};

[[clang::xray_always_instrument]] [[gnu::noinline]] void recurse(int d) {
  if (d > 1) recurse(d - 1);
  sink = sink + 1;
}

[[clang::xray_always_instrument]] [[gnu::noinline]] void leaf_a(unsigned n) { sink = sink + n; }
[[clang::xray_always_instrument]] [[gnu::noinline]] void leaf_b(unsigned n) { sink = sink ^ n; }
[[clang::xray_always_instrument]] [[gnu::noinline]] void leaf_c(unsigned n) { sink = sink * 3 + n; }
[[clang::xray_always_instrument]] [[gnu::noinline]] void node(unsigned seed, int depth);
[[clang::xray_always_instrument]] [[gnu::noinline]] void parse(unsigned seed, int depth) {
  leaf_a(seed);
  if (depth > 0) node(seed * 7 + 1, depth - 1);
  leaf_b(seed);
}
[[clang::xray_always_instrument]] [[gnu::noinline]] void eval(unsigned seed, int depth) {
  if (depth > 0 && (seed & 3) != 0) node(seed * 5 + 3, depth - 1);
  leaf_c(seed);
}
[[clang::xray_always_instrument]] [[gnu::noinline]] void node(unsigned seed, int depth) {
  switch (seed % 3) {
    case 0: parse(seed >> 2, depth); break;
    case 1: eval(seed >> 2, depth); break;
    default: leaf_a(seed); leaf_c(seed); break;
  }
}
[[clang::xray_always_instrument]] [[gnu::noinline]] void task(unsigned id) {
  for (unsigned k = 0; k < 8; ++k) node(id * 31 + k, 1 + static_cast<int>((id + k) % 5));
}
[[clang::xray_always_instrument]] [[gnu::noinline]] void worker(unsigned id) {
  for (unsigned round = 0; budget.fetch_sub(1) > 0; ++round) task(id * 1000 + round % 97);
}

[[clang::xray_never_instrument]] int main(int argc, char** argv) {
  if (argc < 3) return 1;
  const char* mode = "xray-fdr";
  if (__xray_log_select_mode(mode) != XRayLogRegisterStatus::XRAY_REGISTRATION_OK) return 2;
  const char* init = std::getenv("XRAY_INIT");
  if (__xray_log_init_mode(mode, init ? init : "") != XRayLogInitStatus::XRAY_LOG_INITIALIZED) return 3;
  __xray_patch();
  if (std::strcmp(argv[1], "deep") == 0) {
    recurse(std::atoi(argv[2]));
  } else {
    // about 60 calls per task
    budget = std::atol(argv[2]) / 60;
    std::vector<std::thread> ts;
    for (unsigned t = 0; t < 4; ++t) ts.emplace_back(worker, t);
    for (auto& t : ts) t.join();
  }
  __xray_log_finalize();
  __xray_log_flushLog();
  return 0;
}
