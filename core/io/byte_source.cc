#include "core/io/byte_source.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace profscope {

size_t MemorySource::Read(uint64_t offset, uint8_t* dst, size_t len) {
  if (offset >= size_) return 0;
  size_t n = static_cast<size_t>(std::min<uint64_t>(len, size_ - offset));
  std::memcpy(dst, data_ + offset, n);
  return n;
}

std::string EndedWhileRead(const std::string& name, uint64_t at, uint64_t size) {
  return name + " ended at byte offset " + std::to_string(at) + " while it was read, though it had " + std::to_string(size) +
         " bytes when it was opened (cut or changed since, or a read failed)";
}

const uint8_t* Window::Get(uint64_t offset, size_t len) {
  uint64_t total = src_.size();
  if (offset > total || len > total - offset) return nullptr;
  if (offset >= buf_start_ && offset - buf_start_ <= buf_len_ && len <= buf_len_ - (offset - buf_start_)) {
    return buf_.data() + (offset - buf_start_);
  }
  size_t want = std::max(len, chunk_);
  want = static_cast<size_t>(std::min<uint64_t>(want, total - offset));
  buf_start_ = offset;
  // A large read's room (a feature section, a jitdump record: up to the file's size) is given back at the
  // next read of a chunk, not kept for the whole decode.
  if (want <= chunk_ && buf_.size() > 2 * chunk_) std::vector<uint8_t>().swap(buf_);
  if (buf_.size() < want) buf_.resize(want);
  size_t got = src_.Read(offset, buf_.data(), want);
  if (got < want) {
    // The source ended before the size it gave (a file cut or changed since it was opened, an I/O error):
    // the rest reads as zeros, so every range inside the size stays readable (the decoders checked their
    // ranges against it), and the lowest such offset is kept: decoders stop their records there and the
    // session reports it.
    ended_at_ = std::min(ended_at_, offset + got);  // (the lowest: a later read may be of an earlier part)
    std::memset(buf_.data() + got, 0, want - got);
    got = want;
  }
  buf_len_ = got;
  return buf_.data();
}

}  // namespace profscope
