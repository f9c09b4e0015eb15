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

// A time as a shell sees it, relative to the origin (0 stays 0): the order of Session::RelativeTime.
inline uint64_t Relative(uint64_t t, uint64_t origin) { return t == 0 ? 0 : t - origin; }

// The lane of a sample whose key (thread row, CPU index) is `key`, among `n_lanes` keyed lanes: the key, or
// n_lanes (the lane of the keys outside [0, n_lanes): no thread, kNone).
inline size_t LaneOfKey(int32_t key, size_t n_lanes) {
  return key >= 0 && static_cast<size_t>(key) < n_lanes ? static_cast<size_t>(key) : n_lanes;
}

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
  // Each row's calls in blocks of kBlock from its first: block j of row r (block_first[r] <= j <
  // block_first[r + 1]) ends at block_end[j], its last call's end (relative to the origin, as a double). A
  // search for the calls ending after a time reads these first, side by side in memory, and then a block's
  // calls: a call's end is read through `order`, from anywhere in the calls.
  static constexpr size_t kBlock = 16;
  std::vector<int32_t> block_first;  // rows + 1 entries
  std::vector<double> block_end;
};
// `origin`: as OrderLanes'. `in_order`: the calls below it are known to be in start order at each thread and
// depth (LanesOfNestedCalls found them nested): their starts are not read again. May throw std::bad_alloc.
IntervalRows OrderIntervalRows(const IntervalView& calls, uint64_t origin, size_t in_order = 0);

// OrderLanes(samples.thread, n_lanes, samples.time, origin) of a profile whose first `n_samples` calls are
// its samples (calls.OfSample(i) == i: an XRay log's), made from `rows` (OrderIntervalRows of those calls)
// by merging each thread's rows: a row is in start order already, so a lane costs a pass over its calls
// and a heap of its depths, not a sort of its times. May throw std::bad_alloc.
SampleLanes LanesOfCalls(const IntervalView& calls, const IntervalRows& rows, size_t n_samples, int32_t n_lanes, uint64_t origin);

// The same lanes, when each thread's calls nest as calls do (an XRay log's: every sample is a call that
// exited, a thread's come in exit order, a call after the calls inside it), made in two passes over the
// samples without sorting: a call's place in its lane is the exit-order place of the first call inside it
// (or its own) plus its depth below the outermost calls around it. `nested` says whether the calls nest so:
// a call is one less deep than the calls right inside it and starts strictly before them; no call starts
// before the calls before it at its depth (and those inside them) started; the calls inside calls that
// never exited follow each other the same way; no call is at a negative depth or of a thread past the
// lanes. Then each thread's calls at each depth are in start order as they are (OrderIntervalRows'
// `in_order`). When false, the lanes are empty (LanesOfCalls makes them). May throw std::bad_alloc.
SampleLanes LanesOfNestedCalls(const IntervalView& calls, size_t n_samples, int32_t n_lanes, uint64_t origin, bool* nested);
// LanesOfNestedCalls' `nested` alone (its first pass: the calls read once, in order), for the flame chart's
// rows of a log whose lanes are not made (an XRay log's page: call_lanes.h).
bool CallsNest(const IntervalView& calls, size_t n_samples, int32_t n_lanes, uint64_t origin);

// The flame chart's boxes of exact calls in a window, made where the calls are (the page holds none of
// them): for each row of `which` (a row of `rows`; rows out of range are left out), in that order, the calls
// that show in [t0, t1) drawn `cols` columns wide, in start order. A call thinner than a column that starts
// in a column already drawn is left out (it paints no pixel of its own), and the calls that end in such
// columns are stepped over by a binary search over the row's ends (a thread's calls at one depth do not
// overlap: their ends are in start order too), so a row costs its columns times a search, whatever its
// calls. Times are a shell's: (t - origin) * scale (0 stays 0), in the units of t0 and t1.
struct IntervalBoxes {
  std::vector<int32_t> row;    // the box's row (of `rows`)
  std::vector<int32_t> call;   // its call (IntervalView index)
  std::vector<double> start;   // its call's start and end, as t0 and t1
  std::vector<double> end;
};
IntervalBoxes BoxIntervals(const IntervalView& calls, const IntervalRows& rows, const std::vector<int32_t>& which, uint64_t origin,
                           double scale, double t0, double t1, int32_t cols);

// Samples per event (rows times their counts): one entry per event the file names (n_named) or
// the samples use, whichever is more.
std::vector<double> EventTotals(const SampleTable& samples, size_t n_named);

// (cpu, rows) for every CPU that samples name (cpu >= 0), by CPU.
std::vector<std::pair<int32_t, uint32_t>> CpuRows(const PackedColumn<int32_t>& cpu);

}  // namespace profscope
