// The function entries and exits a tracer recorded (LLVM XRay), in file
// order: what `profscope events` lists, what BuildCalls pairs into calls
// (core/format/xray/xray_calls.h) and what the `llvm-xray account`
// statistics (core/analysis/xray_account.h) are computed from. All of them
// read the records in file order from some record on (Reader).
//
// Packed, not an object per record: each record's time as the difference to
// the record before (zigzag, LEB128) with its action in the same first byte
// (1 to 3 bytes a record for a log's buffers, whose records are close in
// time), the function ids and the record-table rows as packed columns (a byte
// or two, and runs that count up). The thread, process and FDR buffer block
// are kept per run of consecutive records that share them (a buffer holds one
// thread's records), call arguments in a side list: a 200 MB log of 25 M
// function records keeps about 3 bytes a record here.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/io/keyed_hash.h"
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
    uint64_t at = 0;        // where its first record's time starts in the packed times
    uint64_t tsc_before = 0;  // the time of the record before it (0 for the first)
  };
  // A record's time and action.
  struct Call {
    uint64_t tsc = 0;
    CallAction action = CallAction::kEnter;
  };
  // Reads the records' times and actions in file order from a run's first record on (copies go on
  // separately). The log must not grow meanwhile.
  class Reader {
   public:
    explicit Reader(const CallLog& log, size_t run = 0);  // at run `run`'s first record (past the end: at size())
    size_t index() const { return i_; }
    // Record index(), then the next one is; only while index() < size().
    Call Next() {
      const uint8_t b = data_[pos_++];
      uint64_t zz = (b >> 2) & 31;
      if (b & 0x80) {
        int shift = 5;
        uint8_t c;
        do {
          c = data_[pos_++];
          zz |= static_cast<uint64_t>(c & 0x7f) << shift;
          shift += 7;
        } while (c & 0x80);
      }
      tsc_ += (zz >> 1) ^ (0 - (zz & 1));  // (zigzag: wraps as the difference did)
      ++i_;
      return Call{tsc_, static_cast<CallAction>(b & 3)};
    }

   private:
    const uint8_t* data_;
    size_t pos_;
    uint64_t tsc_;
    size_t i_;
  };

  PackedColumn<uint32_t> func;       // function id's bits, packed (read them with Func)
  PackedColumn<int32_t> row;         // record-table row of the function record (runs: the rows count up)
  std::vector<Run> runs;             // by `first`, ascending; runs[0].first == 0
  std::vector<std::pair<uint32_t, uint64_t>> args;  // (record, argument), records ascending
  // The order the recording tool's loader yields the records in (llvm-xray's
  // account depends on it): run indexes, each run's records in file order.
  std::vector<uint32_t> loader_runs;
  uint64_t ticks_per_second = 0;     // 0 when unknown
  std::unordered_map<int32_t, std::string, KeyedIntHash> names;  // every function id of the records -> its name

  size_t size() const { return n_; }
  // Records whose action is an entry.
  size_t entries() const { return entries_; }
  int32_t Func(size_t i) const { return static_cast<int32_t>(func[i]); }
  // Appends a record; returns its index. Throws std::bad_alloc with the log unchanged.
  size_t Add(uint32_t tid, uint32_t pid, int32_t block, CallAction a, int32_t fn, uint64_t t, int32_t record_row);
  // Appends k records of one thread, process and block, as k Adds would: actions a[j], function ids fn[j],
  // times t[j] and record-table rows first_row + j (a run of a tracer's function records taken at once);
  // returns the first one's index. Throws std::bad_alloc with the log unchanged.
  size_t AddRun(uint32_t tid, uint32_t pid, int32_t block, size_t k, const CallAction* a, const int32_t* fn, const uint64_t* t,
                int32_t first_row);
  // The last record's action becomes `a` (XRay: an entry whose argument follows).
  void SetLastAction(CallAction a);
  // Room for n records (times and actions at about 2 bytes a record); may throw std::bad_alloc.
  void Reserve(size_t n);
  // The bytes the times and actions take (the memory budget counts them).
  size_t packed_bytes() const { return used_; }
  // The run holding record i (binary search).
  size_t RunOf(size_t i) const;
  // One past run r's last record.
  size_t RunEnd(size_t r) const { return r + 1 < runs.size() ? runs[r + 1].first : size(); }
  uint32_t Tid(size_t i) const { return runs[RunOf(i)].tid; }
  const std::string& Name(int32_t func) const;

 private:
  // Makes room for `want` bytes of times; throws std::bad_alloc with the log unchanged.
  void Grow(size_t want);
  std::unique_ptr<uint8_t[]> bytes_;  // per record: first byte = action | 5 bits of the zigzag difference << 2 | more << 7
  size_t used_ = 0, room_ = 0;        // bytes_ holds used_ bytes and has room for room_
  uint64_t last_tsc_ = 0;
  size_t last_at_ = 0;          // the last record's first byte
  size_t n_ = 0;
  size_t entries_ = 0;
};

}  // namespace profscope
