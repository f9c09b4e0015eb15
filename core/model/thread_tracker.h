// ThreadTracker: the one way decoders add threads to a Profile. A thread is
// one row per tid (the first row a tid got; every format names threads by
// tid), with its process, its names over time (ThreadNameTable), when it was
// seen and how many samples it has.
#pragma once

#include <cstdint>
#include <unordered_map>

#include "core/io/keyed_hash.h"
#include "core/model/profile.h"

namespace profscope {

class ThreadTracker {
 public:
  // Tracks the threads of `p`, indexing the rows it already has.
  explicit ThreadTracker(Profile& p);

  // The row of `tid`, or kNone.
  int32_t Find(int32_t tid) const;
  // The row of `tid`; a new row has `pid`, no name, start `time`, end 0, no samples.
  int32_t Row(int32_t tid, int32_t pid, uint64_t time);
  // A record says `tid` belongs to `pid` at `time` (perf: 0 = no time, pid -1
  // = unknown): the row, its pid filled in when unknown, its start moved back.
  int32_t Seen(int32_t pid, int32_t tid, uint64_t time);

  // Moves the start back to `time` when earlier (a time 0 counts).
  void StartBy(int32_t row, uint64_t time);
  // Widens [start, end] to cover `time`.
  void Cover(int32_t row, uint64_t time);
  // The thread ended (EXIT) at `time`.
  void End(int32_t row, uint64_t time);
  // The thread is named `name` (string id) from `time` on: its latest name and a ThreadNameTable row.
  void Name(int32_t row, uint64_t time, int32_t name);
  void AddSamples(int32_t row, uint32_t n = 1);

  size_t size() const { return t_.size(); }

 private:
  Profile& p_;
  ThreadTable& t_;
  std::unordered_map<int32_t, int32_t, KeyedIntHash> rows_;  // tid -> row
  // The rows of recent tids (a tid keeps its row): most lookups skip the map's hashing.
  struct Recent {
    int32_t tid = 0, row = kNone;
  };
  Recent recent_[64];
};

}  // namespace profscope
