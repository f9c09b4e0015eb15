#include "core/format/decoder.h"

namespace profscope {

bool DecodeResult::OverBudget(uint64_t offset, uint64_t extra) {
  if (budget.reached()) return true;
  if (!budget.Due()) return false;
  uint64_t used = MemoryBudget::Bytes(records) + MemoryBudget::Bytes(profile) + extra;
  return budget.Reached(used, offset, diags);
}

}  // namespace profscope
