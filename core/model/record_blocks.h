// The record table read in blocks of rows: the columns asked for, each decoded a run or a plain stretch at a
// time (PackedColumn::Read) into arrays, not row by row. What the passes over every row use (an XRay log's
// record table has 25 M rows): core/analysis/record_composition.cc, record_index.cc.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/model/record_table.h"

namespace profscope {

struct RecordBlock {
  static constexpr size_t kRows = 4096;
  // Which columns a pass reads (or-ed).
  enum Columns : unsigned { kKind = 1, kType = 2, kSize = 4, kParent = 8, kFile = 16, kOffset = 32 };
  uint8_t kind[kRows];
  uint32_t type[kRows];
  uint64_t size[kRows];
  int32_t parent[kRows];
  uint8_t file[kRows];
  uint64_t offset[kRows];
};

// f(from, n, block) for rows [from, from + n), a block at a time, with the columns in `columns` read.
template <typename F>
void ForRecordBlocks(const RecordTable& t, unsigned columns, F f) {
  auto b = std::make_unique<RecordBlock>();
  for (size_t from = 0, n = t.rows(); from < n; from += RecordBlock::kRows) {
    const size_t k = std::min(RecordBlock::kRows, n - from);
    if (columns & RecordBlock::kKind) t.kind.Read(from, k, b->kind);
    if (columns & RecordBlock::kType) t.type.Read(from, k, b->type);
    if (columns & RecordBlock::kSize) t.size.Read(from, k, b->size);
    if (columns & RecordBlock::kParent) t.parent.Read(from, k, b->parent);
    if (columns & RecordBlock::kFile) t.file.Read(from, k, b->file);
    if (columns & RecordBlock::kOffset) t.offset.Read(from, k, b->offset);
    f(from, k, static_cast<const RecordBlock&>(*b));
  }
}

}  // namespace profscope
