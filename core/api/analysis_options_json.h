// AnalysisOptions (core/analysis/call_tree.h) from one JSON text, the form the
// shells pass through unchanged (the page's worker sends JSON.stringify of its
// options; the CLI may take the same text):
//   {"filter": {"event": 0, "threads": [1, 2], "cpus": [0], "t0": 1000, "t1": 2000},
//    "transforms": [{"type": "focus-subtree", "path": [3, 7]},
//                   {"type": "merge-function" | "focus-function" | "drop-function" |
//                            "collapse-recursion", "func": 7},
//                   {"type": "collapse-library", "lib": "/usr/lib/libc.so.6"}],
//    "invert": false,
//    "weight": "count" | "samples" | "time" | "period",
//    "sandwich": {"mode": "callers" | "callees", "func": 7}}
// weight: time/period count each sample's weight (XRay: its duration; perf: its
// period), count/samples (the default) its count. Every member may be left out or null. Functions are canonical function ids
// (Session::AnalysisCanon); t0/t1 are times relative to the session's time
// origin (what every time the session hands out is), in the file's units;
// t0 is rounded up and t1 down to whole units. Transforms of an unknown type
// and unknown members are ignored (a newer page may send more).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/analysis/call_tree.h"

namespace profscope {

// False with a message in *error when the text is not JSON or a member has the
// wrong type (a function id that is not an integer, a list that is not one).
bool ParseAnalysisOptions(std::string_view json, uint64_t time_origin, AnalysisOptions* out, std::string* error);

}  // namespace profscope
