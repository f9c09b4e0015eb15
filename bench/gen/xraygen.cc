// Writes a large, valid LLVM XRay FDR-mode log from a seed, for the benchmarks
// (bench/run.sh), and the matching instrumentation map as `llvm-xray extract`
// YAML (with function-name filled in, as `extract --symbolize` writes it).
//   xraygen OUT.log OUT.yaml SIZE_MB SEED [THREADS] [FUNCS] [BUFFER_BYTES]
// Layout as LLVM 14's compiler-rt writes it (xray_fdr_logging.cpp,
// xray_fdr_controller.h; read back by llvm/lib/XRay/Trace.cpp, FDRRecords,
// BlockIndexer/BlockVerifier/TraceExpander):
//   file header (32 bytes): version 5, type 1 (FDR), bitfield ConstantTSC|NonstopTSC,
//     cycle frequency, then the configured thread buffer size (FdrAdditionalHeaderData);
//   per flushed buffer: BufferExtents (bytes that follow in this buffer), then
//     NewBuffer(tid), WallTimeMarker(seconds, micros), PIDRecord(pid), NewCPUId(cpu, tsc),
//     then 8-byte function records (enter / exit / tail-exit, 28-bit function id,
//     32-bit TSC delta from the previous record), with NewCPUId when the thread
//     changes CPU and TSCWrap when a delta exceeds INT32_MAX (as the runtime's
//     recordPreamble does; the function record after them has delta 0).
// Several threads run "in parallel" on one TSC clock, all starting at the same
// TSC; their buffers are written in the order they start. Each thread enters 5
// outer frames, then runs "tasks" over and over: 1000 call trees made once by a
// random walk (1..35 further frames deep) over a call graph of FUNCS functions
// (4 callees each; every 5th function can tail-call: tail-exit, then the callee's enter).
// Every buffer of a thread gets wall-time seconds AND micros strictly larger
// than its previous buffer's (idle time is inserted before it when needed, so
// TSC and wall time stay consistent): llvm-xray sorts a thread's blocks with a
// comparator that needs both to grow to keep them in order.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <queue>
#include <random>
#include <string>
#include <vector>

namespace {

constexpr uint8_t Meta(int kind) { return static_cast<uint8_t>((kind << 1) | 1); }
enum { kNewBuffer = 0, kEndOfBuffer = 1, kNewCPUId = 2, kTSCWrap = 3, kWalltime = 4, kBufferExtents = 7, kPid = 9 };
enum { kEnter = 0, kExit = 1, kTailExit = 2 };

struct Rec16 {
  uint8_t b[16] = {};
  explicit Rec16(int kind) { b[0] = Meta(kind); }
  template <class T> Rec16& put(size_t at, T v) { memcpy(b + 1 + at, &v, sizeof v); return *this; }
};

struct Ev { int kind; int32_t fid; };
constexpr size_t kOuter = 5;

struct Thread {
  int32_t tid;
  uint16_t cpu;
  uint64_t tsc;        // the thread's clock (TSC ticks)
  uint64_t last_tsc;   // TSC of the last record written (the runtime's LatestTSC)
  uint64_t wall_s = 0; uint32_t wall_us = 0;  // previous buffer's wall time
  bool first = true;
  std::vector<int32_t> stack;
  size_t tmpl = 0, pos = 0;  // the task being run: template and position in it
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: xraygen OUT.log OUT.yaml SIZE_MB SEED [THREADS=8] [FUNCS=4000] [BUFFER_BYTES=16384]\n");
    return 2;
  }
  const uint64_t target = strtoull(argv[3], nullptr, 10) << 20;
  std::mt19937_64 rng(strtoull(argv[4], nullptr, 10));
  const int nthreads = argc > 5 ? atoi(argv[5]) : 8;
  const int nfuncs = argc > 6 ? atoi(argv[6]) : 4000;
  const uint64_t buffer_bytes = argc > 7 ? strtoull(argv[7], nullptr, 10) : 16384;
  auto R = [&](uint64_t n) { return rng() % n; };
  const uint64_t kFreq = 2400000000ull;  // 2.4 GHz TSC
  const int32_t kPidValue = 31337;
  const uint64_t kWallBase = 1763780000ull;  // seconds of the first buffer (Nov 2025)
  const uint64_t kTscBase = 123456789012345ull;

