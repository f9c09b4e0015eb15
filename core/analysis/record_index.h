// The record table's indexes for the record tree and the hex view: each row's children, and the rows that
// cover a byte of the main file. Made in the core in a few passes over the packed columns, where the page's
// worker read every row through JavaScript (an XRay log has 25 M rows: 1.2 s of its record tree).
//
// Children: slot s's children (a row's, or the top level's at slot n = rows) are kids[kids_start[s] ..
// kids_start[s + 1]), in row order. Leaves: the main file's rows (not nested, file 0) without such children,
// by offset (then longest first, then row); containers: the main file's rows with main-file children.
// web/src/lib/records.js reads them (kidPos, findRowAt, leavesInRange).
#pragma once

#include <cstdint>
#include <vector>

#include "core/model/packed_column.h"
#include "core/model/record_table.h"

namespace profscope {

struct RecordIndex {
  PackedColumn<int32_t> kids_start;  // rows + 2 values; a few runs in nearly every file
  PackedColumn<int32_t> kids;        // the rows grouped by parent slot (runs of rows counting up)
  PackedColumn<int32_t> leaf_order;
  // The running max of the leaves' ends in leaf order; empty when no end is below one before it (records
  // one after another: nearly every file), where each leaf's own end is that max.
  std::vector<double> leaf_max_end;
  std::vector<int32_t> containers;  // in row order
};

// The children lists are made run by run (each parent's children are a run or a few), or as a counting sort
// (8 bytes a row while made) when they take more runs than a twelfth of the rows.
RecordIndex BuildRecordIndex(const RecordTable& t);

}  // namespace profscope
