// Profile tables as columns, after the Firefox Profiler's processed format:
// a few long arrays of primitives instead of millions of objects. Every id is
// an index into its table; kNone (-1) means "none".
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/io/keyed_hash.h"
#include "core/model/packed_column.h"

namespace profscope {

inline constexpr int32_t kNone = -1;

// An open-addressing index of table rows for interning: each slot holds a row
// id and 32 bits of its key's hash (which also place it: slot = tag * n >> 32,
// so growing needs no rehash); keys are compared through the table's own
// columns. 8 bytes per slot, 50-75 % full (grows by 1.5x): ~13 bytes per row,
// instead of a node-based map's copy of the key plus an allocation per entry.
// The slot comes from the hash keyed by the process's secret (keyed_hash.h):
// keys a file chose to share their upper hash bits still spread out.
class FlatIndex {
 public:
  // The row whose key matches (eq(row) true), or `new_row` after recording it.
  template <typename Eq>
  int32_t FindOrInsert(uint64_t hash, Eq eq, int32_t new_row, bool* inserted) {
    if ((count_ + 1) * 4 > slots_.size() * 3) Grow();
    const uint32_t tag = Tag(hash);
    const size_t n = slots_.size();
    for (size_t i = Home(tag, n);; i = i + 1 == n ? 0 : i + 1) {
      Slot& s = slots_[i];
      if (s.row < 0) {
        s.row = new_row;
        s.tag = tag;
        ++count_;
        *inserted = true;
        return new_row;
      }
      if (s.tag == tag && eq(s.row)) {
        *inserted = false;
        return s.row;
      }
    }
  }
  // Starts loading the slot where `hash` is looked for (several lookups then overlap their cache misses).
  void Prefetch(uint64_t hash) const {
#if defined(__GNUC__) || defined(__clang__)
    if (!slots_.empty()) __builtin_prefetch(&slots_[Home(Tag(hash), slots_.size())]);
#else
    (void)hash;
#endif
  }
  // Records a row whose key is known to be in no other row.
  void Insert(uint64_t hash, int32_t row) {
    if ((count_ + 1) * 4 > slots_.size() * 3) Grow();
    Place(Slot{Tag(hash), row});
    ++count_;
  }
  // Frees the slots (the index is then empty).
  void Clear() {
    std::vector<Slot>().swap(slots_);
    count_ = 0;
  }
  size_t count() const { return count_; }
  size_t bytes() const { return slots_.capacity() * sizeof(Slot); }
  // The hash of a key of two numbers (keyed: keyed_hash.h KeyedMix).
  static uint64_t Mix(uint64_t a, uint64_t b) { return KeyedMix(a, b); }

 private:
  struct Slot {
    uint32_t tag = 0;
    int32_t row = -1;
  };
  uint32_t Tag(uint64_t hash) const {
    uint64_t z = hash ^ seed_;
    z = (z ^ (z >> 32)) * 0xd6e8feb86659fd93ULL;
    return static_cast<uint32_t>(z >> 32);
  }
  static size_t Home(uint32_t tag, size_t n) { return static_cast<size_t>((static_cast<uint64_t>(tag) * n) >> 32); }
  void Place(Slot s) {
    const size_t n = slots_.size();
    size_t i = Home(s.tag, n);
    while (slots_[i].row >= 0) i = i + 1 == n ? 0 : i + 1;
    slots_[i] = s;
  }
  void Grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(old.empty() ? 16 : old.size() + old.size() / 2, Slot{});
    for (const Slot& s : old)
      if (s.row >= 0) Place(s);
  }
  std::vector<Slot> slots_;
  size_t count_ = 0;
  uint64_t seed_ = HashSeed();
};

// Interned strings: dense ids.
class StringTable {
 public:
  int32_t Intern(std::string_view s);
  const std::string& Get(int32_t id) const { return strings_[static_cast<size_t>(id)]; }
  size_t size() const { return strings_.size(); }
  const std::vector<std::string>& all() const { return strings_; }

 private:
  std::vector<std::string> strings_;
  FlatIndex index_;
};

// A function: its name (here `path+0xoffset` until symbolization) and the
// mapping it lives in (its "resource").
struct FuncTable {
  std::vector<int32_t> name;     // string id
  std::vector<int32_t> mapping;  // mapping row or kNone
  // Optional (empty: none; shorter than name: the rest 0): 1 where the
  // recording's own tool prints "[unknown]" in folded stacks (perf: an address
  // that the DSO's file, given, names no symbol for, or anonymous memory);
  // the name stays `path+0xoffset` for the views.
  std::vector<uint8_t> unknown;
};

// A frame: one address in one mapping.
struct FrameTable {
  std::vector<uint64_t> address;  // absolute
  std::vector<int32_t> func;      // func row
  std::vector<int32_t> mapping;   // mapping row or kNone
  // Optional (shorter than address: the rest 0): 1 where the frame is an
  // inlined function's (perf's "(inlined)": DWARF says it was inlined into
  // the frame below it, no call took place).
  std::vector<uint8_t> inlined;
};

