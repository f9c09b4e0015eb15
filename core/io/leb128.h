// LEB128 numbers (DWARF 5 §7.6), read from a ByteReader: the DWARF CFI of the
// unwinder and the DWARF debug information of the symbols share them.
#pragma once

#include <cstdint>

#include "core/io/byte_reader.h"

namespace profscope {

// Unsigned/signed LEB128. At most 10 bytes are consumed for a value (longer
// encodings fail the reader); bits beyond 64 are dropped.
uint64_t ReadUleb128(ByteReader& r);
int64_t ReadSleb128(ByteReader& r);

}  // namespace profscope
