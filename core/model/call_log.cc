#include "core/model/call_log.h"

#include <algorithm>
#include <cstring>

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

namespace {
// A record's first byte and the rest of its time's difference d to the record before (see bytes_) at
// `out`; the bytes written (1 to 10).
size_t EncodeCall(uint8_t* out, CallAction a, uint64_t d) {
  uint64_t zz = (d << 1) ^ (0 - (d >> 63));
  const uint8_t b = static_cast<uint8_t>(static_cast<uint8_t>(a) & 3) | static_cast<uint8_t>((zz & 31) << 2);
  zz >>= 5;
  size_t len = 0;
  out[len++] = zz ? static_cast<uint8_t>(b | 0x80) : b;
  while (zz) {
    const uint8_t c = zz & 0x7f;
    zz >>= 7;
    out[len++] = zz ? static_cast<uint8_t>(c | 0x80) : c;
  }
  return len;
}
}  // namespace

size_t CallLog::Add(uint32_t tid, uint32_t pid, int32_t block, CallAction a, int32_t fn, uint64_t t, int32_t record_row) {
  const size_t i = n_;
  // Room first, then the pushes that can throw undone if one does: the log stays as it was.
  if (room_ - used_ < 10) Grow(GrownCapacity(used_ + 10));
  const size_t runs_before = runs.size();
  try {
    if (runs.empty() || runs.back().tid != tid || runs.back().pid != pid || runs.back().block != block)
      runs.push_back(Run{static_cast<uint32_t>(i), tid, pid, block, used_, last_tsc_});
    func.push_back(static_cast<uint32_t>(fn));
    row.push_back(record_row);
  } catch (...) {
    runs.resize(runs_before);
    func.truncate(i);
    row.truncate(i);
    throw;
  }
  last_at_ = used_;
  used_ += EncodeCall(bytes_.get() + used_, a, t - last_tsc_);  // (wraps: a time before the last one is a large difference)
  last_tsc_ = t;
  entries_ += IsEntry(a) ? 1 : 0;
  ++n_;
  return i;
}

size_t CallLog::AddRun(uint32_t tid, uint32_t pid, int32_t block, size_t k, const CallAction* a, const int32_t* fn, const uint64_t* t,
                       int32_t first_row) {
  const size_t i = n_;
  if (k == 0) return i;
  if (room_ - used_ < 10 * k) Grow(GrownCapacity(used_ + 10 * k));
  const size_t runs_before = runs.size();
  try {
    if (runs.empty() || runs.back().tid != tid || runs.back().pid != pid || runs.back().block != block)
      runs.push_back(Run{static_cast<uint32_t>(i), tid, pid, block, used_, last_tsc_});
    for (size_t j = 0; j < k; ++j) func.push_back(static_cast<uint32_t>(fn[j]));
    row.AppendRun(first_row, 1, k);
  } catch (...) {
    runs.resize(runs_before);
    func.truncate(i);
    row.truncate(i);
    throw;
  }
  uint8_t* const out = bytes_.get();
  size_t used = used_, at = used_, entries = 0;
  uint64_t last = last_tsc_;
  for (size_t j = 0; j < k; ++j) {
    at = used;
    used += EncodeCall(out + used, a[j], t[j] - last);
    last = t[j];
    entries += IsEntry(a[j]) ? 1 : 0;
  }
  last_at_ = at;
  used_ = used;
  last_tsc_ = last;
  entries_ += entries;
  n_ += k;
  return i;
}

void CallLog::SetLastAction(CallAction a) {
  if (!n_) return;
  const auto was = static_cast<CallAction>(bytes_[last_at_] & 3);
  entries_ = entries_ - (IsEntry(was) ? 1 : 0) + (IsEntry(a) ? 1 : 0);
  bytes_[last_at_] = static_cast<uint8_t>((bytes_[last_at_] & ~3) | (static_cast<uint8_t>(a) & 3));
}

void CallLog::Reserve(size_t n) {
  if (2 * n > room_) Grow(2 * n);
  func.reserve(n);
  row.reserve(n);
}

void CallLog::Grow(size_t want) {
  std::unique_ptr<uint8_t[]> more(new uint8_t[want]);
  if (used_) std::memcpy(more.get(), bytes_.get(), used_);
  bytes_.swap(more);
  room_ = want;
}

CallLog::Reader::Reader(const CallLog& log, size_t run) : data_(log.bytes_.get()), pos_(log.used_), tsc_(log.last_tsc_), i_(log.n_) {
  if (run >= log.runs.size()) return;
  pos_ = static_cast<size_t>(log.runs[run].at);
  tsc_ = log.runs[run].tsc_before;
  i_ = log.runs[run].first;
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
