// `folded`: folded stacks, the text `profscope stacks` prints (one function for
// both): "root;..;leaf count" per distinct stack, sorted; for simpleperf files
// simpleperf's stackcollapse.py form (DecodeResult::stacks_thread_root).
#pragma once

#include <string>

#include "core/api/output_sink.h"
#include "core/format/decoder.h"

namespace profscope::exporter {

// Frames by name, or by address (--addresses); `event` keeps one event by name
// ("" = every event; an unknown name gives ""). `weighted`: each stack's value
// is the sum of its samples' weights (XRay: call durations in TSC ticks, as
// `llvm-xray stack -aggregation-type=time`; perf: periods) instead of their
// count, and stacks whose sum is 0 are left out (simpleperf files already sum
// periods).
std::string FoldedStacks(const DecodeResult& res, bool addresses, const std::string& event, bool weighted = false);
// The same, written to `out` as the lines are made.
void WriteFoldedStacks(const DecodeResult& res, bool addresses, const std::string& event, OutputSink& out, bool weighted = false);

}  // namespace profscope::exporter