// Stacks as a prefix tree: a stack is (frame, prefix); parents come before
// children, so a stack's frames root-first are its prefix chain reversed.
struct StackTable {
  std::vector<int32_t> frame;
  std::vector<int32_t> prefix;   // kNone for a root
};

// A weight as a double made an integer: rounded, 0 for negative or NaN,
// saturated at UINT64_MAX (casting a double >= 2^64 would be undefined).
inline uint64_t WeightToU64(double w) {
  if (!(w > 0)) return 0;
  if (w >= 18446744073709551616.0) return UINT64_MAX;
  return static_cast<uint64_t>(w + 0.5);
}

struct SampleTable {
  std::vector<uint64_t> time;    // ns in the file's clock; 0 when absent
  PackedColumn<int32_t> thread;  // thread row (one run: a single-threaded recording; else a byte or two a row)
  PackedColumn<int32_t> cpu;     // kNone when absent (runs: XRay and gperftools have none)
  PackedColumn<int32_t> event;   // event row (runs: most files have one event)
  PackedColumn<uint64_t> weight; // period when recorded, else 1; XRay: the call's ticks (runs: a fixed period)
  PackedColumn<int32_t> stack;   // stack row or kNone
  PackedColumn<int32_t> record;  // record-table row (perf: runs that count up)
  // How many samples each row stands for (gperftools records carry a count); empty = 1 each.
  std::vector<uint32_t> count;
  size_t size() const { return time.size(); }
  // Room for n rows in every per-row column (count stays as it is); may throw std::bad_alloc.
  void Reserve(size_t n) {
    time.reserve(n);
    thread.reserve(n);
    cpu.reserve(n);
    event.reserve(n);
    weight.reserve(n);
    stack.reserve(n);
    record.reserve(n);
  }
  uint64_t Count(size_t i) const { return count.empty() ? 1 : count[i]; }
  // Drops the rows some column lacks (an allocation failed while a row was added column by column).
  void TrimToShortest() {
    size_t n = std::min({time.size(), thread.size(), cpu.size(), event.size(), weight.size(), stack.size(), record.size()});
    if (!count.empty()) n = std::min(n, count.size());
    time.resize(n);
    thread.truncate(n);
    cpu.truncate(n);
    event.truncate(n);
    weight.truncate(n);
    stack.truncate(n);
    record.truncate(n);
    if (!count.empty()) count.resize(n);
  }
  uint64_t Total() const {
    if (count.empty()) return size();
    uint64_t n = 0;
    for (uint32_t c : count) n += c;
    return n;
  }
};

// Reads a SampleTable's packed columns in (mostly) forward row order: each column keeps the run its last read
// found, so the next read in that run or the next one costs no search (a column of runs' `[]` searches its
// runs every time). One per loop; it holds a pointer to the table.
class SampleCursor {
 public:
  explicit SampleCursor(const SampleTable& t) : t_(&t) {}
  int32_t thread(size_t i) { return t_->thread.At(i, &thread_); }
  int32_t cpu(size_t i) { return t_->cpu.At(i, &cpu_); }
  int32_t event(size_t i) { return t_->event.At(i, &event_); }
  uint64_t weight(size_t i) { return t_->weight.At(i, &weight_); }
  int32_t stack(size_t i) { return t_->stack.At(i, &stack_); }
  int32_t record(size_t i) { return t_->record.At(i, &record_); }

 private:
  const SampleTable* t_;
  size_t thread_ = 0, cpu_ = 0, event_ = 0, weight_ = 0, stack_ = 0, record_ = 0;
};

// Mappings of each process over time (MMAP/MMAP2 in file order).
struct MappingTable {
  std::vector<int32_t> pid;      // -1 for kernel maps
  std::vector<uint64_t> start;
  std::vector<uint64_t> end;     // exclusive
  std::vector<uint64_t> pgoff;
  std::vector<int32_t> path;     // string id
  std::vector<int32_t> build_id; // string id (hex) or kNone
  std::vector<uint64_t> time;    // when it appeared (0 if unknown)
  std::vector<int32_t> record;   // record row that created it
  size_t size() const { return start.size(); }
};

struct ThreadTable {
  std::vector<int32_t> tid;
  std::vector<int32_t> pid;
  std::vector<int32_t> name;     // latest name (string id) or kNone
  std::vector<uint64_t> start;   // first time seen (0 if unknown)
  std::vector<uint64_t> end;     // EXIT time, 0 if none
  std::vector<uint32_t> samples;
  size_t size() const { return tid.size(); }
};

// Thread names over time (COMM records): thread row, time, name.
struct ThreadNameTable {
  std::vector<int32_t> thread;
  std::vector<uint64_t> time;
  std::vector<int32_t> name;
};

