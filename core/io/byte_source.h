// Where the bytes come from. The decoder never needs the whole file in memory:
// it pulls byte ranges through a ByteSource (a native file, a JS Blob read with
// FileReaderSync in the worker, or memory in tests) via a sliding Window.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace profscope {

// "NAME ended at byte offset AT while it was read, though it had SIZE bytes when it was opened (cut or changed
// since, or a read failed)": what is said of a file that read short (the session's file_changed, a side
// file or binary read whole); the caller adds what that means for what it read.
std::string EndedWhileRead(const std::string& name, uint64_t at, uint64_t size);

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  virtual uint64_t size() const = 0;
  // Copies [offset, offset+len) into dst; returns the number of bytes copied
  // (fewer only at the end of the source or on an I/O error).
  virtual size_t Read(uint64_t offset, uint8_t* dst, size_t len) = 0;
};

class MemorySource : public ByteSource {
 public:
  MemorySource(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  explicit MemorySource(const std::vector<uint8_t>& v) : data_(v.data()), size_(v.size()) {}
  uint64_t size() const override { return size_; }
  size_t Read(uint64_t offset, uint8_t* dst, size_t len) override;

 private:
  const uint8_t* data_;
  size_t size_;
};

// Bytes it owns (a file read whole, the running vdso).
class OwnedSource : public ByteSource {
 public:
  explicit OwnedSource(std::vector<uint8_t> bytes) : bytes_(std::move(bytes)) {}
  uint64_t size() const override { return bytes_.size(); }
  size_t Read(uint64_t offset, uint8_t* dst, size_t len) override { return MemorySource(bytes_).Read(offset, dst, len); }

 private:
  std::vector<uint8_t> bytes_;
};

// A read-through window over a ByteSource: Get(offset, len) returns a pointer
// to len bytes valid until the next call, reading ahead in chunks copied into
// one buffer that is reused. A range inside the source's size is always given:
// bytes the source could not read after all (a file cut after it was opened)
// read as zeros, and ended_at() says where (the lowest such offset). (Mapping a native file's pages in instead was
// tried: on a paravirtual VM the first touch of each mapped page cost more than
// the kernel's copy, which reads the page cache through its own mapping; see
// docs/PERFORMANCE.md, seventeenth stop.)
class Window {
 public:
  explicit Window(ByteSource& src, size_t chunk = 4u << 20) : src_(src), chunk_(chunk) {}
  // nullptr when [offset, offset+len) is not entirely inside the source.
  const uint8_t* Get(uint64_t offset, size_t len);
  // Bytes available from offset (clipped to the source end).
  uint64_t Available(uint64_t offset) const { return offset < src_.size() ? src_.size() - offset : 0; }
  uint64_t size() const { return src_.size(); }
  ByteSource& source() { return src_; }
  // The lowest offset where the source gave fewer bytes than its size promised (what followed was read as
  // zeros), or kNotEnded.
  static constexpr uint64_t kNotEnded = ~uint64_t{0};
  uint64_t ended_at() const { return ended_at_; }
  // Gives back the bytes read ahead: the next read reads the source as it is then (after a decode: a
  // record's fields opened later read the file, and say when it was cut since).
  void Forget() {
    std::vector<uint8_t>().swap(buf_);
    buf_start_ = 0;
    buf_len_ = 0;
  }
  // True when the source ended at or before `offset`: a decoder stops there rather than read zeros as records.
  bool Ended(uint64_t offset) const { return offset >= ended_at_; }

 private:
  ByteSource& src_;
  size_t chunk_;
  std::vector<uint8_t> buf_;
  uint64_t buf_start_ = 0;
  size_t buf_len_ = 0;
  uint64_t ended_at_ = kNotEnded;
};

}  // namespace profscope
