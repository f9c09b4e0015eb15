// Native decode throughput for bench/run.sh (a plain timed program; built by
// bench/run.sh into build/bench, and into build/native's profscope_bench when
// Google Benchmark is installed, which it does not use).
//   decode_bench FILE [RUNS]
// Reads FILE into memory, then per run: memcpy of the same bytes (the ceiling),
// Session::Decode over a MemorySource (records, stack interning), and
// StacksText (the folded output). Prints one JSON object with medians and the
// peak RSS of the process (at the end, after StacksText's large text; and after
// the first decode, with decode_peak_growth = that minus the RSS just before it).
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "core/api/session.h"

static double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
static double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main(int argc, char** argv) {
  if (argc < 2) { fprintf(stderr, "usage: decode_bench FILE [RUNS]\n"); return 2; }
  int runs = argc > 2 ? atoi(argv[2]) : 5;
  std::ifstream f(argv[1], std::ios::binary | std::ios::ate);
  size_t size = static_cast<size_t>(f.tellg());
  std::vector<uint8_t> bytes(size);
  f.seekg(0);
  f.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size));
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  long rss_file = ru.ru_maxrss, rss_pre = 0, rss_decode = 0;
  std::vector<double> t_copy, t_decode, t_stacks;
  size_t records = 0, samples = 0, stacks = 0, frames = 0;
  std::vector<uint8_t> dst(size);
  for (int r = 0; r < runs; ++r) {
    double t0 = Now();
    std::memcpy(dst.data(), bytes.data(), size);
    t_copy.push_back(Now() - t0);
    if (dst[size / 2] != bytes[size / 2]) return 3;
    profscope::MemorySource src(bytes);
    profscope::Session s(src, argv[1]);
    if (r == 0) {  // the file's bytes and their copy are resident by now
      getrusage(RUSAGE_SELF, &ru);
      rss_pre = ru.ru_maxrss;
    }
    t0 = Now();
    bool ok = s.Decode();
    t_decode.push_back(Now() - t0);
    if (r == 0) {  // the decode's own peak, before StacksText builds its (large) text
      getrusage(RUSAGE_SELF, &ru);
      rss_decode = ru.ru_maxrss;
    }
    if (!ok) { fprintf(stderr, "decode failed\n"); return 1; }
    t0 = Now();
    std::string folded = s.StacksText(false, "");
    t_stacks.push_back(Now() - t0);
    records = s.result().records.rows();
    samples = s.result().profile.samples.stack.size();
    stacks = s.result().profile.stacks.frame.size();
    frames = s.result().profile.frames.address.size();
  }
  getrusage(RUSAGE_SELF, &ru);
  double mb = size / 1048576.0, d = Median(t_decode), c = Median(t_copy);
  printf("{\"file\":\"%s\",\"bytes\":%zu,\"runs\":%d,\"records\":%zu,\"samples\":%zu,\"stacks\":%zu,\"frames\":%zu,"
         "\"decode_s\":%.4f,\"decode_MBps\":%.1f,\"decode_records_per_s\":%.0f,\"stacks_text_s\":%.4f,"
         "\"memcpy_s\":%.5f,\"memcpy_MBps\":%.0f,\"peak_rss_MB\":%.1f,\"peak_rss_minus_file_MB\":%.1f,"
         "\"peak_rss_after_first_decode_MB\":%.1f,\"decode_peak_growth_MB\":%.1f}\n",
         argv[1], size, runs, records, samples, stacks, frames, d, mb / d, records / d, Median(t_stacks), c, mb / c,
         ru.ru_maxrss / 1024.0, (ru.ru_maxrss - rss_file) / 1024.0, rss_decode / 1024.0, (rss_decode - rss_pre) / 1024.0);
  return 0;
}
