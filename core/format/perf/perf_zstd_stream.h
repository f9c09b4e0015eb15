// perf record -z: the records inside PERF_RECORD_COMPRESSED(2) containers.
//
// perf keeps one zstd stream per writer for the whole session (it flushes,
// never ends frames, between COMPRESSED records), so decompression state
// carries over from one container to the next, and a record may start in
// one container's output and end in the next one's (perf keeps the rest of a
// decompressed buffer for the next; perf's session.c perf_session__process_compressed_event
// / decomp_*). Such a record belongs to the container where it starts, at its
// offset there, as `perf report -D` lists it.
//
// Nested records are not kept: their field view re-decompresses the stream
// (RowBytes replays every container of the file up to the row's).
#pragma once

#include <cstdint>
#include <vector>

#include "core/format/decoder.h"
#include "core/format/perf/perf_records.h"

namespace profscope::perf {

// Where a cut record goes: its row and its bytes (header included).
class RecordSink {
 public:
  virtual ~RecordSink() = default;
  virtual void Record(int32_t row, ByteReader rec) = 0;
};

class ZstdStream {
 public:
  ZstdStream() = default;
  ~ZstdStream();
  ZstdStream(const ZstdStream&) = delete;
  ZstdStream& operator=(const ZstdStream&) = delete;

  // Decompresses the data of container `row` (continuing the stream), adds a
  // kNested row for each record it completes and hands it to `sink`; bytes
  // of a record that goes on in the next container are carried.
  void Expand(const CompressedRecord& z, uint64_t data_at, int32_t row, ByteOrder order, DecodeResult& out,
              RecordSink& sink);
  // A new writer's stream (each data file of perf record --threads has its own).
  void Reset();

  // Decompresses `size` bytes with `dctx` (a ZSTD_DCtx*), at most 1 GiB; a
  // failure is reported at `at` when diags is set.
  static std::vector<uint8_t> Decompress(void* dctx, const uint8_t* data, size_t size, uint64_t at, Diagnostics* diags);

 private:
  void* dctx_ = nullptr;  // ZSTD_DCtx*
  std::vector<uint8_t> carry_;
  int32_t carry_owner_ = kNone;
  uint64_t carry_base_ = 0;  // offset of carry_[0] within its owner's decompressed bytes
};

// The bytes of any row of a perf.data record table (header included), read
// again through `w`: plain rows from the file (at most 64 MiB), nested rows
// by replaying the zstd stream of their file up to their container.
// `keep` holds the bytes; an empty reader when they cannot be had.
ByteReader RowBytes(Window& w, const DecodeResult& res, int32_t row, ByteOrder order, std::vector<uint8_t>& keep);

}  // namespace profscope::perf