// How an event's sampling interval is known (EventTable::interval_ns).
enum class IntervalSource : uint8_t {
  kUnknown,    // the page falls back to the median gap between a thread's samples
  kPeriod,     // a fixed period of a clock event in ns (perf cpu-clock/task-clock; gperftools)
  kFrequency,  // 1 / the requested frequency (perf attr.freq)
};

struct EventTable {
  std::vector<int32_t> name;     // string id
  std::vector<uint64_t> samples;
  std::vector<double> interval_ns;             // time one sample stands for; 0 = unknown
  std::vector<IntervalSource> interval_from;   // parallel to interval_ns (may be shorter: unknown)
  size_t size() const { return name.size(); }
};

// Calls with a start and an end (XRay enter/exit pairs), per thread, for a
// time-ordered flame chart. Times are in the file's clock (XRay: TSC ticks).
// Read them through IntervalView (core/model/interval_view.h): the first
// `from_samples` intervals are not kept here but are the samples of the same
// rows (a call that exited is sample i: its thread, record, start = time, end
// = time + weight, func = its stack's leaf, depth = its stack's depth below
// the thread's root frame), 32 bytes a call less; the columns hold the rest
// (XRay: the calls that never exited), interval from_samples + k at k.
struct IntervalTable {
  size_t from_samples = 0;
  std::vector<int32_t> thread;   // thread row
  std::vector<int32_t> func;     // func row
  std::vector<uint64_t> start;
  std::vector<uint64_t> end;
  std::vector<int32_t> depth;    // 0 = outermost call on its thread
  std::vector<int32_t> record;   // record row of the entry
  size_t size() const { return from_samples + start.size(); }
  // Room for n rows in every column; may throw std::bad_alloc.
  void Reserve(size_t n) {
    thread.reserve(n);
    func.reserve(n);
    start.reserve(n);
    end.reserve(n);
    depth.reserve(n);
    record.reserve(n);
  }
};

// Source positions of frames, where a side file gave one (jitdump
// DEBUG_INFO): sparse, one entry per frame that has one.
struct FrameSourceTable {
  std::vector<int32_t> frame;    // frame row
  std::vector<int32_t> source;   // string id, "file:line"
  size_t size() const { return frame.size(); }
};

// Things that happened at one moment and explain a profile without being a
// sample (perf: MMAP, COMM, EXIT, FORK, SWITCH, LOST, THROTTLE; jitdump: code
// loads and moves; XRay: custom/typed events, wall-time markers), for the
// timeline. Times are in the same clock as the samples/intervals of the file.
struct MarkerTable {
  std::vector<uint64_t> time;
  std::vector<int32_t> kind;     // string id: "MMAP2", "COMM", "code load", "custom event", ...
  std::vector<int32_t> thread;   // thread row or kNone (process-wide or unknown)
  std::vector<int32_t> cpu;      // kNone when unknown
  std::vector<int32_t> label;    // string id: one-line description ("libc.so.6 7f..-7f..", "comm bash")
  std::vector<int32_t> record;   // record-table row (payload bytes live there)
  size_t size() const { return time.size(); }
  void Add(uint64_t t, int32_t k, int32_t th, int32_t c, int32_t l, int32_t r) {
    time.push_back(t); kind.push_back(k); thread.push_back(th); cpu.push_back(c); label.push_back(l); record.push_back(r);
  }
};

struct Profile {
  StringTable strings;
  FuncTable funcs;
  FrameTable frames;
  StackTable stacks;
  SampleTable samples;
  MappingTable mappings;
  ThreadTable threads;
  ThreadNameTable thread_names;
  EventTable events;
  IntervalTable intervals;
  FrameSourceTable frame_sources;
  MarkerTable markers;
};

// Builds the frame/func/stack tables with interning.
class StackBuilder {
 public:
  explicit StackBuilder(Profile& p) : p_(p) {}
  int32_t Func(int32_t name_id, int32_t mapping);
  int32_t Frame(uint64_t address, int32_t func, int32_t mapping);
  int32_t Stack(int32_t prefix, int32_t frame);
  // Append a func / frame the caller knows is in no row yet (e.g. the first
  // frame of a new (address, mapping) named from its mapping), without the
  // cost of indexing it now: Func/Frame index such rows when they next run.
  int32_t NewFunc(int32_t name_id, int32_t mapping);
  int32_t NewFrame(uint64_t address, int32_t func, int32_t mapping);
  // Frees the indexes once no more interning is expected; later calls rebuild
  // them from the tables.
  void ReleaseIndexes();
  size_t IndexBytes() const { return funcs_.bytes() + frames_.bytes() + stacks_.bytes(); }

 private:
  void CatchUpFuncs();
  void CatchUpFrames();
  void CatchUpStacks();
  Profile& p_;
  FlatIndex funcs_;   // (name, mapping)
  FlatIndex frames_;  // (address, func)
  FlatIndex stacks_;  // (prefix, frame)
  size_t funcs_indexed_ = 0, frames_indexed_ = 0, stacks_indexed_ = 0;  // rows below are in the index
};

}  // namespace profscope
