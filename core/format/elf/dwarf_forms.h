// Reading .debug_info attribute values: the unit header (DWARF 2-5, 32- and
// 64-bit formats) and every DW_FORM_* (DWARF 5 §7.5.6, plus the GNU
// extensions GCC and dwz emit: GNU_addr_index, GNU_str_index, GNU_ref_alt,
// GNU_strp_alt), each read or skipped exactly by its encoded size.
// Source of truth: DWARF 5 §7.5 (unit headers, forms), DWARF 4 §7.5, GCC's
// dwarf2.def for the GNU values.
#pragma once

#include <cstdint>

#include "core/io/byte_reader.h"
#include "core/io/leb128.h"

namespace profscope::elf::dwarf {

// Tags and attributes the inline lookup reads.
inline constexpr uint32_t kTagEntryPoint = 0x03, kTagInlinedSubroutine = 0x1d, kTagCompileUnit = 0x11,
                          kTagSubprogram = 0x2e, kTagPartialUnit = 0x3c, kTagSkeletonUnit = 0x4a;
inline constexpr uint32_t kAtName = 0x03, kAtLowPc = 0x11, kAtHighPc = 0x12, kAtLanguage = 0x13,
                          kAtAbstractOrigin = 0x31, kAtSpecification = 0x47, kAtRanges = 0x55,
                          kAtLinkageName = 0x6e, kAtStrOffsetsBase = 0x72, kAtAddrBase = 0x73,
                          kAtRnglistsBase = 0x74, kAtMipsLinkageName = 0x2007, kAtGnuRangesBase = 0x2132,
                          kAtGnuAddrBase = 0x2133;
// Unit types (DWARF 5 §7.5.1).
inline constexpr uint8_t kUtCompile = 1, kUtType = 2, kUtPartial = 3, kUtSkeleton = 4, kUtSplitCompile = 5,
                         kUtSplitType = 6;

using profscope::ReadSleb128;  // core/io/leb128.h
using profscope::ReadUleb128;

// One unit's header and the bases its CU DIE sets.
struct Unit {
  uint64_t offset = 0;      // of the header in .debug_info
  uint64_t end = 0;         // one past its last byte
  uint64_t die_offset = 0;  // of its first DIE
  uint16_t version = 0;
  uint8_t unit_type = kUtCompile;
  uint8_t address_size = 8;
  bool dwarf64 = false;
  uint64_t abbrev_offset = 0;
  // From the CU DIE (DWARF 5 / GNU split DWARF).
  uint64_t str_offsets_base = 0, addr_base = 0, rnglists_base = 0, ranges_base = 0;
  bool has_str_offsets_base = false;
  uint32_t language = 0;
  uint8_t offset_size() const { return dwarf64 ? 8 : 4; }
};

// Reads the header at `r`'s cursor (a reader over the whole .debug_info).
// False (reader position unspecified) when it is truncated or its version
// is not 2..5; `why` says which.
bool ReadUnitHeader(ByteReader& r, Unit* u, const char** why);

enum class ValueKind : uint8_t {
  kNone,        // flag_present, implicit_const without value, skipped blocks
  kUnsigned,    // data*, udata, flag, sec_offset, addr
  kSigned,      // sdata, implicit_const
  kString,      // DW_FORM_string: `str` points into .debug_info
  kStrp,        // offset into .debug_str
  kLineStrp,    // offset into .debug_line_str
  kStrx,        // index into .debug_str_offsets
  kAddrx,       // index into .debug_addr
  kRefUnit,     // offset from the unit's header
  kRefInfo,     // offset into .debug_info (ref_addr)
  kRngListx,    // index into the rnglists offsets table
  kOther,       // supplementary/alternate file references, type signatures, blocks
};

struct Value {
  ValueKind kind = ValueKind::kNone;
  uint64_t u = 0;
  const char* str = nullptr;  // kString: NUL-terminated inside the section
  size_t len = 0;
  uint32_t form = 0;
};

// Reads the value of `form` (with `implicit` the abbreviation's
// DW_FORM_implicit_const value). False on truncation or an unknown form
// (then the rest of the DIE cannot be found).
bool ReadValue(ByteReader& r, uint32_t form, int64_t implicit, const Unit& u, Value* out);

}  // namespace profscope::elf::dwarf
