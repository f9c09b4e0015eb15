// Writes jitdump bytes in either byte order, for the jitdump decoder's and
// the JIT unwinder's tests.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/format/jitdump/jitdump_format.h"

namespace profscope::jitdump::test {

class JitWriter {
 public:
  explicit JitWriter(bool big) : big_(big) {}
  void U32(uint32_t v) { for (int i = 0; i < 4; ++i) b_.push_back(static_cast<uint8_t>(big_ ? v >> (24 - 8 * i) : v >> (8 * i))); }
  void U64(uint64_t v) { for (int i = 0; i < 8; ++i) b_.push_back(static_cast<uint8_t>(big_ ? v >> (56 - 8 * i) : v >> (8 * i))); }
  void Str(const std::string& s) { b_.insert(b_.end(), s.begin(), s.end()); b_.push_back(0); }
  void Bytes(size_t n, uint8_t v) { b_.insert(b_.end(), n, v); }
  void Header(uint32_t version, uint32_t pid, uint64_t flags = 0) {
    U32(kMagic); U32(version); U32(40); U32(62); U32(0xdeadbeef); U32(pid); U64(123456789); U64(flags);
  }
  // Starts a record; End() patches total_size (plus `pad` bytes of padding).
  void Begin(uint32_t id, uint64_t ts) { start_ = b_.size(); U32(id); U32(0); U64(ts); }
  void End(size_t pad = 0) {
    Bytes(pad, 0);
    uint32_t total = static_cast<uint32_t>(b_.size() - start_);
    size_t at = start_ + 4;
    for (int i = 0; i < 4; ++i) b_[at + i] = static_cast<uint8_t>(big_ ? total >> (24 - 8 * i) : total >> (8 * i));
  }
  void CodeLoad(uint64_t ts, uint32_t pid, uint64_t addr, uint64_t size, uint64_t index, const std::string& name) {
    Begin(profscope::jitdump::kCodeLoad, ts);
    U32(pid); U32(pid + 1); U64(addr); U64(addr); U64(size); U64(index); Str(name); Bytes(size, 0xcc);
    End();
  }
  std::vector<uint8_t>& bytes() { return b_; }
  size_t size() const { return b_.size(); }

 private:
  bool big_;
  std::vector<uint8_t> b_;
  size_t start_ = 0;
};

}  // namespace profscope::jitdump::test
