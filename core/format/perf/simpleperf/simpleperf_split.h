// simpleperf's records that are not read one by one: a record over 65535
// bytes is written as SIMPLEPERF_SPLIT pieces (each: an 8-byte header, then
// the next part of the record's bytes, its own header first) ended by an
// 8-byte SIMPLEPERF_SPLIT_END, and its reader joins the parts and reads the
// result as one record (record_file_writer.cpp WriteRecord,
// record_file_reader.cpp ReadRecord); the INIT_MAP feature holds the
// MMAP/COMM records of the processes that existed when recording started,
// read before the data section (RecordFileReader::ReadInitMapFeature).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/format/decoder.h"
#include "core/format/perf/perf_zstd_stream.h"

namespace profscope::perf {

class SplitJoiner {
 public:
  // True while pieces wait for their SPLIT_END.
  bool pending() const { return !pieces_.empty(); }
  // A record arrived: a SPLIT piece is kept, a SPLIT_END hands the joined
  // record to `sink` with the first piece's row; any other record while
  // pieces wait drops them (simpleperf wants them back to back).
  void Piece(ByteReader rec, uint32_t type, int32_t row, ByteOrder order, DecodeResult& out, RecordSink& sink);
  void Interrupted(ByteReader rec, uint32_t type, DecodeResult& out);
  // The data ended while pieces wait: they are reported and dropped.
  void Finish(DecodeResult& out);
  // INIT_MAP ended inside a split record.
  void EndOfInitMap(ByteReader sec, DecodeResult& out);

 private:
  std::vector<uint8_t> pieces_;
  int32_t first_row_ = kNone;
  uint64_t first_off_ = 0;
};

// INIT_MAP's records, handed to `sink` without a row (kNone) before the data
// section is read. Damage is reported by the feature's own decoding; here
// the records are interpreted. What they made (mappings, markers) is given
// the feature's row once it exists (AssignRow).
class InitMap {
 public:
  void Read(ByteReader sec, RecordSink& sink, SplitJoiner& split, DecodeResult& out);
  void AssignRow(int32_t feature_row, Profile& p) const;

 private:
  size_t mappings_[2] = {0, 0};
  size_t markers_[2] = {0, 0};
};

// The fields of the record a SPLIT_END row completes: the SPLIT pieces right
// before it (same container and file) joined, decoded with `decode`, and
// placed back on the pieces' bytes (a field is shown where its first byte is).
void JoinedSplitFields(Window& w, const DecodeResult& res, int32_t row, ByteOrder order,
                       const std::function<void(ByteReader joined, FieldList& fields, Diagnostics& diags)>& decode,
                       FieldList& out);

}  // namespace profscope::perf
