// The record table: one row per structural piece of the file (header, attr,
// section, record, payload), in file order with children after their parent.
// It drives the hex view (boundaries, kinds) and the record tree; fields are
// decoded on demand from (offset, size) so the table stays compact.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

#include "core/model/packed_column.h"

namespace profscope {

enum class RecordKind : uint8_t {
  kFileHeader = 0,
  kAttr = 1,
  kAttrIds = 2,
  kEventTypes = 3,
  kDataSection = 4,
  kRecord = 5,
  kFeatureTable = 6,
  kFeature = 7,
  kPayload = 8,   // bytes following a record, not counted in its size (AUXTRACE, TRACING_DATA)
  kNested = 9,    // record inside a decompressed container; offset is within the decompressed stream
  kUnparsed = 10, // bytes that form no record
};

// What a row is, whatever the format (the page colours rows by it): every
// decoder gives each row it adds one of these.
enum class RecordCategory : uint8_t {
  kMetadata = 0,     // headers, sections, tables, format bookkeeping (XRay NewBuffer, TSCWrap, ...)
  kSample = 1,       // a sample (perf SAMPLE, gperftools sample record, XRay function enter/exit)
  kTask = 2,         // threads and address spaces (perf MMAP/COMM/FORK/EXIT..., jitdump CODE_LOAD/CODE_MOVE)
  kKernelEvent = 3,  // other kernel records (perf LOST, SWITCH, KSYMBOL, ...)
  kUserEvent = 4,    // records a tool or program wrote (perf's own records, simpleperf's, XRay custom events)
  kPayload = 5,      // bytes that follow a record (AUXTRACE data, event payloads)
  kUnparsed = 6,     // bytes that form no record
};
// "metadata", "sample", "task/mmap", "kernel event", "user/synthesized", "payload", "unparsed".
const char* RecordCategoryName(RecordCategory c);

// Its columns are packed (core/model/packed_column.h): most are a few runs in any file (kinds, categories,
// parents, files; an XRay log's offsets and sizes too), and the rest are as narrow as their values.
struct RecordTable {
  PackedColumn<uint64_t> offset;  // absolute (kNested: within the container's decompressed bytes)
  PackedColumn<uint64_t> size;
  PackedColumn<uint32_t> type;    // per format: perf record type / feature id / attr index; XRay, gperftools and
                                  // jitdump their own numbering (see each decoder)
  PackedColumn<uint8_t> kind;     // RecordKind
  PackedColumn<uint8_t> category; // RecordCategory
  PackedColumn<int32_t> parent;   // row of the container, -1 at top level
  PackedColumn<uint8_t> file;     // which input file (0 = the main one; perf --threads data.N files follow)
  uint8_t current_file = 0;      // file index given to rows added now

  // Adds a row; throws std::bad_alloc with the table unchanged.
  int32_t Add(uint64_t off, uint64_t sz, uint32_t ty, RecordKind k, int32_t par, RecordCategory cat) {
    const size_t n = offset.size();
    try {
      offset.push_back(off);
      size.push_back(sz);
      type.push_back(ty);
      kind.push_back(static_cast<uint8_t>(k));
      category.push_back(static_cast<uint8_t>(cat));
      parent.push_back(par);
      file.push_back(current_file);
    } catch (const std::bad_alloc&) {
      Truncate(n);
      throw;
    }
    return static_cast<int32_t>(n);
  }
  // Adds k rows one after another from `off`, each `sz` bytes, of types[0 .. k - 1], the rest alike (a run
  // of a tracer's fixed-size records, a column's run appended at once); the first row's number. Throws
  // std::bad_alloc with the table unchanged.
  int32_t AddEvenly(uint64_t off, uint64_t sz, const uint32_t* types, size_t k, RecordKind kd, int32_t par, RecordCategory cat) {
    const size_t n = offset.size();
    try {
      offset.AppendRun(off, sz, k);
      size.AppendRun(sz, 0, k);
      for (size_t j = 0; j < k; ++j) type.push_back(types[j]);
      kind.AppendRun(static_cast<uint8_t>(kd), 0, k);
      category.AppendRun(static_cast<uint8_t>(cat), 0, k);
      parent.AppendRun(par, 0, k);
      file.AppendRun(current_file, 0, k);
    } catch (const std::bad_alloc&) {
      Truncate(n);
      throw;
    }
    return static_cast<int32_t>(n);
  }
  // Drops the rows from n on.
  void Truncate(size_t n) {
    offset.truncate(n);
    size.truncate(n);
    type.truncate(n);
    kind.truncate(n);
    category.truncate(n);
    parent.truncate(n);
    file.truncate(n);
  }
  size_t rows() const { return offset.size(); }
  size_t capacity() const { return offset.capacity(); }
  // The bytes the columns' values take (PackedColumn::packed_bytes).
  size_t packed_bytes() const {
    return offset.packed_bytes() + size.packed_bytes() + type.packed_bytes() + kind.packed_bytes() + category.packed_bytes() +
           parent.packed_bytes() + file.packed_bytes();
  }
  // The memory the columns hold.
  size_t bytes() const {
    return offset.bytes() + size.bytes() + type.bytes() + kind.bytes() + category.bytes() + parent.bytes() + file.bytes();
  }
  // Room for n rows in every column; may throw std::bad_alloc.
  void Reserve(size_t n) {
    offset.reserve(n);
    size.reserve(n);
    type.reserve(n);
    kind.reserve(n);
    category.reserve(n);
    parent.reserve(n);
    file.reserve(n);
  }
};

}  // namespace profscope
