#include "core/model/memory_budget.h"

#include <string>

#include "core/model/call_log.h"

namespace profscope {

bool MemoryBudget::Reached(uint64_t used, uint64_t offset, Diagnostics& diags) {
  if (reached_) return true;
  if (used < limit_) return false;
  reached_ = true;
  diags.Error(DiagCode::kMemoryBudget, offset, 0,
              "decoding stopped at byte offset " + std::to_string(offset) + ": what is decoded reached the memory budget of " +
                  std::to_string(limit_ >> 20) + " MB (--max-memory); everything before it is shown");
  return true;
}

// Bytes per row: the sum of the table's column widths, plus 12 for an interning index.
// The record table's packed columns: what their values take (a few bytes a row at most; an XRay log's
// function records, runs of offsets, sizes and parents, 1 byte).
uint64_t MemoryBudget::Bytes(const RecordTable& t) { return t.packed_bytes(); }

uint64_t MemoryBudget::Bytes(const Profile& p) {
  return 48ull * p.strings.size() + 20ull * p.funcs.name.size() + 28ull * p.frames.address.size() +
         20ull * p.stacks.frame.size() + 36ull * p.samples.time.size() + 48ull * p.mappings.start.size() +
         36ull * p.threads.tid.size() + 16ull * p.thread_names.thread.size() + 12ull * p.events.name.size() +
         32ull * p.intervals.start.size() + 8ull * p.frame_sources.frame.size() + 28ull * p.markers.time.size();
}

// A call log: what its packed times and actions and its packed columns (function ids, record rows) take, 32 a
// run, 16 an argument, 4 a loader-order entry.
uint64_t MemoryBudget::Bytes(const CallLog& c) {
  return c.packed_bytes() + c.func.packed_bytes() + c.row.packed_bytes() + 32ull * c.runs.size() + 16ull * c.args.size() + 4ull * c.loader_runs.size();
}

}  // namespace profscope
