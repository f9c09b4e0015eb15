// Whole callchains seen before -> their stack row (PerfStacks' hot path).
//
// A key is two head words (what the entries resolve in: the versions of the
// process's and the kernel's address spaces, and the cpumode) and the raw
// callchain entries. Open addressing over 16-byte slots that hold what a probe
// compares (32 bits of the hash and the number of entries) and the answer, so
// a hit reads one slot and its key's words.
//
// Bounded in time and memory, whatever the file holds:
// - a probe looks at most kMaxProbe slots. Callchains made to share a hash
//   (the hash is not keyed) are then not interned and are walked frame by
//   frame, as a cache miss is: lookups never turn quadratic;
// - the stored keys are emptied, their room kept, once they hold kWords
//   (24 MiB: a recording whose callchains rarely repeat then costs a probe
//   and a copy of each key more, and memory stays flat).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace profscope::perf {

class CallchainTable {
 public:
  static constexpr int32_t kNone = -1;
  static constexpr size_t kMaxProbe = 64;
  static constexpr size_t kWords = (24u << 20) / 8;

  // The hash of key (head, v[0..n)): the entries read once, in four lanes.
  static uint64_t Hash(const uint64_t head[2], const uint64_t* v, size_t n);

  // Where key (head, v[0..n)) with hash `h` is. n > 0.
  struct Found {
    bool hit = false;       // it is there, with `stack`
    int32_t stack = kNone;  // (a hit's answer; kNone: walk its frames)
    size_t slot = kNoSlot;  // a miss: the free slot for Add(); kNoSlot: past the probe bound, not interned
  };
  static constexpr size_t kNoSlot = ~size_t{0};
  // Makes room first (grows the slots, or empties the keys at their bound),
  // so a miss's slot stays valid until Add().
  Found Find(uint64_t h, const uint64_t head[2], const uint64_t* v, size_t n);
  // Stores the key of the last Find() (a miss with a slot) and its answer.
  void Add(const Found& f, uint64_t h, const uint64_t head[2], const uint64_t* v, size_t n, int32_t stack);

  void Empty();  // forgets every key, keeping their room
  void Clear();  // frees everything
  size_t size() const { return count_; }
  size_t words() const { return words_.size(); }

 private:
  struct Slot {
    uint32_t tag = 0;
    int32_t stack = kNone;
    uint32_t at = 0;    // its key in words_ (the 2 head words, then the entries)
    uint32_t size = 0;  // its number of entries (never 0); 0: an empty slot
  };
  size_t Home(uint32_t tag) const { return static_cast<size_t>((static_cast<uint64_t>(tag) * slots_.size()) >> 32); }
  bool Same(const Slot& c, const uint64_t head[2], const uint64_t* v, size_t n) const;
  void Grow();

  std::vector<Slot> slots_;
  size_t count_ = 0;
  std::vector<uint64_t> words_;
};

}  // namespace profscope::perf
