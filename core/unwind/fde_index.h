// A sorted index of every FDE of a .eh_frame (without .eh_frame_hdr) or a
// .debug_frame: built once by walking the section entry by entry, then
// binary searched by pc. Entries that do not parse are skipped and counted;
// a length that leaves the section ends the walk.
#pragma once

#include <cstdint>
#include <vector>

#include "core/unwind/cfi_entries.h"

namespace profscope::unwind {

class FdeIndex {
 public:
  struct Entry {
    uint64_t begin, end;  // link-time pc range
    uint64_t offset;      // the FDE's offset in the section
  };
  // Walks `s`, keeping at most `max_entries` FDEs.
  void Build(const CfiSection& s, size_t max_entries);
  // The FDE whose range holds pc.
  bool Lookup(uint64_t pc, uint64_t* fde_offset) const;
  size_t size() const { return entries_.size(); }
  size_t skipped() const { return skipped_; }
  bool truncated() const { return truncated_; }

 private:
  std::vector<Entry> entries_;
  size_t skipped_ = 0;
  bool truncated_ = false;
};

}  // namespace profscope::unwind
