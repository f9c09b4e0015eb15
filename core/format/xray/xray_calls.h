// From an XRay log's enter/exit records to the profile: enters and exits
// paired per thread into intervals (a time-ordered flame chart) and call
// stacks like `llvm-xray stack` builds them: one sample per accounted exit
// on the stack node (root = "thread_TID"), so the folded stacks' values are
// llvm-xray's `-aggregation-type=count`; markers on their threads.
#pragma once

#include <vector>

#include "core/format/decoder.h"
#include "core/format/xray/xray_map.h"
#include "core/format/xray/xray_reader.h"

namespace profscope::xray {

// The indexes of `times` in time order, stable (file order among equal times): what BuildCalls walks the
// records in, as llvm-xray stack's stable sort by TSC. Merges the runs that are already in order (a log's
// buffers are), so it costs log2(runs) passes, not a sort's.
std::vector<uint32_t> TimeOrder(const std::vector<uint64_t>& times);

// The call log's records in that order, yielded one at a time by merging the segments already in time
// order as it goes: the segments are chained (one after another in time: a thread's buffers), and a heap
// holds one reader a chain (a few), not an order of every record. Many segments (an unordered log) fall
// back to TimeOrder over the times read out.
class TimeMerge {
 public:
  struct Item {
    uint32_t index;  // the record
    uint64_t tsc;
    CallAction action;
    uint32_t run;    // the call log's run holding it
    int32_t row;     // its record-table row
  };
  explicit TimeMerge(const CallLog& log);  // may throw std::bad_alloc
  // The next record in time order; false once every record was yielded.
  bool Next(Item* out);

 private:
  static constexpr uint32_t kNoSegment = 0xFFFFFFFFu;
  struct Segment {       // records [begin, end) of non-decreasing times
    CallLog::Reader rd;  // after its first record
    uint64_t tsc;        // its first record's time
    uint64_t last;       // its last record's time
    uint32_t begin;
    uint32_t end;
    uint32_t next;       // the segment its chain goes on with, or kNoSegment
    CallAction action;   // its first record's action
  };
  struct Cursor {
    CallLog::Reader rd;  // after its next record
    CallAction action;   // its next record's action
    uint32_t end;        // one past its segment's last record
    uint32_t run;        // the call log's run holding its next record, and that run's end
    uint32_t run_end;
    size_t row_run;      // the run of the rows' packed column its last row was in
    uint32_t seg;        // its segment
  };
  struct Key {  // a cursor's next record, as the heap orders them
    uint64_t tsc;
    uint32_t index;
    uint32_t cursor;
  };
  struct Before {  // (a type, not a function pointer: the heap's comparisons inline)
    bool operator()(const Key& a, const Key& b) const { return a.tsc < b.tsc || (a.tsc == b.tsc && a.index < b.index); }
  };
  const CallLog& log_;
  std::vector<Segment> segs_;      // few segments: chained,
  std::vector<Cursor> cursors_;    // a cursor a chain,
  std::vector<Key> heap_;          // and a min-heap of their next records
  std::vector<uint64_t> tsc_;      // many runs: every record's time and action, and the whole order
  std::vector<CallAction> action_;
  std::vector<uint32_t> order_;
  size_t next_ = 0;
  bool merged_ = false;
};

// Fills threads, funcs/frames/stacks, samples, intervals, the "calls" event and markers.
void BuildCalls(const XRayLog& log, const XRayFunctionMap& names, DecodeResult& out);

// The call log's runs in the order llvm-xray's loader yields their records
// (basic: file order; FDR: per (pid, tid) in its hash map's bucket order,
// each thread's blocks by wall time): `llvm-xray account` drops every record
// older than the first one it sees, so its statistics depend on this order.
// Keys made to collide in that (unkeyed) hash are not probed for without end: past a bound the threads
// keep the order of their first flushed buffers, with a warning in `diags`.
std::vector<uint32_t> LoaderOrder(const XRayLog& log, Diagnostics& diags);
// The hash of LLVM's DenseMap for a (pid, tid) key (DenseMapInfo<std::pair<>>: each half times 37, mixed).
uint32_t LoaderKeyHash(uint64_t pid, int32_t tid);

}  // namespace profscope::xray
