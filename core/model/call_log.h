// The function entries and exits a tracer recorded (LLVM XRay), in file
// order: what `profscope events` lists and the `llvm-xray account`
// statistics (core/analysis/xray_account.h) are computed from.
//
// Columns, not an object per record: 9 bytes a record (TSC, action), the
// function ids packed (1 or 2 bytes a record for most programs' ids), and the
// record-table rows as packed runs that count up. The
// thread, process and FDR buffer block are kept per run of consecutive
// records that share them (a buffer holds one thread's records), call
// arguments in a side list: a 200 MB log of
// 26 M function records keeps ~280 MB here and in no other per-record form.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/model/packed_column.h"
#include "core/model/profile.h"

namespace profscope {

// XRay's function record actions (same numbers as XRay's own).
enum class CallAction : uint8_t { kEnter = 0, kExit = 1, kTailExit = 2, kEnterArg = 3 };
const char* CallActionName(CallAction a);  // "enter", "exit", "tail-exit", "enter-arg"
inline bool IsEntry(CallAction a) { return a == CallAction::kEnter || a == CallAction::kEnterArg; }

struct CallLog {
  // Records that follow each other with the same thread, process and block.
  struct Run {
    uint32_t first = 0;     // its first record
    uint32_t tid = 0;
    uint32_t pid = 0;
    int32_t block = kNone;  // XRay FDR: the buffer block (llvm-xray's loader orders by block); kNone for basic logs
  };

  // One entry per function record, file order.
  std::vector<uint64_t> tsc;         // the tracer's clock (XRay: TSC ticks)
  PackedColumn<uint32_t> func;       // function id's bits, packed (read them with Func)
  PackedColumn<int32_t> row;         // record-table row of the function record (runs: the rows count up)
  std::vector<CallAction> action;
  std::vector<Run> runs;             // by `first`, ascending; runs[0].first == 0
  std::vector<std::pair<uint32_t, uint64_t>> args;  // (record, argument), records ascending
  // The order the recording tool's loader yields the records in (llvm-xray's
  // account depends on it): run indexes, each run's records in file order.
  std::vector<uint32_t> loader_runs;
  uint64_t ticks_per_second = 0;     // 0 when unknown
  std::unordered_map<int32_t, std::string> names;  // every function id of the records -> its name

  size_t size() const { return tsc.size(); }
  int32_t Func(size_t i) const { return static_cast<int32_t>(func[i]); }
  // Appends a record; returns its index.
  size_t Add(uint32_t tid, uint32_t pid, int32_t block, CallAction a, int32_t fn, uint64_t t, int32_t record_row);
  // The run holding record i (binary search).
  size_t RunOf(size_t i) const;
  // One past run r's last record.
  size_t RunEnd(size_t r) const { return r + 1 < runs.size() ? runs[r + 1].first : size(); }
  uint32_t Tid(size_t i) const { return runs[RunOf(i)].tid; }
  const std::string& Name(int32_t func) const;
};

}  // namespace profscope
