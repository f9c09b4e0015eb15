// `llvm-xray account`: per function, how many calls returned and their
// latencies (min, median, 90th/99th percentile, max, sum), from a tracer's
// call log taken in its loader's order (llvm-xray/xray-account.cpp: no
// sorting, no sibling-call deduction; a record older than the first one it
// sees, or an exit that matches no entry, is skipped as with -keep-going).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/model/call_log.h"

namespace profscope {

// One line of `llvm-xray account`.
struct AccountRow {
  int32_t func = 0;
  uint64_t count = 0;
  double min = 0, median = 0, p90 = 0, p99 = 0, max = 0, sum = 0;  // seconds (ticks when no frequency)
  std::string name;
};

// Rows by function id.
std::vector<AccountRow> XRayAccount(const CallLog& log);

// The rows as `llvm-xray account` prints them (same layout, for comparisons).
std::string AccountText(const std::vector<AccountRow>& rows);

}  // namespace profscope