  // call graph: function ids 1..nfuncs; a few callees each; ids % 5 == 0 may tail-call
  std::vector<std::vector<int32_t>> callees(nfuncs + 1);
  for (int f = 1; f <= nfuncs; ++f)
    for (int k = 0; k < 4; ++k) callees[f].push_back(static_cast<int32_t>(kOuter + 1 + R(nfuncs - kOuter)));
  // tasks: 1000 call trees (balanced enter/exit sequences, 1..35 deep below the
  // kOuter outer frames, so 6..40 deep in all) that threads run over and over,
  // popular ones more often: distinct stacks stay bounded, as in real programs
  std::vector<std::vector<Ev>> templates(1000);
  for (auto& t : templates) {
    size_t maxlen = 2 + R(R(4) == 0 ? 600 : 150);
    std::vector<int32_t> st = {static_cast<int32_t>(kOuter + 1 + R(nfuncs - kOuter))};
    t.push_back({kEnter, st.back()});
    size_t want = 1 + R(35);
    while (!st.empty()) {
      size_t d = st.size();
      bool enter = t.size() < maxlen && d < 35 && (d == 1 ? R(10) != 0 : R(100) < (d < want ? 65u : 35u));
      if (R(50) == 0) want = 1 + R(35);
      if (enter) {
        st.push_back(callees[st.back()][R(4)]);
        t.push_back({kEnter, st.back()});
      } else if (st.back() % 5 == 0 && t.size() < maxlen && R(20) == 0) {  // tail call
        t.push_back({kTailExit, st.back()});
        st.back() = callees[st.back()][R(4)];
        t.push_back({kEnter, st.back()});
      } else {
        t.push_back({kExit, st.back()});
        st.pop_back();
      }
    }
  }

  // instrumentation map (llvm-xray extract YAML)
  {
    FILE* y = fopen(argv[2], "w");
    if (!y) { perror(argv[2]); return 1; }
    fprintf(y, "---\n");
    for (int f = 1; f <= nfuncs; ++f) {
      uint64_t fn = 0x401000 + static_cast<uint64_t>(f) * 0x80;
      char name[128];
      snprintf(name, sizeof name, "bench::mod%d::Worker%d::step%d(int, long)", f % 37, f % 101, f);
      const char* always = f % 3 ? "true" : "false";
      fprintf(y, "- { id: %d, address: 0x%llX, function: 0x%llX, kind: function-enter, always-instrument: %s, function-name: '%s', version: 2 }\n",
              f, (unsigned long long)fn, (unsigned long long)fn, always, name);
      fprintf(y, "- { id: %d, address: 0x%llX, function: 0x%llX, kind: function-exit, always-instrument: %s, function-name: '%s', version: 2 }\n",
              f, (unsigned long long)(fn + 0x40), (unsigned long long)fn, always, name);
      if (f % 5 == 0)
        fprintf(y, "- { id: %d, address: 0x%llX, function: 0x%llX, kind: tail-exit, always-instrument: %s, function-name: '%s', version: 2 }\n",
                f, (unsigned long long)(fn + 0x60), (unsigned long long)fn, always, name);
    }
    fprintf(y, "...\n");
    fclose(y);
  }

  FILE* out = fopen(argv[1], "wb");
  if (!out) { perror(argv[1]); return 1; }
  uint8_t header[32] = {};
  uint16_t version = 5, type = 1;
  uint32_t bits = 3;  // ConstantTSC | NonstopTSC
  memcpy(header, &version, 2); memcpy(header + 2, &type, 2); memcpy(header + 4, &bits, 4);
  memcpy(header + 8, &kFreq, 8); memcpy(header + 16, &buffer_bytes, 8);
  fwrite(header, 1, 32, out);
  uint64_t written = 32;

  std::vector<Thread> threads(nthreads);
  for (int t = 0; t < nthreads; ++t) {
    threads[t].tid = kPidValue + 1 + t;
    threads[t].cpu = static_cast<uint16_t>(t % 4);
    // every thread's first record at the same TSC: `llvm-xray account` refuses any record
    // older than the first one it reads (LatencyAccountant's CurrentMaxTSC), whichever thread that is
    threads[t].tsc = kTscBase;
    threads[t].last_tsc = 0;
  }
  using Item = std::pair<uint64_t, int>;  // (next buffer start TSC, thread)
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> ready;
  for (int t = 0; t < nthreads; ++t) ready.push({threads[t].tsc, t});

