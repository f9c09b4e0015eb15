// perf's ordered-events queue between the tokenizer and the interpretation:
// records are interpreted (threads, mappings, samples) in the order perf 6.1
// delivers them to `perf report` / `perf script`, not in file order. perf
// writes one ring buffer per CPU, so a SAMPLE often sits in the file before
// the MMAP2 that mapped its code although it happened after it.
// Source of truth: perf's util/session.c perf_session__process_event and
// process_finished_round, util/ordered-events.c ordered_events__queue and
// __ordered_events__flush:
//  - records of the kernel's types (below PERF_RECORD_USER_TYPE_START) with
//    a time (a SAMPLE's TIME, another record's sample_id trailer) are queued;
//    records without one (time 0 or no sample_id_all: synthesized records)
//    and perf's own records (HEADER_ATTR, FINISHED_ROUND, ...) are delivered
//    at once, in file order;
//  - FINISHED_ROUND delivers the queued records up to the largest time seen
//    before the previous FINISHED_ROUND, in time order, ties in file order;
//  - the end of the recording delivers the rest.
// The record table (what the tokenizer adds) stays in file order: only the
// interpretation is reordered. simpleperf's files are passed through in file
// order (simpleperf reads them so).
//
// Memory: each queued record is copied once (its bytes may live in a window or
// a decompression buffer that moves on), into its round's arena. perf bounds its queue too
// (ordered_events.max_alloc_size): when the queued bytes pass kMaxQueuedBytes
// (a round that large, or a file without FINISHED_ROUND), the older half of
// the queued time span is delivered at once, as perf's OE_FLUSH__HALF does,
// and an info diagnostic says so once; records of that round that arrive later
// with an earlier time are then interpreted after later ones.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/format/decoder.h"
#include "core/format/perf/perf_session.h"
#include "core/format/perf/perf_zstd_stream.h"

namespace profscope::perf {

class PerfOrderedEvents : public RecordSink {
 public:
  static constexpr uint64_t kMaxQueuedBytes = 64ull << 20;

  PerfOrderedEvents(PerfSession& session, DecodeResult& out, RecordSink& next)
      : session_(session), out_(out), next_(next) {}
  void Record(int32_t row, ByteReader rec) override;
  // The end of the recording: every queued record is delivered.
  void Finish();
  // Tests: a smaller bound.
  void set_max_queued_bytes(uint64_t n) { max_bytes_ = n; }
  // The time perf orders `rec` by; 0 when it is delivered at once.
  uint64_t TimeOf(ByteReader rec, uint32_t type) const;

 private:
  struct Queued {
    uint64_t time;
    uint64_t base;    // the record's file offset (its ByteReader base)
    size_t at, size;  // its bytes in arenas_[arena]
    int32_t row;
    uint32_t arena;
  };
  // The bytes of queued records. Every record of a round is delivered by the next round's
  // FINISHED_ROUND (its limit is the largest time up to this round), so each round's records go
  // to an arena of their own, which empties then and is reused as it is: records are copied
  // once, not again at each flush they wait through. An arena left mostly empty (records that
  // wait long, or a file without FINISHED_ROUND) has what still waits moved on.
  struct Arena {
    std::vector<uint8_t> bytes;
    size_t live = 0, live_bytes = 0;  // queued records in it, and their bytes
  };
  // Delivers the queued records with time <= limit, in time order (ties in file order).
  void Flush(uint64_t limit);
  bool PassThrough();
  // After a flush: empty arenas are cleared, what waits in mostly empty ones is moved to the
  // current one (or the current one compacted).
  void Reclaim();
  // A FINISHED_ROUND: new records go to an empty arena.
  void NextArena();
  void MoveTo(Queued& q, std::vector<uint8_t>& dst, uint32_t dst_arena);

  PerfSession& session_;
  DecodeResult& out_;
  RecordSink& next_;
  std::vector<Queued> queue_;
  std::vector<Arena> arenas_;
  uint32_t current_ = 0;  // the arena new records go to
  size_t queued_bytes_ = 0;  // the bytes of every queued record (the queue's bound counts them)
  std::vector<uint8_t> spare_;
  size_t sorted_ = 0;  // queue_[0, sorted_) is in time order
  std::vector<size_t> runs_;  // scratch: where the runs in time order start
  uint64_t max_time_ = 0, next_flush_ = 0;
  uint64_t max_bytes_ = kMaxQueuedBytes;
  bool passing_ = false, told_half_ = false;
  // The cmdline's argv[0] (what RecordedBySimpleperf reads) when it last said no: asked again
  // only when it changes (pipe mode's features come as records).
  bool simpleperf_checked_ = false;
  std::string checked_argv0_;
};

}  // namespace profscope::perf
