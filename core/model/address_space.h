// AddressSpaces: what each process had mapped where, over time. Every mapping
// is a MappingTable row (kept for good); the address space of a pid holds
// what is mapped now, a new mapping replacing the parts of older ones it
// overlaps as perf's maps__fixup_overlap() does. Kernel maps live under pid -1.
// SampleMaps finds the mapping of each frame of one sample.
#pragma once

#include <cstdint>
#include <map>
#include <unordered_map>
#include <utility>

#include "core/io/keyed_hash.h"
#include "core/model/profile.h"

namespace profscope {

inline constexpr int32_t kKernelPid = -1;

// Appends a MappingTable row [start, end) (path and build id are string ids,
// build_id kNone when unknown) and returns it.
int32_t AddMappingRow(Profile& p, int32_t pid, uint64_t start, uint64_t end, uint64_t pgoff, int32_t path,
                      int32_t build_id, uint64_t time, int32_t record);

class AddressSpaces {
 public:
  // start -> (end, mapping row) of what one process has mapped now.
  using Space = std::map<uint64_t, std::pair<uint64_t, int32_t>>;

  // A new mapping: a MappingTable row (path and build id are string ids,
  // build_id kNone when unknown), then mapped into the pid's address space.
  // A range that wraps past 2^64 is clipped to end there.
  int32_t Add(Profile& p, int32_t pid, uint64_t start, uint64_t len, uint64_t pgoff, int32_t path, int32_t build_id,
              uint64_t time, int32_t record);
  // Maps an existing MappingTable row into `pid`'s space now.
  void Map(int32_t pid, uint64_t start, uint64_t end, int32_t row);
  // The space of `pid`, nullptr when it has nothing mapped.
  const Space* Find(int32_t pid) const;
  // The mapping of `addr` in `pid` now (kernel addresses: the kernel's maps first), or kNone.
  int32_t Lookup(int32_t pid, uint64_t addr, bool kernel) const;
  // Changes of any space so far (each Map() is one).
  uint64_t epoch() const { return epoch_; }
  // The epoch of `pid`'s space's last change (0: never mapped): two lookups in
  // the same space with the same version give the same mapping.
  uint64_t Version(int32_t pid) const {
    auto it = versions_.find(pid);
    return it == versions_.end() ? 0 : it->second;
  }

 private:
  std::unordered_map<int32_t, Space, KeyedIntHash> spaces_;
  std::unordered_map<int32_t, uint64_t, KeyedIntHash> versions_;
  uint64_t epoch_ = 0;
};

// Lookups for the frames of one sample: the process's and the kernel's spaces
// found once, and the last mapping hit in each remembered (frames of one
// sample often fall in the mapping of the frame before).
class SampleMaps {
 public:
  SampleMaps(const AddressSpaces& spaces, int32_t pid);
  // The mapping of `addr`: for a user frame the process's first, then the
  // kernel's; for a kernel frame the other way round. kNone when neither.
  int32_t Find(uint64_t addr, bool kernel);

 private:
  struct Cached {
    const AddressSpaces::Space* space = nullptr;
    uint64_t start = 0, end = 0;
    int32_t row = kNone;
  };
  static int32_t Look(Cached& c, uint64_t addr);
  Cached user_, kernel_;
};

}  // namespace profscope
