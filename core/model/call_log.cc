#include "core/model/call_log.h"

#include <algorithm>

#include "core/model/record_table.h"

namespace profscope {

const char* CallActionName(CallAction a) {
  switch (a) {
    case CallAction::kEnter: return "enter";
    case CallAction::kExit: return "exit";
    case CallAction::kTailExit: return "tail-exit";
    case CallAction::kEnterArg: return "enter-arg";
  }
  return "unknown";
}

size_t CallLog::Add(uint32_t tid, uint32_t pid, int32_t block, CallAction a, int32_t fn, uint64_t t, int32_t record_row) {
  const size_t i = tsc.size();
  if (runs.empty() || runs.back().tid != tid || runs.back().pid != pid || runs.back().block != block)
    runs.push_back(Run{static_cast<uint32_t>(i), tid, pid, block});
  if (tsc.size() == tsc.capacity()) {  // (a quarter more past a million records, not twice: record_table.h)
    const size_t n = GrownCapacity(tsc.size());
    tsc.reserve(n);
    func.reserve(n);
    row.reserve(n);
    action.reserve(n);
  }
  tsc.push_back(t);
  func.push_back(static_cast<uint32_t>(fn));
  row.push_back(record_row);
  action.push_back(a);
  return i;
}

size_t CallLog::RunOf(size_t i) const {
  auto it = std::upper_bound(runs.begin(), runs.end(), i, [](size_t x, const Run& r) { return x < r.first; });
  return static_cast<size_t>(it - runs.begin()) - 1;
}

const std::string& CallLog::Name(int32_t func) const {
  static const std::string kEmpty;
  auto it = names.find(func);
  return it == names.end() ? kEmpty : it->second;
}

}  // namespace profscope
