// `folded`: folded stacks, the text `profscope stacks` prints (one function for
// both): "root;..;leaf count" per distinct stack, sorted; for simpleperf files
// simpleperf's stackcollapse.py form (DecodeResult::stacks_thread_root).
#pragma once

#include <string>

#include "core/format/decoder.h"

namespace profscope::exporter {

// Frames by name, or by address (--addresses); `event` keeps one event by name
// ("" = every event; an unknown name gives "").
std::string FoldedStacks(const DecodeResult& res, bool addresses, const std::string& event);

}  // namespace profscope::exporter
