// The function entries and exits a tracer recorded (LLVM XRay), in file
// order: what `profscope events` lists and the `llvm-xray account`
// statistics (core/analysis/xray_account.h) are computed from.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/model/profile.h"

namespace profscope {

// XRay's function record actions (same numbers as XRay's own).
enum class CallAction : uint8_t { kEnter = 0, kExit = 1, kTailExit = 2, kEnterArg = 3 };
const char* CallActionName(CallAction a);  // "enter", "exit", "tail-exit", "enter-arg"
inline bool IsEntry(CallAction a) { return a == CallAction::kEnter || a == CallAction::kEnterArg; }

struct CallEvent {
  uint32_t tid = 0;
  uint32_t pid = 0;
  uint16_t cpu = 0;
  CallAction action = CallAction::kEnter;
  int32_t func = 0;      // function id
  uint64_t tsc = 0;      // the tracer's clock (XRay: TSC ticks)
  std::vector<uint64_t> args;
  int32_t row = kNone;   // record-table row of the function record
  int32_t block = kNone; // XRay FDR: the buffer block it came from (the loader orders by block)
};

struct CallLog {
  std::vector<CallEvent> events;    // file order
  // The order the recording tool's loader yields the events in (llvm-xray's
  // account depends on it): indexes into events.
  std::vector<size_t> loader_order;
  uint64_t ticks_per_second = 0;    // 0 when unknown
  std::unordered_map<int32_t, std::string> names;  // every function id of the events -> its name
  const std::string& Name(int32_t func) const;
};

}  // namespace profscope
