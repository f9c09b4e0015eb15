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
// One container's output is capped at the HEADER_COMPRESSED feature's
// mmap_len, the buffer perf decompresses it into; output past it is refused
// with a diagnostic, and the stream, now out of step, restarts at the next
// container. A frame's declared content size is never used. The output is
// cut into records as it is produced (a chunk at a time), never held whole.
//
// Nested records are not kept: their field view re-decompresses the stream
// (RowBytes replays every container of the file up to the row's).
#pragma once

#include <cstdint>
#include <functional>
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
  // A record cut from the stream: the container it starts in, its offset in
  // that container's decompressed bytes, its bytes. Returning false stops
  // the expansion (the bytes not yet cut are dropped).
  using NestedFn = std::function<bool(int32_t container, uint64_t offset, ByteReader rec)>;

  // Output cap of one container when the file has no HEADER_COMPRESSED mmap_len.
  static constexpr uint64_t kDefaultCap = 64ull << 20;

  ZstdStream() = default;
  ~ZstdStream();
  ZstdStream(const ZstdStream&) = delete;
  ZstdStream& operator=(const ZstdStream&) = delete;

  // Decompresses the data of container `row` (continuing the stream) into
  // at most `mmap_len` bytes (0 = unknown: kDefaultCap) and hands each record
  // it completes to `fn`; bytes of a record that goes on in the next
  // container are carried. Problems are reported in `diags` at the
  // container's offset `record_at`. Returns false when `fn` stopped it.
  bool Expand(const CompressedRecord& z, uint64_t record_at, int32_t row, uint64_t mmap_len, ByteOrder order,
              Diagnostics& diags, const NestedFn& fn);
  // A new writer's stream (each data file of perf record --threads has its own).
  void Reset();
  // Sees every decompressed byte as it is produced, with the container it came from
  // (ContainerBytes shows a container's decompressed stream with it).
  using OutputFn = std::function<void(int32_t container, const uint8_t* bytes, size_t n)>;
  void SetOutputTap(OutputFn tap) { tap_ = std::move(tap); }

 private:
  // Cuts the complete records at the front of buf_; false when fn stopped.
  bool Cut(int32_t container, uint64_t record_at, ByteOrder order, Diagnostics& diags, const NestedFn& fn);

  void* dctx_ = nullptr;  // ZSTD_DCtx*
  bool restart_ = false;  // the stream went out of step: a fresh context at the next container
  std::vector<uint8_t> buf_;  // decompressed bytes not yet cut (buf_[pos_..])
  size_t pos_ = 0;
  int32_t owner_ = kNone;  // container of buf_[pos_]
  uint64_t base_ = 0;      // offset of buf_[pos_] in its owner's decompressed bytes
  size_t owned_ = 0;       // bytes from buf_[pos_] that belong to owner_ when it is a previous container
  bool skip_ = false;      // the rest of this container's output is dropped (a bad record size)
  OutputFn tap_;
};

// The bytes of any row of a perf.data record table (header included), read
// again through `w`: plain rows from the file (at most 64 MiB), nested rows
// by replaying the zstd stream of their file up to their container with the
// same cap (`mmap_len`, HEADER_COMPRESSED's) as the decode.
// `keep` holds the bytes; an empty reader when they cannot be had.
ByteReader RowBytes(Window& w, const DecodeResult& res, int32_t row, ByteOrder order, std::vector<uint8_t>& keep,
                    uint64_t mmap_len = 0);

// The decompressed bytes of COMPRESSED container `row` (what its nested rows'
// offsets count in: offset 0 = its first output byte, which may end a record
// carried from the previous container), by replaying its file's stream up to
// it with the decode's cap. False (and `out` empty) when the row is no
// container or nothing decompresses.
bool ContainerBytes(Window& w, const DecodeResult& res, int32_t row, ByteOrder order, std::vector<uint8_t>& out,
                    uint64_t mmap_len = 0);

}  // namespace profscope::perf
