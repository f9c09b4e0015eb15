#include "core/analysis/record_composition.h"

#include <algorithm>
#include <array>
#include <unordered_map>

#include "core/io/keyed_hash.h"
#include "core/model/record_blocks.h"

namespace profscope {
namespace {

uint64_t KeyOf(uint8_t kind, uint32_t type) { return static_cast<uint64_t>(kind) << 32 | type; }

using Block = RecordBlock;
constexpr unsigned kNames = RecordBlock::kKind | RecordBlock::kType;

// Each (kind, type) key's number (the order they were first seen in), looked up in a small table of the keys
// met lately before the map of all of them: a file's rows take few types, which alternate (an XRay log's
// enters and exits), so nearly every row costs an array look-up, not a hash map's.
class KeyNumbers {
 public:
  KeyNumbers() { key_.fill(UINT64_MAX); }
  // The key's number; `added` says it is new (numbered size() - 1).
  size_t Of(uint64_t key, bool* added) {
    const size_t slot = static_cast<size_t>((key * 0x9e3779b97f4a7c15ULL) >> 56);
    *added = false;
    if (key_[slot] == key) return number_[slot];
    auto [it, fresh] = all_.emplace(key, all_.size());
    *added = fresh;
    key_[slot] = key;
    number_[slot] = it->second;
    return it->second;
  }

 private:
  std::array<uint64_t, 256> key_;
  std::array<size_t, 256> number_{};
  std::unordered_map<uint64_t, size_t, KeyedIntHash> all_;
};

}  // namespace

RecordTypes ListRecordTypes(const RecordTable& t) {
  RecordTypes out;
  KeyNumbers seen;
  uint64_t last = UINT64_MAX;  // (rows come in runs of one type: one lookup a run)
  ForRecordBlocks(t, kNames, [&](size_t from, size_t n, const Block& b) {
    for (size_t i = 0; i < n; ++i) {
      const uint64_t key = KeyOf(b.kind[i], b.type[i]);
      if (key == last) continue;
      last = key;
      bool added;
      seen.Of(key, &added);
      if (!added) continue;
      out.kind.push_back(b.kind[i]);
      out.type.push_back(b.type[i]);
      out.first.push_back(static_cast<int32_t>(from + i));
    }
  });
  return out;
}

std::vector<CompositionGroup> RecordComposition(const RecordTable& t) {
  std::vector<CompositionGroup> groups;
  KeyNumbers at;
  uint64_t last = UINT64_MAX;
  size_t g = 0;
  int32_t last_parent = -2;  // the parent looked at last, and its kind (most rows share theirs)
  int kind_of_parent = -1;
  const size_t rows = t.rows();
  ForRecordBlocks(t, kNames | RecordBlock::kSize | RecordBlock::kParent, [&](size_t from, size_t n, const Block& b) {
    for (size_t i = 0; i < n; ++i) {
      const uint8_t k = b.kind[i];
      if (k == static_cast<uint8_t>(RecordKind::kDataSection) || k == static_cast<uint8_t>(RecordKind::kFeatureTable)) continue;
      if (k == static_cast<uint8_t>(RecordKind::kRecord)) {
        const int32_t p = b.parent[i];
        if (p != last_parent) {
          last_parent = p;
          kind_of_parent = p >= 0 && static_cast<size_t>(p) < rows ? t.kind[static_cast<size_t>(p)] : -1;
        }
        if (kind_of_parent == static_cast<int>(RecordKind::kRecord)) continue;
      }
      const uint64_t key = KeyOf(k, b.type[i]);
      if (key != last) {
        last = key;
        bool added;
        g = at.Of(key, &added);
        if (added) groups.push_back(CompositionGroup{k, b.type[i], 0, 0, static_cast<int32_t>(from + i)});
      }
      ++groups[g].count;
      groups[g].bytes += b.size[i];
    }
  });
  std::stable_sort(groups.begin(), groups.end(), [](const CompositionGroup& a, const CompositionGroup& b) {
    return a.bytes != b.bytes ? a.bytes > b.bytes : a.count > b.count;
  });
  return groups;
}

}  // namespace profscope
