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

// Interned strings: dense ids.
class StringTable {
 public:
  int32_t Intern(std::string_view s);
  const std::string& Get(int32_t id) const { return strings_[static_cast<size_t>(id)]; }
  size_t size() const { return strings_.size(); }
  const std::vector<std::string>& all() const { return strings_; }

 private:
  std::vector<std::string> strings_;
  std::unordered_map<std::string, int32_t> index_;
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
};

// Builds the frame/func/stack tables with interning.
class StackBuilder {
 public:
  explicit StackBuilder(Profile& p) : p_(p) {}
  int32_t Func(int32_t name_id, int32_t mapping);
  int32_t Frame(uint64_t address, int32_t func, int32_t mapping);
  int32_t Stack(int32_t prefix, int32_t frame);

 private:
  struct PairHash {
    size_t operator()(const std::pair<int64_t, int64_t>& k) const {
      // unsigned: same bits as before, without signed-overflow UB on high addresses
      return std::hash<uint64_t>()(static_cast<uint64_t>(k.first) * 1000003u ^
                                   static_cast<uint64_t>(k.second));
    }
  };
  Profile& p_;
  std::unordered_map<std::pair<int64_t, int64_t>, int32_t, PairHash> funcs_;
  std::unordered_map<std::pair<int64_t, int64_t>, int32_t, PairHash> frames_;
  std::unordered_map<std::pair<int64_t, int64_t>, int32_t, PairHash> stacks_;
};

}  // namespace profscope