  uint64_t fn_records = 0, enters = 0, exits = 0, tail_exits = 0, wraps = 0, cpu_changes = 0, buffers = 0;
  std::vector<uint8_t> buf;
  buf.reserve(buffer_bytes + 64);
  // after the size is reached, each thread gets one more buffer that returns from
  // every open call (the program ends cleanly: no call is left without its exit)
  int closed = 0;
  while (closed < nthreads) {
    const bool closing = written >= target;
    int ti = ready.top().second;
    ready.pop();
    Thread& th = threads[ti];
    if (closing && th.stack.empty()) { ++closed; continue; }
    // wall time of this buffer: seconds and micros both above the previous buffer's
    uint64_t now_us = (th.tsc - kTscBase) / (kFreq / 1000000);
    uint64_t ws = kWallBase + now_us / 1000000;
    uint32_t wus = static_cast<uint32_t>(now_us % 1000000);
    if (!th.first && (ws <= th.wall_s || wus <= th.wall_us)) {
      wus = th.wall_us + 1 + static_cast<uint32_t>(R(40));
      uint64_t rel_s = now_us > wus ? (now_us - wus + 999999) / 1000000 : 0;  // smallest s with s*1e6+wus >= now
      ws = std::max(th.wall_s + 1, kWallBase + rel_s);
      th.tsc = kTscBase + ((ws - kWallBase) * 1000000 + wus) * (kFreq / 1000000);
    }
    if (wus >= 1000000) { fprintf(stderr, "xraygen: too many buffers per thread for the micros trick\n"); return 1; }
    th.first = false;
    th.wall_s = ws; th.wall_us = wus;
    if (R(10) == 0) { th.cpu = static_cast<uint16_t>(R(4)); ++cpu_changes; }

    buf.clear();
    auto meta = [&](const Rec16& r) { buf.insert(buf.end(), r.b, r.b + 16); };
    meta(Rec16(kNewBuffer).put<int32_t>(0, th.tid));
    meta(Rec16(kWalltime).put<uint64_t>(0, ws).put<uint32_t>(8, wus));
    meta(Rec16(kPid).put<int32_t>(0, kPidValue));
    meta(Rec16(kNewCPUId).put<uint16_t>(0, th.cpu).put<uint64_t>(2, th.tsc));
    th.last_tsc = th.tsc;
    // function records until the buffer cannot hold a metadata record + a function record
    while (buf.size() + 16 + 8 <= buffer_bytes && !(closing && th.stack.empty())) {
      bool wrote_meta = false;
      if (R(6000) == 0) {  // migrated to another CPU
        th.cpu = static_cast<uint16_t>((th.cpu + 1 + R(3)) % 4);
        meta(Rec16(kNewCPUId).put<uint16_t>(0, th.cpu).put<uint64_t>(2, th.tsc));
        wrote_meta = true; ++cpu_changes;
      } else if (th.tsc - th.last_tsc > 0x7fffffffull) {
        meta(Rec16(kTSCWrap).put<uint64_t>(0, th.tsc));
        wrote_meta = true; ++wraps;
      }
      uint32_t delta = wrote_meta ? 0 : static_cast<uint32_t>(th.tsc - th.last_tsc);
      th.last_tsc = th.tsc;
      int kind;
      int32_t fid;
      if (closing) {  // return from every open call
        fid = th.stack.back();
        th.stack.pop_back();
        kind = kExit;
      } else if (th.stack.size() < kOuter) {  // the thread's outer frames (thread entry .. run loop)
        fid = static_cast<int32_t>(th.stack.size()) + 1;
        th.stack.push_back(fid);
        kind = kEnter;
      } else {
        if (th.pos == templates[th.tmpl].size()) {  // next task: popular ones more often
          th.tmpl = R(R(templates.size()) + 1);
          th.pos = 0;
        }
        const Ev& e = templates[th.tmpl][th.pos++];
        kind = e.kind;
        fid = e.fid;
        if (kind == kEnter) th.stack.push_back(fid);
        else th.stack.pop_back();
      }
      uint32_t word = static_cast<uint32_t>(kind << 1) | (static_cast<uint32_t>(fid) << 4);
      buf.insert(buf.end(), reinterpret_cast<uint8_t*>(&word), reinterpret_cast<uint8_t*>(&word) + 4);
      buf.insert(buf.end(), reinterpret_cast<uint8_t*>(&delta), reinterpret_cast<uint8_t*>(&delta) + 4);
      ++fn_records;
      (kind == kEnter ? enters : kind == kExit ? exits : tail_exits)++;
      // time to the next record: mostly short, sometimes long, rarely a > INT32_MAX gap
      th.tsc += R(50) == 0 ? 200000 + R(20000000) : 200 + R(60000);
      if (R(400000) == 0) th.tsc += 0x80000000ull + R(0x100000000ull);
    }
    Rec16 ext(kBufferExtents);
    ext.put<uint64_t>(0, buf.size());
    fwrite(ext.b, 1, 16, out);
    fwrite(buf.data(), 1, buf.size(), out);
    written += 16 + buf.size();
    ++buffers;
    if (closing && th.stack.empty()) { ++closed; continue; }
    ready.push({th.tsc, ti});
  }
  fclose(out);
  printf("{\"file\":\"%s\",\"map\":\"%s\",\"bytes\":%llu,\"threads\":%d,\"functions\":%d,\"buffers\":%llu,"
         "\"function_records\":%llu,\"enter\":%llu,\"exit\":%llu,\"tail_exit\":%llu,\"tsc_wraps\":%llu,\"cpu_changes\":%llu}\n",
         argv[1], argv[2], (unsigned long long)written, nthreads, nfuncs, (unsigned long long)buffers,
         (unsigned long long)fn_records, (unsigned long long)enters, (unsigned long long)exits,
         (unsigned long long)tail_exits, (unsigned long long)wraps, (unsigned long long)cpu_changes);
  return 0;
}
