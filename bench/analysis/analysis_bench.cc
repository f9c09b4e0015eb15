// Re-aggregation benchmark (issue 6 target: a range re-aggregation of 5 million
// samples under 200 ms): builds a seeded synthetic profile in memory (N samples
// over a tree of call stacks 10-60 deep, T threads, 4 CPUs, times increasing)
// and times CallTreeBuilder::Build, the call the worker makes after every
// filter, range or transform change, for: everything, a time range of half the
// samples, one thread, a merge-function transform, and inverted.
// Built natively and with em++ (run under node) by bench/run.sh; prints JSON.
//   analysis_bench [SAMPLES=5000000] [RUNS=5]
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/analysis/call_tree.h"

using namespace profscope;

namespace {

uint64_t rng_state = 42;
uint64_t Rand() {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

double Ms(std::chrono::steady_clock::time_point a) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count();
}

}  // namespace

int main(int argc, char** argv) {
  const size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 5000000;
  const int runs = argc > 2 ? std::atoi(argv[2]) : 5;
  const int threads = 64, funcs = 4000, paths = 20000;

  Profile p;
  for (int t = 0; t < threads; ++t) {
    p.threads.tid.push_back(100 + t);
    p.threads.pid.push_back(100 + t / 8);
    p.threads.name.push_back(kNone);
    p.threads.start.push_back(0);
    p.threads.end.push_back(0);
    p.threads.samples.push_back(0);
  }
  StackBuilder b(p);
  std::vector<int32_t> frame_of(funcs);
  for (int f = 0; f < funcs; ++f) {
    int32_t fn = b.Func(p.strings.Intern("func_" + std::to_string(f)), kNone);
    frame_of[static_cast<size_t>(f)] = b.Frame(0x400000u + 16u * static_cast<uint64_t>(f), fn, kNone);
  }
  // call paths that share prefixes (a program's call tree), 10-60 deep
  std::vector<int32_t> leaf;
  for (int k = 0; k < paths; ++k) {
    int32_t s = kNone;
    int depth = 10 + static_cast<int>(Rand() % 51);
    uint64_t prog = Rand() % 8;
    for (int d = 0; d < depth; ++d) {
      // the first levels depend on the "program" only, deeper ones vary more
      uint64_t pick = d < 6 ? (prog * 31 + static_cast<uint64_t>(d) * 7) : Rand();
      s = b.Stack(s, frame_of[static_cast<size_t>(pick % funcs)]);
    }
    leaf.push_back(s);
  }
  for (size_t i = 0; i < n; ++i) {
    p.samples.time.push_back(1000000000ull + i * 1000);
    p.samples.thread.push_back(static_cast<int32_t>(Rand() % threads));
    p.samples.cpu.push_back(static_cast<int32_t>(Rand() % 4));
    p.samples.event.push_back(0);
    p.samples.weight.push_back(1);
    p.samples.stack.push_back(leaf[Rand() % leaf.size()]);
    p.samples.record.push_back(static_cast<int32_t>(i));
  }

  auto t = std::chrono::steady_clock::now();
  CallTreeBuilder builder(p);
  double prepare_ms = Ms(t);

  struct Case {
    const char* name;
    AnalysisOptions o;
  };
  std::vector<Case> cases(5);
  cases[0].name = "all";
  cases[1].name = "range_half";
  cases[1].o.has_t0 = cases[1].o.has_t1 = true;
  cases[1].o.t0 = 1000000000ull + (n / 4) * 1000;
  cases[1].o.t1 = 1000000000ull + (3 * n / 4) * 1000;
  cases[2].name = "one_thread";
  cases[2].o.threads = {3};
  cases[3].name = "merge_function";
  cases[3].o.transforms.push_back({AnalysisTransform::kMergeFunction, builder.Canon(p.frames.func[static_cast<size_t>(frame_of[5])]), {}, ""});
  cases[4].name = "inverted";
  cases[4].o.invert = true;

  std::printf("{\"samples\":%zu,\"stacks\":%zu,\"prepare_ms\":%.1f", n, p.stacks.frame.size(), prepare_ms);
  for (auto& c : cases) {
    std::vector<double> ms;
    size_t nodes = 0;
    uint64_t counted = 0;
    for (int r = 0; r < runs; ++r) {
      t = std::chrono::steady_clock::now();
      CallTree tree = builder.Build(c.o);
      ms.push_back(Ms(t));
      nodes = tree.size();
      counted = tree.samples;
    }
    std::sort(ms.begin(), ms.end());
    std::printf(",\"%s\":{\"median_ms\":%.1f,\"nodes\":%zu,\"samples\":%llu}", c.name, ms[ms.size() / 2], nodes,
                static_cast<unsigned long long>(counted));
  }
  std::printf("}\n");
  return 0;
}
