// Writes a large, valid perf.data from a seed, for the benchmarks (bench/run.sh):
// file mode (header, attrs + ids, data, no feature sections) or pipe mode
// (HEADER_ATTR records, then the stream). Several events (cpu-clock,
// task-clock, cycles), many processes, threads and mappings (MMAP2 + COMM),
// frame-pointer-style callchains 10-60 deep (PERF_CONTEXT_USER + return
// addresses inside the mappings), FINISHED_ROUND every 1000 samples,
// timestamps increasing. Little endian, sample_id_all.
//   perfgen OUT SIZE_MB SEED [pipe]
// The layouts follow the kernel's include/uapi/linux/perf_event.h and perf's
// tools/perf/util/header.c (perf_file_header, perf_file_attr, pipe header).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

struct Buf {
  std::vector<uint8_t> b;
  void u16(uint16_t v) { raw(&v, 2); }
  void u32(uint32_t v) { raw(&v, 4); }
  void u64(uint64_t v) { raw(&v, 8); }
  void raw(const void* p, size_t n) { b.insert(b.end(), (const uint8_t*)p, (const uint8_t*)p + n); }
  void str(const std::string& s) {  // NUL-terminated, padded to 8
    size_t n = (s.size() + 1 + 7) / 8 * 8;
    raw(s.data(), s.size());
    b.insert(b.end(), n - s.size(), 0);
  }
  void patch16(size_t at, uint16_t v) { memcpy(&b[at], &v, 2); }
  void patch64(size_t at, uint64_t v) { memcpy(&b[at], &v, 8); }
};

constexpr uint64_t kSampleType = 0x10000 /*IDENTIFIER*/ | 0x1 /*IP*/ | 0x2 /*TID*/ | 0x4 /*TIME*/ |
                                 0x80 /*CPU*/ | 0x100 /*PERIOD*/ | 0x20 /*CALLCHAIN*/;
constexpr uint64_t kContextUser = (uint64_t)-512;  // PERF_CONTEXT_USER

struct Event { uint32_t type; uint64_t config; uint64_t period; uint64_t id; };

void Attr(Buf& o, const Event& e, bool first) {
  o.u32(e.type);
  o.u32(128);             // size (PERF_ATTR_SIZE_VER7)
  o.u64(e.config);
  o.u64(e.period);        // sample_period
  o.u64(kSampleType);
  o.u64(0);               // read_format
  uint64_t flags = (1ull << 18) /*sample_id_all*/ | (1ull << 25) /*comm_exec*/ | (1ull << 5) /*exclude_kernel*/;
  if (first) flags |= (1ull << 8) /*mmap*/ | (1ull << 9) /*comm*/ | (1ull << 11) /*task*/ | (1ull << 23) /*mmap2*/;
  o.u64(flags);
  o.u32(0); o.u32(0);     // wakeup_events, bp_type
  o.u64(0); o.u64(0);     // config1, config2
  o.u64(0); o.u64(0);     // branch_sample_type, sample_regs_user
  o.u32(0); o.u32(0);     // sample_stack_user, clockid
  o.u64(0);               // sample_regs_intr
  o.u32(0); o.u16(0); o.u16(0);  // aux_watermark, sample_max_stack, reserved
  o.u32(0); o.u32(0);     // aux_sample_size, reserved
  o.u64(0);               // sig_data (VER7: 128 bytes)
}

// sample_id trailer for sample_id_all: TID, TIME, CPU, IDENTIFIER
void SampleId(Buf& o, uint32_t pid, uint32_t tid, uint64_t t, uint32_t cpu, uint64_t id) {
  o.u32(pid); o.u32(tid); o.u64(t); o.u32(cpu); o.u32(0); o.u64(id);
}

