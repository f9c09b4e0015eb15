// The samples per thread (or per CPU), each in time order: the flame chart's lanes, and the counts
// per event and per CPU that the filter bar shows. Made once per file from the sample table, so the
// page's worker never copies whole sample columns only to group them.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "core/model/interval_view.h"
#include "core/model/profile.h"

namespace profscope {

// Lane l's samples are samples[start[l], start[l + 1]) for l in [0, n_lanes]: lanes 0 .. n_lanes - 1
// are the samples whose key is l, lane n_lanes those whose key is outside [0, n_lanes) (kNone). Each
// lane is in time order, samples of equal time in sample order.
struct SampleLanes {
  std::vector<int32_t> samples;
  std::vector<int32_t> start;  // n_lanes + 2 entries
};

// `key[i]` is sample i's lane; the samples are ordered by `time` as a shell sees it (relative to
// `origin`, 0 staying 0: the order of Session::RelativeTime), stably. key and time have one entry per
// sample; n_lanes >= 0. May throw std::bad_alloc.
SampleLanes OrderLanes(const std::vector<int32_t>& key, int32_t n_lanes, const std::vector<uint64_t>& time, uint64_t origin);
SampleLanes OrderLanes(const PackedColumn<int32_t>& key, int32_t n_lanes, const std::vector<uint64_t>& time, uint64_t origin);

// The exact calls (XRay enter/exit pairs: IntervalView) as the flame chart's rows: order[k] is a call; row r
// is the calls order[first[r], first[r + 1]) of thread[r] at depth[r] (a negative depth counts as 0), in
// start order (equal starts in call order); rows by thread, then depth. The calls of no thread come last,
// in no row (first.back() is where they begin).
struct IntervalRows {
  std::vector<int32_t> order;
  std::vector<int32_t> first;  // rows + 1 entries
  std::vector<int32_t> thread;
  std::vector<int32_t> depth;
};
// `origin`: as OrderLanes'. May throw std::bad_alloc.
IntervalRows OrderIntervalRows(const IntervalView& calls, uint64_t origin);

// Samples per event (rows times their counts): one entry per event the file names (n_named) or
// the samples use, whichever is more.
std::vector<double> EventTotals(const SampleTable& samples, size_t n_named);

// (cpu, rows) for every CPU that samples name (cpu >= 0), by CPU.
std::vector<std::pair<int32_t, uint32_t>> CpuRows(const PackedColumn<int32_t>& cpu);

}  // namespace profscope
