#include "core/unwind/dwarf_read.h"

#include "core/unwind/dwarf_constants.h"

namespace profscope::unwind {

unsigned EncodedSize(uint8_t enc, uint8_t address_size) {
  switch (enc & 0x0f) {
    case kPeAbsptr: case kPeSigned: return address_size;
    case kPeUdata2: case kPeSdata2: return 2;
    case kPeUdata4: case kPeSdata4: return 4;
    case kPeUdata8: case kPeSdata8: return 8;
    default: return 0;
  }
}

PointerStatus ReadEncodedValue(ByteReader& r, uint8_t enc, uint8_t address_size, uint64_t* out) {
  uint64_t v = 0;
  switch (enc & 0x0f) {
    case kPeAbsptr: v = address_size == 4 ? r.U32() : r.U64(); break;
    case kPeSigned:
      v = address_size == 4 ? static_cast<uint64_t>(static_cast<int64_t>(r.I32())) : r.U64();
      break;
    case kPeUleb128: v = ReadUleb128(r); break;
    case kPeUdata2: v = r.U16(); break;
    case kPeUdata4: v = r.U32(); break;
    case kPeUdata8: v = r.U64(); break;
    case kPeSleb128: v = static_cast<uint64_t>(ReadSleb128(r)); break;
    case kPeSdata2: v = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int16_t>(r.U16()))); break;
    case kPeSdata4: v = static_cast<uint64_t>(static_cast<int64_t>(r.I32())); break;
    case kPeSdata8: v = r.U64(); break;
    default: return PointerStatus::kBadEncoding;
  }
  if (!r.ok()) return PointerStatus::kTruncated;
  *out = v;
  return PointerStatus::kOk;
}

PointerStatus ReadEncodedPointer(ByteReader& r, uint8_t enc, const PointerBases& b, uint64_t* out) {
  if (enc == kPeOmit) return PointerStatus::kOmitted;
  const uint64_t mask = b.address_size == 4 ? 0xffffffffu : ~uint64_t{0};
  const uint64_t here = b.section_address + r.pos();
  uint64_t base = 0;
  switch (enc & 0x70) {
    case kPeAbsptr: break;
    case kPePcrel: base = here; break;
    case kPeTextrel: if (!b.has_text) return PointerStatus::kBadEncoding; base = b.text; break;
    case kPeDatarel: if (!b.has_data) return PointerStatus::kBadEncoding; base = b.data; break;
    case kPeFuncrel: if (!b.has_func) return PointerStatus::kBadEncoding; base = b.func; break;
    case kPeAligned: {
      // The value sits at the next address-size boundary and is absolute.
      uint64_t a = b.address_size;
      uint64_t pad = (a - here % a) % a;
      if (!r.Skip(static_cast<size_t>(pad))) return PointerStatus::kTruncated;
      break;
    }
    default: return PointerStatus::kBadEncoding;
  }
  uint64_t v;
  PointerStatus s = ReadEncodedValue(r, (enc & 0x70) == kPeAligned ? kPeAbsptr : enc, b.address_size, &v);
  if (s != PointerStatus::kOk) return s;
  v = (v + base) & mask;
  if (enc & kPeIndirect) {
    uint64_t w;
    if (!b.read_word || !b.read_word(v, &w)) return PointerStatus::kIndirectUnreadable;
    v = w & mask;
  }
  *out = v;
  return PointerStatus::kOk;
}

}  // namespace profscope::unwind
