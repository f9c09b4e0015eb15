#include "core/io/leb128.h"

namespace profscope {

uint64_t ReadUleb128(ByteReader& r) {
  uint64_t v = 0;
  for (unsigned i = 0, shift = 0; i < 10; ++i, shift += 7) {
    uint8_t b = r.U8();
    if (!r.ok()) return 0;
    if (shift < 64) v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) return v;
  }
  r.Fail();
  return 0;
}

int64_t ReadSleb128(ByteReader& r) {
  uint64_t v = 0;
  unsigned shift = 0;
  for (unsigned i = 0; i < 10; ++i) {
    uint8_t b = r.U8();
    if (!r.ok()) return 0;
    if (shift < 64) v |= static_cast<uint64_t>(b & 0x7f) << shift;
    shift += 7;
    if (!(b & 0x80)) {
      if (shift < 64 && (b & 0x40)) v |= ~uint64_t{0} << shift;
      return static_cast<int64_t>(v);
    }
  }
  r.Fail();
  return 0;
}

}  // namespace profscope
