#include "core/unwind/cfi_entries.h"

#include <cstring>

#include "core/unwind/dwarf_constants.h"

namespace profscope::unwind {

namespace {

// A reader over the section that ends where `end` says (an entry's end), with
// positions counted from the section start, so pcrel pointers know where they are.
ByteReader EntryReader(const CfiSection& s, uint64_t end) {
  return ByteReader(s.data, static_cast<size_t>(end), 0, s.order);
}

CfiError FromPointer(PointerStatus p) {
  switch (p) {
    case PointerStatus::kOk: return CfiError::kNone;
    case PointerStatus::kTruncated: return CfiError::kTruncated;
    default: return CfiError::kBadEncoding;
  }
}

PointerBases Bases(const CfiSection& s, uint8_t address_size) {
  PointerBases b;
  b.section_address = s.address;
  b.text = s.text_base;
  b.has_text = s.has_text_base;
  b.data = s.data_base;
  b.has_data = s.has_data_base;
  b.address_size = address_size;
  b.read_word = s.read_word;
  return b;
}

}  // namespace

const char* CfiErrorName(CfiError e) {
  switch (e) {
    case CfiError::kNone: return "no error";
    case CfiError::kTruncated: return "CFI entry truncated";
    case CfiError::kBadLength: return "CFI entry length beyond its section";
    case CfiError::kBadCiePointer: return "FDE's CIE pointer outside the section";
    case CfiError::kNotACie: return "FDE's CIE pointer does not lead to a CIE";
    case CfiError::kBadVersion: return "unknown CIE version";
    case CfiError::kBadAugmentation: return "CIE augmentation cannot be skipped";
    case CfiError::kBadEncoding: return "unknown pointer encoding";
    case CfiError::kBadAddressSize: return "unsupported CIE address or segment size";
    case CfiError::kBadRegister: return "register number out of range";
    case CfiError::kBadOpcode: return "unknown CFA instruction";
    case CfiError::kStateStack: return "remember/restore_state out of balance or too deep";
    case CfiError::kTooLong: return "CFA program too long";
    case CfiError::kTerminator: return "zero terminator";
  }
  return "?";
}

CfiError ReadEntryHeader(const CfiSection& s, uint64_t offset, EntryHeader* out) {
  *out = EntryHeader{};
  out->offset = offset;
  if (offset >= s.size) return CfiError::kTruncated;
  ByteReader r(s.data, s.size, 0, s.order);
  r.Seek(static_cast<size_t>(offset));
  uint64_t len = r.U32();
  if (!r.ok()) return CfiError::kTruncated;
  if (len == 0) {
    out->terminator = true;
    out->end = offset + 4;
    return CfiError::kTerminator;
  }
  if (len == 0xffffffffu) {
    len = r.U64();
    out->dwarf64 = true;
    if (!r.ok()) return CfiError::kTruncated;
  } else if (len >= 0xfffffff0u) {
    return CfiError::kBadLength;
  }
  const uint64_t content = r.pos();
  if (len > r.remaining()) return CfiError::kBadLength;
  out->end = content + len;
  const unsigned id_size = out->dwarf64 ? 8 : 4;
  if (len < id_size) return CfiError::kTruncated;
  const uint64_t id_at = r.pos();
  uint64_t id = out->dwarf64 ? r.U64() : r.U32();
  out->body = r.pos();
  if (s.eh_frame) {
    // .eh_frame: 0 marks a CIE; otherwise the distance back from this field to the CIE.
    if (id == 0) {
      out->is_cie = true;
    } else {
      if (id > id_at) return CfiError::kBadCiePointer;
      out->cie_offset = id_at - id;
    }
  } else {
    const uint64_t cie_id = out->dwarf64 ? ~uint64_t{0} : 0xffffffffu;
    if (id == cie_id) {
      out->is_cie = true;
    } else {
      if (id >= s.size) return CfiError::kBadCiePointer;
      out->cie_offset = id;
    }
  }
  return CfiError::kNone;
}

CfiError ParseCie(const CfiSection& s, uint64_t offset, Cie* out) {
  EntryHeader h;
  CfiError e = ReadEntryHeader(s, offset, &h);
  if (e == CfiError::kTerminator) return CfiError::kNotACie;
  if (e != CfiError::kNone) return e;
  if (!h.is_cie) return CfiError::kNotACie;
  Cie c;
  c.offset = offset;
  c.address_size = s.address_size;
  ByteReader r = EntryReader(s, h.end);
  r.Seek(static_cast<size_t>(h.body));
  c.version = r.U8();
  if (!r.ok()) return CfiError::kTruncated;
  if (c.version != 1 && c.version != 3 && c.version != 4) return CfiError::kBadVersion;
  std::string aug = r.CString();
  if (!r.ok()) return CfiError::kTruncated;
  size_t a = 0;
  if (aug.size() >= 2 && aug[0] == 'e' && aug[1] == 'h') {
    // Old GCC: the address of the exception table follows.
    if (!r.Skip(s.address_size)) return CfiError::kTruncated;
    a = 2;
  }
  if (c.version >= 4) {
    c.address_size = r.U8();
    c.segment_size = r.U8();
    if (!r.ok()) return CfiError::kTruncated;
    if ((c.address_size != 4 && c.address_size != 8) || c.segment_size > 8) return CfiError::kBadAddressSize;
  }
  c.code_align = ReadUleb128(r);
  c.data_align = ReadSleb128(r);
  c.ra_register = c.version == 1 ? r.U8() : ReadUleb128(r);
  if (!r.ok()) return CfiError::kTruncated;
  if (a < aug.size() && aug[a] == 'z') {
    c.has_z = true;
    uint64_t len = ReadUleb128(r);
    if (!r.ok() || len > r.remaining()) return CfiError::kTruncated;
    const size_t data_end = r.pos() + static_cast<size_t>(len);
    PointerBases b = Bases(s, c.address_size);
    b.read_word = nullptr;  // a personality routine's address is not needed
    for (size_t i = a + 1; i < aug.size(); ++i) {
      char ch = aug[i];
      if (ch == 'L') {
        c.lsda_encoding = r.U8();
      } else if (ch == 'R') {
        c.fde_encoding = r.U8();
      } else if (ch == 'P') {
        uint8_t enc = r.U8();
        uint64_t ignored;
        PointerStatus p = ReadEncodedPointer(r, static_cast<uint8_t>(enc & 0x7f), b, &ignored);
        if (p != PointerStatus::kOk) return FromPointer(p);
      } else if (ch == 'S') {
        c.signal_frame = true;
      } else if (ch == 'B') {
        c.b_key = true;
      } else if (ch == 'G') {
        c.mte_tagged = true;
      } else {
        break;  // unknown: 'z' says how long the data is, the rest is skipped (as libgcc does)
      }
      if (!r.ok() || r.pos() > data_end) return CfiError::kTruncated;
    }
    r.Seek(data_end);
  } else if (a < aug.size()) {
    return CfiError::kBadAugmentation;
  }
  if (EncodedSize(c.fde_encoding, c.address_size) == 0 && (c.fde_encoding & 0x0f) != kPeUleb128 &&
      (c.fde_encoding & 0x0f) != kPeSleb128)
    return CfiError::kBadEncoding;
  c.instructions = s.data + r.pos();
  c.instructions_size = static_cast<size_t>(h.end - r.pos());
  *out = c;
  return CfiError::kNone;
}

CfiError ParseFde(const CfiSection& s, const EntryHeader& h, const Cie& cie, Fde* out) {
  if (h.is_cie || h.terminator) return CfiError::kNotACie;
  Fde f;
  f.offset = h.offset;
  f.cie_offset = h.cie_offset;
  ByteReader r = EntryReader(s, h.end);
  r.Seek(static_cast<size_t>(h.body));
  if (!s.eh_frame && cie.segment_size && !r.Skip(cie.segment_size)) return CfiError::kTruncated;
  const uint8_t enc = s.eh_frame ? cie.fde_encoding : kPeAbsptr;
  PointerBases b = Bases(s, cie.address_size);
  uint64_t begin = 0, range = 0;
  PointerStatus p = ReadEncodedPointer(r, enc, b, &begin);
  if (p != PointerStatus::kOk) return p == PointerStatus::kOmitted ? CfiError::kBadEncoding : FromPointer(p);
  p = ReadEncodedValue(r, static_cast<uint8_t>(enc & 0x0f), cie.address_size, &range);
  if (p != PointerStatus::kOk) return FromPointer(p);
  const uint64_t mask = cie.address_size == 4 ? 0xffffffffu : ~uint64_t{0};
  f.pc_begin = begin & mask;
  f.pc_end = (begin + range) & mask;
  if (f.pc_end < f.pc_begin) f.pc_end = mask;  // wraps: clip at the top of the address space
  if (cie.has_z) {
    uint64_t len = ReadUleb128(r);
    if (!r.ok() || len > r.remaining()) return CfiError::kTruncated;
    r.Skip(static_cast<size_t>(len));
  }
  f.instructions = s.data + r.pos();
  f.instructions_size = static_cast<size_t>(h.end - r.pos());
  *out = f;
  return CfiError::kNone;
}

}  // namespace profscope::unwind
