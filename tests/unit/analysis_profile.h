// Rows of a hand-made Profile for the call-tree tests (call_tree_test.cc,
// call_tree_golden_test.cc): mappings by path, threads, samples.
#pragma once

#include <cstdint>
#include <string>

#include "core/model/profile.h"

namespace profscope {

// A mapping of process 1 named `path` (no addresses: the call tree needs only its path).
inline int32_t AddMapping(Profile& p, const std::string& path) {
  p.mappings.pid.push_back(1);
  p.mappings.start.push_back(0);
  p.mappings.end.push_back(0);
  p.mappings.pgoff.push_back(0);
  p.mappings.path.push_back(p.strings.Intern(path));
  p.mappings.build_id.push_back(kNone);
  p.mappings.time.push_back(0);
  p.mappings.record.push_back(kNone);
  return static_cast<int32_t>(p.mappings.size() - 1);
}

// Thread rows 0..n-1 (tids 1..n of process 1, unnamed).
inline void AddThreads(Profile& p, int32_t n) {
  for (int32_t t = 0; t < n; ++t) {
    p.threads.tid.push_back(t + 1);
    p.threads.pid.push_back(1);
    p.threads.name.push_back(kNone);
    p.threads.start.push_back(0);
    p.threads.end.push_back(0);
    p.threads.samples.push_back(0);
  }
}

// One sample of weight 1 without a record.
inline void AddSample(Profile& p, int32_t thread, int32_t cpu, int32_t event, uint64_t time, int32_t stack) {
  p.samples.time.push_back(time);
  p.samples.thread.push_back(thread);
  p.samples.cpu.push_back(cpu);
  p.samples.event.push_back(event);
  p.samples.weight.push_back(1);
  p.samples.stack.push_back(stack);
  p.samples.record.push_back(kNone);
}

}  // namespace profscope
