// Decompressed bytes of a side file, pulled in order: the tar reader reads a
// perf archive (`perf archive` writes perf.data.tar.bz2) through one of these
// whatever its compression, recognised by content (magic bytes), never by
// name. Each codec is the reference library itself (natively Debian's -dev
// package; in WASM the same library built from Debian's source package):
// gzip (zlib), bzip2 (libbz2), xz (liblzma), zstd (libzstd).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "core/io/byte_source.h"

namespace profscope::archive {

enum class Compression : uint8_t { kNone, kGzip, kBzip2, kXz, kZstd };

// By the first bytes: 1f 8b (gzip), "BZh1".."BZh9" (bzip2), fd "7zXZ" 00 (xz),
// 28 b5 2f fd (zstd); anything else is kNone.
Compression DetectCompression(const uint8_t* head, size_t n);
const char* CompressionName(Compression c);

class ByteStream {
 public:
  virtual ~ByteStream() = default;
  // Copies up to n decompressed bytes into dst; fewer only at the end of the
  // data or after an error, then 0.
  virtual size_t Read(uint8_t* dst, size_t n) = 0;
  // Empty while the stream is whole; else what went wrong, and the offset in
  // the (compressed) source where it was noticed.
  const std::string& error() const { return error_; }
  uint64_t error_offset() const { return error_offset_; }
  // Decompressed bytes handed out so far.
  uint64_t produced() const { return produced_; }

 protected:
  void SetError(std::string msg, uint64_t at) {
    if (error_.empty()) { error_ = std::move(msg); error_offset_ = at; }
  }
  std::string error_;
  uint64_t error_offset_ = 0;
  uint64_t produced_ = 0;
};

// A stream over the whole of `w` decompressed with `c` (kNone: the bytes as
// they are). A codec this build lacks gives a stream whose error says so.
// Concatenated members/frames (pbzip2, pigz, zstd -T) are read one after another.
std::unique_ptr<ByteStream> OpenStream(Window& w, Compression c);

}  // namespace profscope::archive
