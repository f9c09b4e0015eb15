// Native decode timing for the non-perf formats (XRay, jitdump, gperftools) in
// bench/run.sh. Built by bench/run.sh into build/bench/format_bench (it lives
// under bench/formats/ so that CMake's glob of bench/*.cc does not pick it up).
//   format_bench FILE RUNS [SIDE_FILE]
// Reads FILE (and SIDE_FILE, e.g. an XRay instrumentation map) into memory, then
// per run: Session::Decode over a MemorySource (without the side file: what
// bench/wasm_bench.mjs measures), Session::Decode with the side file added (names
// resolved; only when SIDE_FILE is given), and StacksText / EventsText on the
// last session. Prints one JSON object with medians and the peak RSS.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "core/api/session.h"

static double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
static double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
static std::vector<uint8_t> Slurp(const char* path) {
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  if (!f) { fprintf(stderr, "cannot open %s\n", path); exit(2); }
  size_t size = static_cast<size_t>(f.tellg());
  std::vector<uint8_t> b(size);
  f.seekg(0);
  f.read(reinterpret_cast<char*>(b.data()), static_cast<std::streamsize>(size));
  return b;
}

int main(int argc, char** argv) {
  if (argc < 3) { fprintf(stderr, "usage: format_bench FILE RUNS [SIDE_FILE]\n"); return 2; }
  int runs = std::max(1, atoi(argv[2]));
  std::vector<uint8_t> bytes = Slurp(argv[1]);
  std::vector<uint8_t> side;
  if (argc > 3) side = Slurp(argv[3]);
  struct rusage ru;
  std::vector<double> t_plain, t_side, t_stacks, t_events;
  size_t records = 0, samples = 0, stacks = 0, frames = 0, events = 0, diags = 0;
  std::string format;
  for (int r = 0; r < runs; ++r) {
    {
      profscope::MemorySource src(bytes);
      profscope::Session s(src, argv[1]);
      double t0 = Now();
      bool ok = s.Decode();
      t_plain.push_back(Now() - t0);
      if (!ok) { fprintf(stderr, "decode failed\n"); return 1; }
      records = s.result().records.rows();
      samples = s.result().profile.samples.stack.size();
      stacks = s.result().profile.stacks.frame.size();
      frames = s.result().profile.frames.address.size();
      diags = s.result().diags.items().size();
      if (argc <= 3) {
        t0 = Now();
        std::string folded = s.StacksText(false, "");
        t_stacks.push_back(Now() - t0);
      }
    }
    if (argc > 3) {
      profscope::MemorySource src(bytes), side_src(side);
      profscope::Session s(src, argv[1]);
      s.AddSideFile(side_src, argv[3]);
      double t0 = Now();
      bool ok = s.Decode();
      t_side.push_back(Now() - t0);
      if (!ok) { fprintf(stderr, "decode with side file failed\n"); return 1; }
      diags = s.result().diags.items().size();
      t0 = Now();
      std::string folded = s.StacksText(false, "");
      t_stacks.push_back(Now() - t0);
      t0 = Now();
      std::string ev = s.EventsText();
      t_events.push_back(Now() - t0);
      events = static_cast<size_t>(std::count(ev.begin(), ev.end(), '\n'));
    }
  }
  getrusage(RUSAGE_SELF, &ru);
  double mb = bytes.size() / 1048576.0, d = Median(t_plain);
  printf("{\"file\":\"%s\",\"bytes\":%zu,\"runs\":%d,\"records\":%zu,\"samples\":%zu,\"stacks\":%zu,\"frames\":%zu,"
         "\"diagnostics\":%zu,\"decode_s\":%.4f,\"decode_MBps\":%.1f,\"decode_records_per_s\":%.0f,"
         "\"decode_with_side_s\":%.4f,\"stacks_text_s\":%.4f,\"events_text_s\":%.4f,\"events_lines\":%zu,"
         "\"peak_rss_MB\":%.1f}\n",
         argv[1], bytes.size(), runs, records, samples, stacks, frames, diags, d, mb / d, records / d, Median(t_side),
         Median(t_stacks), Median(t_events), events, ru.ru_maxrss / 1024.0);
  return 0;
}
