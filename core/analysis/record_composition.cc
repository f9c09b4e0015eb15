#include "core/analysis/record_composition.h"

#include <algorithm>
#include <memory>
#include <unordered_map>

namespace profscope {
namespace {

uint64_t KeyOf(uint8_t kind, uint32_t type) { return static_cast<uint64_t>(kind) << 32 | type; }

// The rows in blocks: f(from, n) with the block's kinds and types (and sizes and parents, when asked) read
// into arrays, each column decoded a run or a plain stretch at a time (PackedColumn::Read), not row by row.
constexpr size_t kRows = 4096;
struct Block {
  uint8_t kind[kRows];
  uint32_t type[kRows];
  uint64_t size[kRows];
  int32_t parent[kRows];
};
template <typename F>
void ForBlocks(const RecordTable& t, bool sizes, F f) {
  auto b = std::make_unique<Block>();
  for (size_t from = 0, n = t.rows(); from < n; from += kRows) {
    const size_t k = std::min(kRows, n - from);
    t.kind.Read(from, k, b->kind);
    t.type.Read(from, k, b->type);
    if (sizes) {
      t.size.Read(from, k, b->size);
      t.parent.Read(from, k, b->parent);
    }
    f(from, k, *b);
  }
}

}  // namespace

RecordTypes ListRecordTypes(const RecordTable& t) {
  RecordTypes out;
  std::unordered_map<uint64_t, size_t> seen;
  uint64_t last = UINT64_MAX;  // (rows come in runs of one type: one lookup a run)
  ForBlocks(t, false, [&](size_t from, size_t n, const Block& b) {
    for (size_t i = 0; i < n; ++i) {
      const uint64_t key = KeyOf(b.kind[i], b.type[i]);
      if (key == last) continue;
      last = key;
      if (!seen.emplace(key, out.first.size()).second) continue;
      out.kind.push_back(b.kind[i]);
      out.type.push_back(b.type[i]);
      out.first.push_back(static_cast<int32_t>(from + i));
    }
  });
  return out;
}

std::vector<CompositionGroup> RecordComposition(const RecordTable& t) {
  std::vector<CompositionGroup> groups;
  std::unordered_map<uint64_t, size_t> at;
  uint64_t last = UINT64_MAX;
  size_t g = 0;
  int32_t last_parent = -2;  // the parent looked at last, and its kind (most rows share theirs)
  int kind_of_parent = -1;
  const size_t rows = t.rows();
  ForBlocks(t, true, [&](size_t from, size_t n, const Block& b) {
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
        auto [it, added] = at.emplace(key, groups.size());
        if (added) groups.push_back(CompositionGroup{k, b.type[i], 0, 0, static_cast<int32_t>(from + i)});
        g = it->second;
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
