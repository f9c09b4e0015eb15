// What the record table is made of, for the composition dashboard, the record tree's kind filter and the
// name a row shows until its label arrives: its (kind, type)s with the first row of each, and bytes and
// counts per (kind, type). One pass over the packed columns, where the page's worker read every row of
// them through JavaScript (an XRay log has 25 M rows).
#pragma once

#include <cstdint>
#include <vector>

#include "core/model/record_table.h"

namespace profscope {

// Every (kind, type) of the table with its first row, in the order of those rows.
struct RecordTypes {
  std::vector<uint8_t> kind;
  std::vector<uint32_t> type;
  std::vector<int32_t> first;
};
RecordTypes ListRecordTypes(const RecordTable& t);

// Bytes and counts per (kind, type), from its first row on. Containers (a data section, a feature table) and
// pieces inside a record (a row whose parent is a record) are left out: their children count their bytes.
// Groups of nested rows (inside a decompressed container) are not file bytes. Sorted by bytes, then count,
// both descending (ties in first-row order).
struct CompositionGroup {
  uint8_t kind;
  uint32_t type;
  uint64_t count;
  uint64_t bytes;
  int32_t first;
};
std::vector<CompositionGroup> RecordComposition(const RecordTable& t);

}  // namespace profscope
