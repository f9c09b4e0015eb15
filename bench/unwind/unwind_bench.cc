// Samples unwound per second (bench/unwind/run.sh), natively and, built with
// em++, as WebAssembly under node: every sample of a `perf record
// --call-graph dwarf` recording unwound with core/unwind through the corpus
// driver (tests/corpus/unwind_driver.h: decode, per-sample registers and stack
// copy, the mappings at the sample's time, the binaries).
//   unwind_bench DIR [RUNS] [INPUT]
// DIR holds the recording (perf.data / pipe.data, or INPUT) and the recorded
// program; system binaries come from their recorded paths. Prints one JSON
// object: medians of RUNS of the whole pass (decode + unwind) and of the time
// spent in Unwinder::Unwind alone (the first run, which reads the binaries'
// CFI, is reported apart as cold).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "tests/corpus/unwind_driver.h"

namespace drv = profscope::unwind_driver;

static double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main(int argc, char** argv) {
  if (argc < 2) { std::fprintf(stderr, "usage: unwind_bench DIR [RUNS] [INPUT]\n"); return 2; }
  const std::string dir = argv[1];
  const int runs = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
  drv::Options o;
  o.use_binaries = true;
  if (argc > 3) o.input = argv[3];
  std::vector<double> total, unwind;
  double cold_total = 0, cold_unwind = 0;
  size_t samples = 0, frames = 0, stopped_short = 0;
  profscope::unwind::Unwinder::Stats stats;
  for (int r = 0; r <= runs; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    drv::CaseResult c = drv::UnwindCase(dir, o);
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!c.ok) { std::fprintf(stderr, "unwind_bench: %s\n", c.error.c_str()); return 1; }
    if (r == 0) {
      cold_total = t;
      cold_unwind = c.unwind_seconds;
      samples = c.samples.size();
      frames = 0;
      for (const auto& s : c.samples) {
        frames += s.result.frames.size();
        stopped_short += s.result.stop == profscope::unwind::StopReason::kStackCopyEnd;
      }
      stats = c.stats;
      continue;
    }
    total.push_back(t);
    unwind.push_back(c.unwind_seconds);
  }
  const double u = Median(unwind), t = Median(total);
  std::printf(
      "{\"dir\":\"%s\",\"samples\":%zu,\"frames\":%zu,\"stack_copy_too_small\":%zu,\"runs\":%d,"
      "\"total_s\":%.4f,\"unwind_s\":%.4f,\"cold_total_s\":%.4f,\"cold_unwind_s\":%.4f,"
      "\"samples_per_s\":%.0f,\"frames_per_s\":%.0f,\"row_cache_hit_rate\":%.3f}\n",
      dir.c_str(), samples, frames, stopped_short, runs, t, u, cold_total, cold_unwind, samples / u, frames / u,
      static_cast<double>(stats.row_cache_hits) / std::max<uint64_t>(1, stats.row_cache_hits + stats.row_cache_misses));
  return 0;
}
