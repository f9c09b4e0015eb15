// Three worker threads, each with its own known call tree, and XRay custom
// events (FDR mode records them; basic mode has no custom-event handler).
// main is not instrumented: it sets up and flushes the XRay log itself
// (LLVM 14 writes nothing with XRAY_OPTIONS alone).
#include <xray/xray_interface.h>
#include <xray/xray_log_interface.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <atomic>
#include <thread>

static volatile unsigned long sink;
static std::atomic<int> ready{0};

[[clang::xray_always_instrument]] [[gnu::noinline]] void leaf(unsigned long n) {
  for (unsigned long i = 0; i < n; ++i) sink = sink + i;
}
[[clang::xray_always_instrument]] [[gnu::noinline]] void mid(int k, unsigned long n) {
  for (int i = 0; i < k; ++i) leaf(n);
}
[[clang::xray_always_instrument]] [[gnu::noinline]] void note(int worker, int round) {
  char msg[64];
  int len = std::snprintf(msg, sizeof msg, "worker %d round %d\x01", worker, round);
  __xray_customevent(msg, static_cast<size_t>(len));
}
[[clang::xray_always_instrument]] [[gnu::noinline]] void deep(int d, unsigned long n) {
  if (d > 0) deep(d - 1, n);
  else leaf(n);
}
[[clang::xray_always_instrument]] [[gnu::noinline]] void worker(int id) {
  ready.fetch_add(1);
  while (ready.load() < 3) {}  // start together, so the threads' buffers interleave
  for (int round = 0; round < 4; ++round) {
    note(id, round);
    if (id == 0) mid(2, 200);
    else if (id == 1) deep(3, 100);
    else { mid(1, 50); deep(1, 50); }
  }
}

[[clang::xray_never_instrument]] int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "xray-fdr";
  if (__xray_log_select_mode(mode) != XRayLogRegisterStatus::XRAY_REGISTRATION_OK) return 2;
  if (__xray_log_init_mode(mode, std::getenv("XRAY_INIT") ? std::getenv("XRAY_INIT") : "") != XRayLogInitStatus::XRAY_LOG_INITIALIZED) return 3;
  __xray_patch();
  std::thread t0(worker, 0), t1(worker, 1), t2(worker, 2);
  t0.join(); t1.join(); t2.join();
  __xray_log_finalize();
  __xray_log_flushLog();
  return 0;
}
