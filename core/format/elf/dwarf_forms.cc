#include "core/format/elf/dwarf_forms.h"

#include <cstring>

namespace profscope::elf::dwarf {

bool ReadUnitHeader(ByteReader& r, Unit* u, const char** why) {
  *u = Unit{};
  u->offset = r.pos();
  uint64_t len = r.U32();
  if (len == 0xffffffffu) {
    u->dwarf64 = true;
    len = r.U64();
  } else if (len >= 0xfffffff0u) {
    *why = "reserved unit length";
    return false;
  }
  if (!r.ok()) { *why = "unit header is truncated"; return false; }
  const uint64_t body = r.pos();
  if (len > r.size() - body) { *why = "unit length runs past the end of .debug_info"; return false; }
  u->end = body + len;
  u->version = r.U16();
  if (u->version < 2 || u->version > 5) { *why = "unsupported DWARF version"; return false; }
  if (u->version >= 5) {
    u->unit_type = r.U8();
    u->address_size = r.U8();
    u->abbrev_offset = u->dwarf64 ? r.U64() : r.U32();
    if (u->unit_type == kUtSkeleton || u->unit_type == kUtSplitCompile) r.Skip(8);  // dwo_id
    else if (u->unit_type == kUtType || u->unit_type == kUtSplitType) r.Skip(8 + u->offset_size());
  } else {
    u->abbrev_offset = u->dwarf64 ? r.U64() : r.U32();
    u->address_size = r.U8();
  }
  if (!r.ok() || r.pos() > u->end) { *why = "unit header is truncated"; return false; }
  if (u->address_size != 2 && u->address_size != 4 && u->address_size != 8) {
    *why = "unsupported address size";
    return false;
  }
  u->die_offset = r.pos();
  return true;
}

namespace {

uint64_t ReadSized(ByteReader& r, unsigned n) {
  switch (n) {
    case 1: return r.U8();
    case 2: return r.U16();
    case 3: {
      uint8_t b[3] = {0, 0, 0};
      r.Bytes(b, 3);
      return r.order() == ByteOrder::kLittle ? (b[0] | (b[1] << 8) | (uint32_t{b[2]} << 16))
                                             : ((uint32_t{b[0]} << 16) | (b[1] << 8) | b[2]);
    }
    case 4: return r.U32();
    default: return r.U64();
  }
}

bool Block(ByteReader& r, uint64_t n, Value* out) {
  out->kind = ValueKind::kOther;
  if (!r.ok()) return false;
  if (n > r.remaining()) { r.Fail(); return false; }
  return r.Skip(static_cast<size_t>(n));
}

}  // namespace

bool ReadValue(ByteReader& r, uint32_t form, int64_t implicit, const Unit& u, Value* out) {
  *out = Value{};
  out->form = form;
  const unsigned off = u.offset_size();
  // DW_FORM_indirect names the form in the data; at most a few levels.
  for (int hop = 0; form == 0x16; ++hop) {
    if (hop == 4) { r.Fail(); return false; }
    form = static_cast<uint32_t>(ReadUleb128(r));
    out->form = form;
    if (!r.ok()) return false;
  }
  auto un = [&](uint64_t v, ValueKind k = ValueKind::kUnsigned) {
    out->kind = k;
    out->u = v;
    return r.ok();
  };
  switch (form) {
    case 0x01: return un(ReadSized(r, u.address_size));                 // addr
    case 0x03: return Block(r, r.U16(), out);                           // block2
    case 0x04: return Block(r, r.U32(), out);                           // block4
    case 0x05: return un(r.U16());                                      // data2
    case 0x06: return un(r.U32());                                      // data4
    case 0x07: return un(r.U64());                                      // data8
    case 0x08: {                                                        // string
      const char* p = reinterpret_cast<const char*>(r.cursor());
      const size_t left = r.remaining();
      const size_t n = strnlen(p, left);
      if (n == left) { r.Fail(); return false; }
      r.Skip(n + 1);
      out->kind = ValueKind::kString;
      out->str = p;
      out->len = n;
      return true;
    }
    case 0x09: return Block(r, ReadUleb128(r), out);                           // block
    case 0x0a: return Block(r, r.U8(), out);                            // block1
    case 0x0b: return un(r.U8());                                       // data1
    case 0x0c: return un(r.U8());                                       // flag
    case 0x0d: return un(static_cast<uint64_t>(ReadSleb128(r)), ValueKind::kSigned);  // sdata
    case 0x0e: return un(ReadSized(r, off), ValueKind::kStrp);          // strp
    case 0x0f: return un(ReadUleb128(r));                                      // udata
    case 0x10:                                                          // ref_addr
      return un(ReadSized(r, u.version <= 2 ? u.address_size : off), ValueKind::kRefInfo);
    case 0x11: return un(r.U8(), ValueKind::kRefUnit);                  // ref1
    case 0x12: return un(r.U16(), ValueKind::kRefUnit);                 // ref2
    case 0x13: return un(r.U32(), ValueKind::kRefUnit);                 // ref4
    case 0x14: return un(r.U64(), ValueKind::kRefUnit);                 // ref8
    case 0x15: return un(ReadUleb128(r), ValueKind::kRefUnit);                 // ref_udata
    case 0x17: return un(ReadSized(r, off));                            // sec_offset
    case 0x18: return Block(r, ReadUleb128(r), out);                           // exprloc
    case 0x19: return un(1);                                            // flag_present
    case 0x1a: return un(ReadUleb128(r), ValueKind::kStrx);                    // strx
    case 0x1b: return un(ReadUleb128(r), ValueKind::kAddrx);                   // addrx
    case 0x1c: return un(r.U32(), ValueKind::kOther);                   // ref_sup4
    case 0x1d: return un(ReadSized(r, off), ValueKind::kOther);         // strp_sup
    case 0x1e: return Block(r, 16, out);                                // data16
    case 0x1f: return un(ReadSized(r, off), ValueKind::kLineStrp);      // line_strp
    case 0x20: return un(r.U64(), ValueKind::kOther);                   // ref_sig8
    case 0x21: return un(static_cast<uint64_t>(implicit), ValueKind::kSigned);  // implicit_const
    case 0x22: return un(ReadUleb128(r));                                      // loclistx
    case 0x23: return un(ReadUleb128(r), ValueKind::kRngListx);                // rnglistx
    case 0x24: return un(r.U64(), ValueKind::kOther);                   // ref_sup8
    case 0x25: return un(r.U8(), ValueKind::kStrx);                     // strx1
    case 0x26: return un(r.U16(), ValueKind::kStrx);                    // strx2
    case 0x27: return un(ReadSized(r, 3), ValueKind::kStrx);            // strx3
    case 0x28: return un(r.U32(), ValueKind::kStrx);                    // strx4
    case 0x29: return un(r.U8(), ValueKind::kAddrx);                    // addrx1
    case 0x2a: return un(r.U16(), ValueKind::kAddrx);                   // addrx2
    case 0x2b: return un(ReadSized(r, 3), ValueKind::kAddrx);           // addrx3
    case 0x2c: return un(r.U32(), ValueKind::kAddrx);                   // addrx4
    case 0x1f01: return un(ReadUleb128(r), ValueKind::kAddrx);                 // GNU_addr_index
    case 0x1f02: return un(ReadUleb128(r), ValueKind::kStrx);                  // GNU_str_index
    case 0x1f20: return un(ReadSized(r, off), ValueKind::kOther);       // GNU_ref_alt
    case 0x1f21: return un(ReadSized(r, off), ValueKind::kOther);       // GNU_strp_alt
    default: r.Fail(); return false;
  }
}

}  // namespace profscope::elf::dwarf
