// The innermost row of a record table whose bytes cover a file offset: the
// structural oracle the decoder tests hold the record table to (rows in file
// order, containers before their children; nested rows, whose offsets are in a
// decompressed stream, and rows of perf --threads data files are not in the
// main file's space). A linear scan: the page's lookup is the indexed one in
// web/src/worker/record-index.js.
#pragma once

#include <cstdint>

#include "core/model/record_table.h"

namespace profscope {

inline int32_t RecordAt(const RecordTable& t, uint64_t offset) {
  int32_t best = -1;
  for (size_t i = 0; i < t.rows(); ++i) {
    if (static_cast<RecordKind>(t.kind[i]) == RecordKind::kNested || t.file[i] != 0) continue;
    if (t.offset[i] <= offset && offset - t.offset[i] < t.size[i]) best = static_cast<int32_t>(i);
  }
  return best;
}

}  // namespace profscope
