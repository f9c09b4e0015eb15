// Profile tables as columns, after the Firefox Profiler's processed format:
// a few long arrays of primitives instead of millions of objects. Every id is
// an index into its table; kNone (-1) means "none".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace profscope {

inline constexpr int32_t kNone = -1;

// An open-addressing index of table rows for interning: each slot holds a
// row id and its key's hash; keys are compared through the table's own
// columns, so the index costs 16 bytes per row (at most half full) instead of
// a node-based map's copy of the key plus allocation per entry.
class FlatIndex {
 public:
  // The row whose key matches (eq(row) true), or `new_row` after recording it.
  template <typename Eq>
  int32_t FindOrInsert(uint64_t hash, Eq eq, int32_t new_row, bool* inserted) {
    if ((count_ + 1) * 2 > slots_.size()) Grow();
    size_t mask = slots_.size() - 1;
    for (size_t i = static_cast<size_t>(hash) & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.row < 0) {
        s.row = new_row;
        s.hash = hash;
        ++count_;
        *inserted = true;
        return new_row;
      }
      if (s.hash == hash && eq(s.row)) {
        *inserted = false;
        return s.row;
      }
    }
  }
  static uint64_t Mix(uint64_t a, uint64_t b) {
    uint64_t z = a * 0x9e3779b97f4a7c15ULL ^ (b + 0x7f4a7c159e3779b9ULL + (a << 6) + (a >> 2));
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

 private:
  struct Slot {
    uint64_t hash = 0;
    int32_t row = -1;
  };
  void Grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(old.empty() ? 64 : old.size() * 2, Slot{});
    size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
      if (s.row < 0) continue;
      size_t i = static_cast<size_t>(s.hash) & mask;
      while (slots_[i].row >= 0) i = (i + 1) & mask;
      slots_[i] = s;
    }
  }
  std::vector<Slot> slots_;
  size_t count_ = 0;
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
};

// A frame: one address in one mapping.
struct FrameTable {
  std::vector<uint64_t> address;  // absolute
  std::vector<int32_t> func;      // func row
  std::vector<int32_t> mapping;   // mapping row or kNone
};

// Stacks as a prefix tree: a stack is (frame, prefix); parents come before
// children, so a stack's frames root-first are its prefix chain reversed.
struct StackTable {
  std::vector<int32_t> frame;
  std::vector<int32_t> prefix;   // kNone for a root
};

struct SampleTable {
  std::vector<uint64_t> time;    // ns in the file's clock; 0 when absent
  std::vector<int32_t> thread;   // thread row
  std::vector<int32_t> cpu;      // kNone when absent
  std::vector<int32_t> event;    // event row
  std::vector<double> weight;    // period when recorded, else 1
  std::vector<int32_t> stack;    // stack row or kNone
  std::vector<int32_t> record;   // record-table row
  size_t size() const { return time.size(); }
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

struct EventTable {
  std::vector<int32_t> name;     // string id
  std::vector<uint64_t> samples;
  size_t size() const { return name.size(); }
};

// Calls with a start and an end (XRay enter/exit pairs), per thread, for a
// time-ordered flame chart. Times are in the file's clock (XRay: TSC ticks).
struct IntervalTable {
  std::vector<int32_t> thread;   // thread row
  std::vector<int32_t> func;     // func row
  std::vector<uint64_t> start;
  std::vector<uint64_t> end;
  std::vector<int32_t> depth;    // 0 = outermost call on its thread
  std::vector<int32_t> record;   // record row of the entry
  size_t size() const { return start.size(); }
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

 private:
  Profile& p_;
  FlatIndex funcs_;   // (name, mapping)
  FlatIndex frames_;  // (address, func)
  FlatIndex stacks_;  // (prefix, frame)
};

}  // namespace profscope
