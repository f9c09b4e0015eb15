#include "core/unwind/fde_index.h"

#include <algorithm>
#include <unordered_map>

#include "core/io/keyed_hash.h"

namespace profscope::unwind {

void FdeIndex::Build(const CfiSection& s, size_t max_entries) {
  entries_.clear();
  skipped_ = 0;
  truncated_ = false;
  std::unordered_map<uint64_t, Cie, KeyedIntHash> cies;
  std::unordered_map<uint64_t, bool, KeyedIntHash> bad_cies;
  uint64_t off = 0;
  while (off < s.size) {
    EntryHeader h;
    CfiError e = ReadEntryHeader(s, off, &h);
    if (e == CfiError::kTerminator) { off = h.end; continue; }
    if (e == CfiError::kTruncated || e == CfiError::kBadLength) { truncated_ = true; break; }
    if (e != CfiError::kNone) { ++skipped_; off = h.end; continue; }  // a bad CIE pointer: the length is still good
    off = h.end;
    if (h.is_cie) continue;
    auto it = cies.find(h.cie_offset);
    if (it == cies.end()) {
      if (bad_cies.count(h.cie_offset)) { ++skipped_; continue; }
      Cie c;
      if (ParseCie(s, h.cie_offset, &c) != CfiError::kNone) {
        bad_cies[h.cie_offset] = true;
        ++skipped_;
        continue;
      }
      it = cies.emplace(h.cie_offset, c).first;
    }
    Fde f;
    if (ParseFde(s, h, it->second, &f) != CfiError::kNone) { ++skipped_; continue; }
    if (f.pc_begin >= f.pc_end) continue;  // empty (e.g. a function the linker discarded)
    if (entries_.size() >= max_entries) { truncated_ = true; break; }
    entries_.push_back(Entry{f.pc_begin, f.pc_end, h.offset});
  }
  std::stable_sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) { return a.begin < b.begin; });
}

bool FdeIndex::Lookup(uint64_t pc, uint64_t* fde_offset) const {
  auto it = std::upper_bound(entries_.begin(), entries_.end(), pc, [](uint64_t v, const Entry& e) { return v < e.begin; });
  if (it == entries_.begin()) return false;
  --it;
  if (pc >= it->end) return false;
  *fde_offset = it->offset;
  return true;
}

}  // namespace profscope::unwind
