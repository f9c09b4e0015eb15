// From an XRay log's enter/exit records to the profile: enters and exits
// paired per thread into intervals (a time-ordered flame chart) and call
// stacks like `llvm-xray stack` builds them: one sample per accounted exit
// on the stack node (root = "thread_TID"), so the folded stacks' values are
// llvm-xray's `-aggregation-type=count`; markers on their threads.
#pragma once

#include <vector>

#include "core/format/decoder.h"
#include "core/format/xray/xray_map.h"
#include "core/format/xray/xray_reader.h"

namespace profscope::xray {

// The indexes of `times` in time order, stable (file order among equal times): what BuildCalls walks the
// records in, as llvm-xray stack's stable sort by TSC. Merges the runs that are already in order (a log's
// buffers are), so it costs log2(runs) passes, not a sort's.
std::vector<uint32_t> TimeOrder(const std::vector<uint64_t>& times);

// Fills threads, funcs/frames/stacks, samples, intervals, the "calls" event and markers.
void BuildCalls(const XRayLog& log, const XRayFunctionMap& names, DecodeResult& out);

// The call log's runs in the order llvm-xray's loader yields their records
// (basic: file order; FDR: per (pid, tid) in its hash map's bucket order,
// each thread's blocks by wall time): `llvm-xray account` drops every record
// older than the first one it sees, so its statistics depend on this order.
std::vector<uint32_t> LoaderOrder(const XRayLog& log);

}  // namespace profscope::xray
