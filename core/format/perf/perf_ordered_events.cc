#include "core/format/perf/perf_ordered_events.h"

#include <algorithm>

#include "core/format/perf/perf_format.h"
#include "core/format/perf/simpleperf/simpleperf_format.h"

namespace profscope::perf {

namespace {
// A round's (or a FINISHED_ROUND-less file's) records go on in a fresh arena past this size, so a
// flush frees whole arenas instead of leaving one growing arena plus an equally large spare.
constexpr size_t kArenaChunk = 4u << 20;
// What the budget counts for a queue entry (its size natively; the same in WASM, whose size_t is narrower,
// so that both stop at the same record).
constexpr uint64_t kQueuedEntryBytes = 40;
constexpr uint32_t kUserTypeStart = 64;  // PERF_RECORD_USER_TYPE_START
}

bool PerfOrderedEvents::PassThrough() {
  if (passing_) return true;
  const auto& argv = session_.features.cmdline_argv;
  if (!session_.features.simpleperf.present && simpleperf_checked_ &&
      (argv.empty() ? checked_argv0_.empty() : argv[0] == checked_argv0_))
    return false;
  if (session_.features.simpleperf.present || RecordedBySimpleperf(session_.features)) {
    Flush(~0ull);
    passing_ = true;
  } else {
    simpleperf_checked_ = true;
    checked_argv0_ = argv.empty() ? std::string() : argv[0];
  }
  return passing_;
}

uint64_t PerfOrderedEvents::TimeOf(ByteReader rec, uint32_t type) const {
  if (type >= kUserTypeStart || rec.size() < 8) return 0;
  const PerfSession::AttrInfo* a = session_.AttrForRecord(rec, type);
  if (!a) return 0;
  const uint64_t st = a->attr.sample_type;
  if (!(st & kSampleTime)) return 0;
  if (type == kSample) {
    // perf_evsel__parse_sample_timestamp: the time follows IDENTIFIER, IP and TID.
    size_t at = 8 + 8 * (((st & kSampleIdentifier) ? 1 : 0) + ((st & kSampleIp) ? 1 : 0) + ((st & kSampleTid) ? 1 : 0));
    return at + 8 <= rec.size() ? rec.PeekU64(at) : 0;
  }
  if (!a->attr.sample_id_all()) return 0;
  SampleData sd;
  if (!ParseSampleId(rec.Slice(8, rec.size() - 8), a->attr, &sd, nullptr)) return 0;
  return sd.time;
}

void PerfOrderedEvents::Record(int32_t row, ByteReader rec) {
  if (rec.size() < 8 || PassThrough()) {
    next_.Record(row, rec);
    return;
  }
  const uint32_t type = rec.PeekU32(0);
  if (type > kSimpleperfTypeStart) {  // simpleperf's own records: its file order from here on
    Flush(~0ull);
    passing_ = true;
    next_.Record(row, rec);
    return;
  }
  if (type == kFinishedRound) {
    Flush(next_flush_);
    next_flush_ = max_time_;
    NextArena();
    next_.Record(row, rec);
    return;
  }
  const uint64_t t = TimeOf(rec, type);
  if (t == 0 || t == ~0ull) {
    next_.Record(row, rec);
    return;
  }
  max_time_ = std::max(max_time_, t);
  if (queued_bytes_ + rec.size() > max_bytes_ && !queue_.empty()) {
    // perf's OE_FLUSH__HALF: the older half of the queued time span goes now.
    uint64_t lo = ~0ull, hi = 0;
    for (const Queued& q : queue_) {
      lo = std::min(lo, q.time);
      hi = std::max(hi, q.time);
    }
    const uint64_t half = lo + (hi - lo) / 2;
    if (!told_half_) {
      told_half_ = true;
      out_.diags.Add(DiagCode::kLimitExceeded, Severity::kInfo, rec.base(), rec.size(),
                     "more than " + Dec(max_bytes_ >> 20) + " MiB of records wait for time ordering at " +
                         Hex(rec.base()) + " (a long round between FINISHED_ROUND records, or none); the older half "
                         "is interpreted now, as perf's ordered-events queue does when full: records of that round "
                         "that come later with an earlier time are interpreted out of time order");
    }
    Flush(half);
    next_flush_ = std::max(next_flush_, half);
  }
  if (arenas_.empty()) arenas_.emplace_back();
  if (arenas_[current_].live && arenas_[current_].bytes.size() + rec.size() > kArenaChunk) {
    NextArena();
    arenas_[current_].bytes.reserve(kArenaChunk);
  }
  Arena& a = arenas_[current_];
  const size_t at = a.bytes.size();
  a.bytes.insert(a.bytes.end(), rec.data(), rec.data() + rec.size());
  ++a.live;
  a.live_bytes += rec.size();
  queued_bytes_ += rec.size();
  queue_.push_back(Queued{t, rec.base(), at, rec.size(), row, current_});
  out_.pending_bytes = queued_bytes_ + kQueuedEntryBytes * queue_.size();  // (the budget counts them)
}

void PerfOrderedEvents::NextArena() {
  if (arenas_.empty() || arenas_[current_].live == 0) return;  // (an empty one was cleared by Reclaim)
  for (uint32_t i = 0; i < arenas_.size(); ++i) {
    if (arenas_[i].live == 0) {
      arenas_[i].bytes.clear();
      current_ = i;
      return;
    }
  }
  arenas_.emplace_back();
  current_ = static_cast<uint32_t>(arenas_.size() - 1);
}

void PerfOrderedEvents::MoveTo(Queued& q, std::vector<uint8_t>& dst, uint32_t dst_arena) {
  const size_t at = dst.size();
  const uint8_t* src = arenas_[q.arena].bytes.data() + q.at;  // (never dst's own bytes)
  dst.insert(dst.end(), src, src + q.size);
  q.at = at;
  q.arena = dst_arena;
}

void PerfOrderedEvents::Reclaim() {
  for (uint32_t i = 0; i < arenas_.size(); ++i) {
    Arena& a = arenas_[i];
    if (a.live == 0) {
      a.bytes.clear();  // (keeps its capacity: a large buffer allocated afresh costs a page fault per page)
      a.live_bytes = 0;
      continue;
    }
    // Mostly dead: what waits there moves (at most half the arena's bytes, so each byte is moved
    // a bounded number of times).
    if (a.bytes.size() < (1u << 20) || a.live_bytes * 2 > a.bytes.size()) continue;
    if (i != current_) {
      Arena& c = arenas_[current_];
      for (Queued& q : queue_) {
        if (q.arena != i) continue;
        MoveTo(q, c.bytes, current_);
        ++c.live;
        c.live_bytes += q.size;
      }
      a.bytes.clear();
      a.live = a.live_bytes = 0;
    } else {
      spare_.clear();
      for (Queued& q : queue_)
        if (q.arena == i) MoveTo(q, spare_, i);
      a.bytes.swap(spare_);
    }
  }
}

void PerfOrderedEvents::Flush(uint64_t limit) {
  if (queue_.empty()) return;
  // queue_[0, sorted_) is in time order from the previous flush; the records
  // queued since are in file order. Sorting only them and merging keeps ties in
  // file order (ordered-events.c queue_event) without re-sorting what waited.
  auto by_time = [](const Queued& a, const Queued& b) { return a.time < b.time; };
  // What a round holds is mostly a few runs already in time order (perf writes each CPU's buffer
  // in turn): the runs are merged, neighbours first, which is a stable sort too.
  runs_.clear();
  runs_.push_back(sorted_);
  for (size_t i = sorted_ + 1; i < queue_.size(); ++i)
    if (queue_[i].time < queue_[i - 1].time) runs_.push_back(i);
  if (runs_.size() > 64) {
    std::stable_sort(queue_.begin() + static_cast<long>(sorted_), queue_.end(), by_time);
    runs_.resize(1);
  }
  runs_.push_back(queue_.size());
  if (sorted_ > 0) runs_.insert(runs_.begin(), 0);  // what waited from the previous flush, in order
  while (runs_.size() > 2) {
    size_t w = 0;
    for (size_t r = 0; r + 2 < runs_.size(); r += 2) {
      std::inplace_merge(queue_.begin() + static_cast<long>(runs_[r]), queue_.begin() + static_cast<long>(runs_[r + 1]),
                         queue_.begin() + static_cast<long>(runs_[r + 2]), by_time);
      runs_[w++] = runs_[r];
    }
    if (runs_.size() % 2 == 0) runs_[w++] = runs_[runs_.size() - 2];  // an odd run out waits
    runs_[w++] = runs_.back();
    runs_.resize(w);
  }
  sorted_ = queue_.size();
  size_t n = 0;
  while (n < queue_.size() && queue_[n].time <= limit) {
    const Queued& q = queue_[n++];
    next_.Record(q.row, ByteReader(arenas_[q.arena].bytes.data() + q.at, q.size, q.base, session_.order));
  }
  if (n == 0) return;
  for (size_t i = 0; i < n; ++i) {
    Arena& a = arenas_[queue_[i].arena];
    --a.live;
    a.live_bytes -= queue_[i].size;
    queued_bytes_ -= queue_[i].size;
  }
  queue_.erase(queue_.begin(), queue_.begin() + static_cast<long>(n));
  sorted_ = queue_.size();
  out_.pending_bytes = queued_bytes_ + kQueuedEntryBytes * queue_.size();
  Reclaim();
}

void PerfOrderedEvents::Finish() { Flush(~0ull); }

}  // namespace profscope::perf