size_t Begin(Buf& o, uint32_t type, uint16_t misc) { size_t at = o.b.size(); o.u32(type); o.u16(misc); o.u16(0); return at; }
void End(Buf& o, size_t at) { o.patch16(at + 6, static_cast<uint16_t>(o.b.size() - at)); }

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) { fprintf(stderr, "usage: perfgen OUT SIZE_MB SEED [pipe]\n"); return 2; }
  const char* out_path = argv[1];
  uint64_t target = strtoull(argv[2], nullptr, 10) << 20;
  std::mt19937_64 rng(strtoull(argv[3], nullptr, 10));
  bool pipe = argc > 4 && std::string(argv[4]) == "pipe";
  auto R = [&](uint64_t n) { return rng() % n; };

  std::vector<Event> events = {{1, 0, 100000, 1000}, {1, 1, 100000, 2000}, {0, 0, 1000003, 3000}};
  const int kProcs = 64, kPrograms = 8, kThreadsPer = 8, kMapsPer = 24, kPaths = 2000;
  struct Map { uint64_t start, len; };
  struct Proc { uint32_t pid; std::vector<uint32_t> tids; std::vector<Map> maps; std::vector<std::vector<uint64_t>> paths; };
  std::vector<Proc> procs(kProcs);
  // 8 programs, 8 processes each: processes of one program share its mappings
  // layout and call paths (as real processes running the same binaries do).
  for (int p = 0; p < kProcs; ++p) {
    procs[p].pid = 1000 + p * 100;
    for (int t = 0; t < kThreadsPer; ++t) procs[p].tids.push_back(procs[p].pid + t);
    if (p >= kPrograms) {
      procs[p].maps = procs[p % kPrograms].maps;
      procs[p].paths = procs[p % kPrograms].paths;
      continue;
    }
    uint64_t base = 0x400000;
    for (int m = 0; m < kMapsPer; ++m) {
      uint64_t len = (1 + R(64)) << 16;
      procs[p].maps.push_back({base, len});
      base += len + (1 << 20);
    }
    // a pool of functions (return addresses) per program; call paths are random
    // walks over it, outermost first; samples pick a path and a depth
    std::vector<uint64_t> funcs;
    for (int k = 0; k < 4000; ++k) {
      const Map& m = procs[p].maps[R(kMapsPer)];
      funcs.push_back(m.start + (R(m.len / 16) * 16 + 4));
    }
    for (int k = 0; k < kPaths; ++k) {
      int depth = 10 + static_cast<int>(R(51));
      std::vector<uint64_t> path;
      // paths share their outer frames (main, the event loop, ...) with others
      if (k > 0 && R(4) != 0) {
        const auto& other = procs[p].paths[R(k)];
        size_t keep = std::min<size_t>(other.size(), 3 + R(20));
        path.assign(other.begin(), other.begin() + static_cast<std::ptrdiff_t>(keep));
      }
      while (static_cast<int>(path.size()) < depth) path.push_back(funcs[R(funcs.size())]);
      procs[p].paths.push_back(std::move(path));
    }
  }

  FILE* f = fopen(out_path, "wb");
  if (!f) { perror(out_path); return 1; }
  Buf head;
  uint64_t data_off = 0;
  std::vector<uint64_t> attr_ids_off;
  if (pipe) {
    head.raw("PERFILE2", 8); head.u64(16);
    for (const Event& e : events) {  // PERF_RECORD_HEADER_ATTR (64): attr + ids
      size_t at = Begin(head, 64, 0);
      Attr(head, e, &e == &events[0]);
      head.u64(e.id);
      End(head, at);
    }
  } else {
    // header 104 bytes, then attrs (attr 128 + ids section 16 each), then ids, then data
    uint64_t attrs_off = 104, attr_entry = 128 + 16;
    uint64_t ids_off = attrs_off + attr_entry * events.size();
    data_off = ids_off + 8 * events.size();
    head.raw("PERFILE2", 8); head.u64(104); head.u64(attr_entry);
    head.u64(attrs_off); head.u64(attr_entry * events.size());
    head.u64(data_off); head.u64(0);  // data size patched at the end
    head.u64(0); head.u64(0);        // event_types
    for (int i = 0; i < 4; ++i) head.u64(0);  // no feature sections
    for (size_t i = 0; i < events.size(); ++i) {
      Attr(head, events[i], i == 0);
      head.u64(ids_off + 8 * i); head.u64(8);
    }
    for (const Event& e : events) head.u64(e.id);
  }
  fwrite(head.b.data(), 1, head.b.size(), f);

  uint64_t written = head.b.size(), t = 1000000000ull, samples = 0, records = 0;
  Buf o;
  auto flush = [&]() { fwrite(o.b.data(), 1, o.b.size(), f); written += o.b.size(); o.b.clear(); };
  // side-band: COMM and MMAP2 for every thread/process
  for (auto& p : procs) {
    for (uint32_t tid : p.tids) {
      size_t at = Begin(o, 3, tid == p.pid ? 0x2000 /*COMM_EXEC*/ : 0);
      o.u32(p.pid); o.u32(tid);
      o.str("bench-" + std::to_string(p.pid) + (tid == p.pid ? "" : "-t" + std::to_string(tid - p.pid)));
      SampleId(o, p.pid, tid, t, 0, events[0].id);
      End(o, at); ++records; t += 1000;
    }
    for (size_t m = 0; m < p.maps.size(); ++m) {
      size_t at = Begin(o, 10, 2 /*USER*/);
      o.u32(p.pid); o.u32(p.pid);
      o.u64(p.maps[m].start); o.u64(p.maps[m].len); o.u64(0);
      o.u32(8); o.u32(1); o.u64(100000 + m); o.u64(0);
      o.u32(5 /*r-x*/); o.u32(2 /*MAP_PRIVATE*/);
      o.str("/usr/lib/bench/libbench" + std::to_string(m) + ".so");
      SampleId(o, p.pid, p.pid, t, 0, events[0].id);
      End(o, at); ++records; t += 1000;
    }
  }
  while (written + o.b.size() < target) {
    const Proc& p = procs[R(kProcs)];
    uint32_t tid = p.tids[R(kThreadsPer)];
    const Event& e = events[samples % 7 == 6 ? 2 : samples % 2];
    const auto& path = p.paths[R(kPaths)];
    size_t depth = 10 + R(path.size() - 9);
    const Map& lm = p.maps[R(kMapsPer)];
    uint64_t ip = lm.start + R(lm.len);
    uint32_t cpu = static_cast<uint32_t>(R(2));
    size_t at = Begin(o, 9, 2 /*USER*/);
    o.u64(e.id); o.u64(ip); o.u32(p.pid); o.u32(tid); o.u64(t); o.u32(cpu); o.u32(0); o.u64(e.period);
    o.u64(depth + 2);
    o.u64(kContextUser);
    o.u64(ip);
    for (size_t d = depth; d-- > 0;) o.u64(path[d]);  // leaf first
    End(o, at);
    ++samples; ++records; t += 10000 + R(20000);
    if (samples % 1000 == 0) {  // PERF_RECORD_FINISHED_ROUND (68)
      size_t r = Begin(o, 68, 0); End(o, r); ++records;
    }
    if (o.b.size() > (8u << 20)) flush();
  }
  flush();
  if (!pipe) {  // data size
    uint64_t data_size = written - data_off;
    fseek(f, 40 + 8, SEEK_SET);
    fwrite(&data_size, 8, 1, f);
  }
  fclose(f);
  printf("{\"file\":\"%s\",\"bytes\":%llu,\"records\":%llu,\"samples\":%llu,\"mode\":\"%s\"}\n", out_path,
         (unsigned long long)written, (unsigned long long)records, (unsigned long long)samples, pipe ? "pipe" : "file");
  return 0;
}
