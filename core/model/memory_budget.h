// One memory budget per decode. What a decode keeps (the record table, the
// profile's tables, a tracer's call log) is counted with fixed bytes per row
// (packed columns: the bytes their values take), the same natively and in WASM, so both stop at the same record and print
// the same output. Reaching the budget stops the decode with one error
// diagnostic naming the byte offset and the budget; what was decoded stays.
#pragma once

#include <cstdint>

#include "core/diag/diagnostics.h"
#include "core/model/profile.h"
#include "core/model/record_table.h"

namespace profscope {

struct CallLog;  // core/model/call_log.h

class MemoryBudget {
 public:
  // The default keeps the whole page (model, its copies in the page, the
  // browser's own) under 2 GB; the CLI's --max-memory MB sets another.
  static constexpr uint64_t kDefaultMiB = 768;
  // How often Due() is true (rows between two counts).
  static constexpr uint32_t kCheckEvery = 256;

  uint64_t limit() const { return limit_; }
  void set_limit_mib(uint64_t mib) { limit_ = mib << 20; }
  // True every kCheckEvery calls: when a loop should count (Reached).
  bool Due() { return ++tick_ % kCheckEvery == 0; }
  // How many of the next Due() calls are false: a loop may take that many rows at once (SkipQuiet) and stop
  // at the same row as one Due() a row would.
  uint32_t QuietTicks() const { return kCheckEvery - 1 - tick_ % kCheckEvery; }
  // Counts n Due() calls, n <= QuietTicks().
  void SkipQuiet(uint32_t n) { tick_ += n; }
  // True when `used` bytes reach the limit (then, the first time, an error
  // diagnostic at `offset` in `diags`); stays true once reached.
  bool Reached(uint64_t used, uint64_t offset, Diagnostics& diags);
  bool reached() const { return reached_; }

  // Bytes the tables hold, counted per row (packed columns: PackedColumn::packed_bytes).
  static uint64_t Bytes(const RecordTable& t);
  static uint64_t Bytes(const Profile& p);
  static uint64_t Bytes(const CallLog& c);

 private:
  uint64_t limit_ = kDefaultMiB << 20;
  uint32_t tick_ = 0;
  bool reached_ = false;
};

}  // namespace profscope
