// A source that gives its bytes up to `cut` though its size says all of them: a file cut (or changed, or
// failing) after it was opened, as the tests of what a decode says about it need.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/io/byte_source.h"

namespace profscope {

class CutSource : public ByteSource {
 public:
  CutSource(const std::vector<uint8_t>& bytes, size_t cut) : bytes_(bytes), cut_(cut < bytes.size() ? cut : bytes.size()) {}
  uint64_t size() const override { return bytes_.size(); }
  size_t Read(uint64_t offset, uint8_t* dst, size_t len) override {
    if (offset >= cut_) return 0;
    return MemorySource(bytes_.data(), cut_).Read(offset, dst, len);
  }

 private:
  const std::vector<uint8_t>& bytes_;
  size_t cut_;
};

}  // namespace profscope
