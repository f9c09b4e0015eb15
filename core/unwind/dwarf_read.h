// Reading DWARF values from a ByteReader: LEB128 numbers and .eh_frame's
// encoded pointers (DW_EH_PE_*: every format, every application, indirect).
// Source of truth: DWARF 5 §7.6 (LEB128), the LSB's "DWARF Extensions"
// (pointer encodings), GCC's unwind-pe.h (read_encoded_value_with_base).
#pragma once

#include <cstdint>
#include <functional>

#include "core/io/byte_reader.h"
#include "core/io/leb128.h"

namespace profscope::unwind {

using profscope::ReadSleb128;  // core/io/leb128.h
using profscope::ReadUleb128;

// What an encoded pointer is relative to.
struct PointerBases {
  uint64_t section_address = 0;  // link-time address of the reader's byte 0 (DW_EH_PE_pcrel, _aligned)
  uint64_t text = 0, data = 0, func = 0;
  bool has_text = false, has_data = false, has_func = false;
  uint8_t address_size = 8;      // DW_EH_PE_absptr / _aligned width (4 or 8)
  // Reads an address-sized word at a link-time address (DW_EH_PE_indirect); may be empty.
  std::function<bool(uint64_t address, uint64_t* value)> read_word;
};

enum class PointerStatus : uint8_t { kOk, kOmitted, kTruncated, kBadEncoding, kIndirectUnreadable };

// Reads one pointer of encoding `enc` at the reader's cursor. The value is
// truncated to the address size.
PointerStatus ReadEncodedPointer(ByteReader& r, uint8_t enc, const PointerBases& bases, uint64_t* out);

// Reads a value of the format part of `enc` only (FDE address ranges), no
// application. kOmitted is a bad encoding here.
PointerStatus ReadEncodedValue(ByteReader& r, uint8_t enc, uint8_t address_size, uint64_t* out);

// The encoded width of `enc` in bytes when fixed (0 for LEB128 / invalid).
unsigned EncodedSize(uint8_t enc, uint8_t address_size);

}  // namespace profscope::unwind
