// The flame chart's thread lanes of a log whose exact calls are its samples (an XRay log), without an entry
// per call: the page draws such a lane's calls from the worker (BoxIntervals), so it needs of a lane only a
// summary (CallLaneSummary) and, for a collapsed lane's strip and the overview track, the calls started per
// column of a view (CallActivity). Both read the calls' rows (IntervalRows: a thread's calls at each depth in
// start order) and the sample columns, never OrderLanes' every call's place in its lane.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/analysis/sample_lanes.h"
#include "core/model/interval_view.h"
#include "core/model/profile.h"

namespace profscope {

// Per thread lane with calls, in Session::Lanes(false)'s order (thread rows, then -1: no thread, or a thread
// past the thread table): its calls, their first and last start, and the median gap between its starts as
// the page's typicalGap takes it (of up to 2000 gaps spread over the lane; of more than 65 536 calls their
// mean gap, (last - first) / (calls - 1), which pads the chart's end by under 1/32 767 of its span either
// way). file_gap: that of all the calls, when some lane's gap is 0 (a lane of one call), else 0. Times as
// Session::RelativeTime times `scale`.
struct CallLaneSummary {
  std::vector<int32_t> thread;
  std::vector<double> count, first, last, gap;
  double file_gap = 0;
};
// `calls`' first samples.size() calls are the samples (calls.from_samples() == samples.size()); `rows`
// OrderIntervalRows of them; `origin`: as OrderLanes'. May throw std::bad_alloc.
CallLaneSummary SummarizeCallLanes(const IntervalView& calls, const IntervalRows& rows, const SampleTable& samples,
                                   size_t n_threads, uint64_t origin, double scale);

// The columns CallActivity counts at `cols` (clamped to [1, 2^16]), and how many counts it answers for
// `lanes` lanes: a multiple of those columns, at most 2^24.
size_t CallActivityColumns(size_t cols);
size_t CallActivitySize(size_t lanes, size_t cols);

// The calls (samples) started per column of [t0, t1) at `cols` columns of each lane of `lanes` (threads as
// CallLaneSummary's, -1 = no thread): lane j's column c is out[j * cols + c], as the page's laneActivity
// counts a lane's times (times RelativeTime times `scale`, as t0 and t1); a lane asked twice is answered at its
// first place, zeros at the other; all zeros unless scale > 0 and t0 < t1, all finite. At most 2^24 counts:
// the lanes past them are left out (cols = 600: 27 962 lanes). A row's calls in the window are
// counted one by one when they are few, else per column by a binary search (a column costs a search,
// whatever its calls); the calls that never exited (in the rows, but no samples) are taken out after.
std::vector<float> CallActivity(const IntervalView& calls, const IntervalRows& rows, const SampleTable& samples,
                                size_t n_threads, uint64_t origin, const std::vector<int32_t>& lanes, double scale,
                                double t0, double t1, size_t cols);

}  // namespace profscope
