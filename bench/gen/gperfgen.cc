// Writes a large, valid gperftools CPU profile (CPUPROFILE=...) from a seed, for
// the benchmarks (bench/run.sh). 64-bit slots, little endian, as libprofiler
// writes it on x86-64 (/work/shared/specs/gperftools-cpuprofile-fileformat.html.txt):
//   header   0, 3, 0, sampling period (us), 0
//   records  count, n_pcs, pc[0] (the interrupted PC) .. pc[n-1] (outermost caller)
//   trailer  0, 1, 0
//   then the text of /proc/self/maps (the program, its shared libraries, heap, stack, vdso).
//   gperfgen OUT SIZE_MB SEED [PERIOD_US=10000]
// Stacks are 5..40 deep: call paths are random walks over a pool of functions in
// the text mappings (paths share their outer frames, as real programs' do); a
// sample takes a path, a depth and a PC inside the leaf function. The profiler
// keeps identical stacks in a small hash table and writes one record per entry
// with its count when evicted or at the end; so counts are small (1..50, mostly
// 1-2: about 2.7 samples a record) and the same stack can appear in several records.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <random>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 4) { fprintf(stderr, "usage: gperfgen OUT SIZE_MB SEED [PERIOD_US=10000]\n"); return 2; }
  const uint64_t target = strtoull(argv[2], nullptr, 10) << 20;
  std::mt19937_64 rng(strtoull(argv[3], nullptr, 10));
  const uint64_t period = argc > 4 ? strtoull(argv[4], nullptr, 10) : 10000;
  auto R = [&](uint64_t n) { return rng() % n; };

  struct Map { uint64_t start, end, off; std::string perms, path; uint64_t inode; };
  std::vector<Map> maps;
  std::vector<size_t> text;  // indexes of r-xp file mappings
  auto add_object = [&](uint64_t base, const std::string& path, uint64_t text_len, uint64_t inode) {
    uint64_t ro = 0x1000 * (1 + R(8)), data = 0x1000 * (1 + R(4));
    maps.push_back({base, base + ro, 0, "r--p", path, inode});
    text.push_back(maps.size());
    maps.push_back({base + ro, base + ro + text_len, ro, "r-xp", path, inode});
    maps.push_back({base + ro + text_len, base + ro + text_len + 0x4000, ro + text_len, "r--p", path, inode});
    maps.push_back({base + ro + text_len + 0x4000, base + ro + text_len + 0x4000 + data, ro + text_len + 0x4000, "rw-p", path, inode});
    return base + ro + text_len + 0x4000 + data;
  };
  add_object(0x55d0c8a00000ull, "/usr/local/bin/benchsrv", 0x400000, 1400001);
  maps.push_back({0x55d0c9e00000ull, 0x55d0ca200000ull, 0, "rw-p", "[heap]", 0});
  uint64_t base = 0x7f2c10000000ull;
  for (int l = 0; l < 24; ++l) {
    uint64_t len = (1 + R(32)) << 16;
    base = add_object(base, "/usr/lib/x86_64-linux-gnu/libbench" + std::to_string(l) + ".so.1", len, 1400100 + l);
    base += 0x10000;
  }
  maps.push_back({0x7ffd3a100000ull, 0x7ffd3a121000ull, 0, "rw-p", "[stack]", 0});
  maps.push_back({0x7ffd3a1f0000ull, 0x7ffd3a1f2000ull, 0, "r-xp", "[vdso]", 0});

  // functions: (start, size) inside the text mappings
  struct Fn { uint64_t start, size; };
  std::vector<Fn> funcs;
  for (int k = 0; k < 20000; ++k) {
    const Map& m = maps[text[k % 3 == 0 ? 0 : R(text.size())]];
    uint64_t size = 16 + R(2000);
    uint64_t start = m.start + R((m.end - m.start - size) / 16) * 16;
    funcs.push_back({start, size});
  }
  const int kPaths = 6000;
  std::vector<std::vector<uint32_t>> paths;  // function indexes, outermost first
  std::vector<uint32_t> outer = {0, 1, 2};    // _start, __libc_start_main, main
  for (int k = 0; k < kPaths; ++k) {
    size_t depth = 5 + R(36);
    std::vector<uint32_t> p = outer;
    if (k > 0 && R(4) != 0) {
      const auto& o = paths[R(k)];
      size_t keep = std::min<size_t>(o.size(), 3 + R(25));
      p.assign(o.begin(), o.begin() + static_cast<long>(keep));
    }
    while (p.size() < depth) p.push_back(static_cast<uint32_t>(R(funcs.size())));
    paths.push_back(std::move(p));
  }
  // a return address inside each (caller) function, fixed per (path position) as a real call site
  auto ret_addr = [&](uint32_t fn, uint32_t callee) {
    const Fn& f = funcs[fn];
    return f.start + 5 + (callee * 2654435761u) % (f.size - 5);
  };

  FILE* f = fopen(argv[1], "wb");
  if (!f) { perror(argv[1]); return 1; }
  std::vector<uint64_t> w = {0, 3, 0, period, 0};
  uint64_t records = 0, samples = 0, written = 0;
  auto flush = [&]() { fwrite(w.data(), 8, w.size(), f); written += w.size() * 8; w.clear(); };
  const uint64_t maps_budget = 4096;
  while (written + w.size() * 8 + maps_budget < target) {
    const auto& p = paths[R(kPaths)];
    size_t depth = 5 + R(p.size() - 4);  // 5..p.size()
    uint64_t count = R(10) ? 1 + R(2) : 1 + R(R(50) + 1);  // mostly 1-2, sometimes a hot stack
    w.push_back(count);
    w.push_back(depth);
    const Fn& leaf = funcs[p[depth - 1]];
    w.push_back(leaf.start + R(leaf.size));  // the interrupted PC
    for (size_t d = depth - 1; d-- > 0;) w.push_back(ret_addr(p[d], p[d + 1]));  // callers, innermost first
    ++records;
    samples += count;
    if (w.size() > (1u << 20)) flush();
  }
  w.push_back(0); w.push_back(1); w.push_back(0);  // trailer
  flush();
  std::string text_maps;
  char line[512];
  for (const Map& m : maps) {
    snprintf(line, sizeof line, "%llx-%llx %s %08llx 00:00 %-11llu %s\n", (unsigned long long)m.start,
             (unsigned long long)m.end, m.perms.c_str(), (unsigned long long)m.off, (unsigned long long)m.inode,
             m.path.c_str());
    text_maps += line;
  }
  fwrite(text_maps.data(), 1, text_maps.size(), f);
  written += text_maps.size();
  fclose(f);
  printf("{\"file\":\"%s\",\"bytes\":%llu,\"records\":%llu,\"samples\":%llu,\"period_us\":%llu,\"maps\":%zu}\n", argv[1],
         (unsigned long long)written, (unsigned long long)records, (unsigned long long)samples,
         (unsigned long long)period, maps.size());
  return 0;
}
