// Writes a large, valid jitdump (jit-PID.dump) from a seed, for the benchmarks
// (bench/run.sh): version 1, little endian, x86-64 (e_machine 62), CLOCK_MONOTONIC
// timestamps (flags 0), as perf's jvmti agent / V8's --perf-prof write it.
//   jitgen OUT SIZE_MB SEED
// Records (layouts from /work/shared/specs/jitdump-specification.txt and perf's
// tools/perf/util/jitdump.h): mostly JIT_CODE_LOAD with the code bytes
// (32..2048 bytes of plausible x86-64: a push rbp / mov rbp,rsp prologue, filler,
// leave; ret), names in V8's style, code laid out upwards in a code cache;
// JIT_CODE_DEBUG_INFO before about one load in four (perf gives a DEBUG_INFO to
// the next CODE_LOAD), 2..24 line entries; JIT_CODE_MOVE for about one load in
// fifty (an earlier function moved to new space, same size and code_index);
// JIT_CODE_CLOSE at the end. Timestamps grow; several JIT threads.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {
struct Buf {
  std::vector<uint8_t> b;
  void u32(uint32_t v) { raw(&v, 4); }
  void u64(uint64_t v) { raw(&v, 8); }
  void raw(const void* p, size_t n) { b.insert(b.end(), (const uint8_t*)p, (const uint8_t*)p + n); }
  void str(const std::string& s) { raw(s.c_str(), s.size() + 1); }
  void patch32(size_t at, uint32_t v) { memcpy(&b[at], &v, 4); }
};
size_t Begin(Buf& o, uint32_t id, uint64_t ts) { size_t at = o.b.size(); o.u32(id); o.u32(0); o.u64(ts); return at; }
void End(Buf& o, size_t at) { o.patch32(at + 4, static_cast<uint32_t>(o.b.size() - at)); }
}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) { fprintf(stderr, "usage: jitgen OUT SIZE_MB SEED\n"); return 2; }
  const uint64_t target = strtoull(argv[2], nullptr, 10) << 20;
  std::mt19937_64 rng(strtoull(argv[3], nullptr, 10));
  auto R = [&](uint64_t n) { return rng() % n; };
  const uint32_t pid = 4242;
  FILE* f = fopen(argv[1], "wb");
  if (!f) { perror(argv[1]); return 1; }
  uint64_t ts = 5000000000000ull;  // CLOCK_MONOTONIC ns
  Buf o;
  o.u32(0x4A695444);  // "JiTD" in the writer's byte order
  o.u32(1);           // version
  o.u32(40);          // header size
  o.u32(62);          // EM_X86_64
  o.u32(0);           // pad1
  o.u32(pid);
  o.u64(ts);
  o.u64(0);           // flags: no ARCH_TIMESTAMP
  uint64_t written = 0, loads = 0, moves = 0, debug = 0, debug_entries = 0, code_bytes = 0;
  uint64_t cache = 0x7f3a40000000ull, index = 1;
  struct Fn { uint64_t addr, size, index; std::string name; };
  std::vector<Fn> fns;
  static const char* kKinds[] = {"LazyCompile:*", "LazyCompile:~", "Function:^", "Builtin:", "Stub:"};
  auto flush = [&]() { fwrite(o.b.data(), 1, o.b.size(), f); written += o.b.size(); o.b.clear(); };
  while (written + o.b.size() < target) {
    ts += 1000 + R(200000);
    uint32_t tid = pid + static_cast<uint32_t>(R(4));
    if (!fns.empty() && R(50) == 0) {  // JIT_CODE_MOVE of an earlier function
      Fn& fn = fns[R(fns.size())];
      uint64_t old = fn.addr;
      fn.addr = cache;
      cache += (fn.size + 15) & ~15ull;
      size_t at = Begin(o, 1, ts);
      o.u32(pid); o.u32(tid);
      o.u64(fn.addr); o.u64(old); o.u64(fn.addr); o.u64(fn.size); o.u64(fn.index);
      End(o, at);
      ++moves;
      continue;
    }
    uint64_t size = 32 + R(R(8) == 0 ? 2016 : 480);
    uint64_t addr = cache;
    cache += (size + 15) & ~15ull;
    int mod = static_cast<int>(R(300));
    std::string name = std::string(kKinds[R(5)]) + "fn" + std::to_string(R(60000)) + " /srv/app/src/mod" +
                       std::to_string(mod) + ".js:" + std::to_string(1 + R(900)) + ":" + std::to_string(1 + R(80));
    if (R(4) == 0) {  // JIT_CODE_DEBUG_INFO for the next load
      uint64_t n = 2 + R(23);
      size_t at = Begin(o, 2, ts);
      o.u64(addr); o.u64(n);
      uint64_t a = addr;
      uint32_t line = 1 + static_cast<uint32_t>(R(900));
      std::string file = "/srv/app/src/mod" + std::to_string(mod) + ".js";
      for (uint64_t k = 0; k < n; ++k) {
        o.u64(a); o.u32(line); o.u32(0); o.str(file);
        a += 1 + R(size / n + 1);
        if (a >= addr + size) a = addr + size - 1;
        line += static_cast<uint32_t>(R(4));
      }
      End(o, at);
      ++debug; debug_entries += n;
    }
    size_t at = Begin(o, 0, ts);
    o.u32(pid); o.u32(tid);
    o.u64(addr); o.u64(addr); o.u64(size); o.u64(index);
    o.str(name);
    static const uint8_t kPrologue[] = {0x55, 0x48, 0x89, 0xe5};  // push rbp; mov rbp, rsp
    static const uint8_t kEpilogue[] = {0xc9, 0xc3};              // leave; ret
    o.raw(kPrologue, 4);
    for (uint64_t k = 4; k + 2 < size; ++k) o.b.push_back(static_cast<uint8_t>(R(256)));
    o.raw(kEpilogue, 2);
    End(o, at);
    fns.push_back({addr, size, index, name});
    ++index; ++loads; code_bytes += size;
    if (o.b.size() > (8u << 20)) flush();
  }
  size_t at = Begin(o, 3, ts + 1000);  // JIT_CODE_CLOSE
  End(o, at);
  flush();
  fclose(f);
  printf("{\"file\":\"%s\",\"bytes\":%llu,\"records\":%llu,\"code_load\":%llu,\"code_move\":%llu,\"debug_info\":%llu,"
         "\"debug_entries\":%llu,\"code_bytes\":%llu}\n",
         argv[1], (unsigned long long)written, (unsigned long long)(loads + moves + debug + 1), (unsigned long long)loads,
         (unsigned long long)moves, (unsigned long long)debug, (unsigned long long)debug_entries,
         (unsigned long long)code_bytes);
  return 0;
}
