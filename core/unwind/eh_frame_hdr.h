// .eh_frame_hdr (PT_GNU_EH_FRAME): where .eh_frame is, and a table of
// (initial location, FDE address) pairs sorted by location, searched by
// binary search. Any fixed-size table encoding is accepted (the linkers
// write DW_EH_PE_datarel|DW_EH_PE_sdata4); a table with a variable-size or
// missing encoding, or one that does not fit the section, is unusable and
// the caller builds its own index of .eh_frame instead.
// Source of truth: the LSB's ".eh_frame_hdr" section, GCC's
// unwind-dw2-fde-dip.c (the reader libgcc uses).
#pragma once

#include <cstdint>
#include <string>

#include "core/io/byte_reader.h"
#include "core/unwind/dwarf_read.h"

namespace profscope::unwind {

struct EhFrameHdr {
  uint8_t version = 0;
  uint8_t eh_frame_ptr_enc = 0, fde_count_enc = 0, table_enc = 0;
  uint64_t eh_frame_ptr = 0;   // link-time address of .eh_frame
  bool has_eh_frame_ptr = false;
  uint64_t fde_count = 0;
  size_t table_offset = 0;     // first table entry, from the section start
  unsigned entry_size = 0;     // bytes per (location, FDE address) pair
  bool searchable = false;     // the table can be binary searched
};

// Parses the header of the section `data` (link-time address `address`).
// False (with a reason) when the version is not 1 or the header is damaged.
bool ParseEhFrameHdr(const uint8_t* data, size_t size, uint64_t address, ByteOrder order, uint8_t address_size,
                     EhFrameHdr* out, std::string* why);

// The FDE address of the last table entry whose location is <= pc; false
// when the table is not searchable or pc precedes every entry.
bool LookupEhFrameHdr(const EhFrameHdr& h, const uint8_t* data, size_t size, uint64_t address, ByteOrder order,
                      uint8_t address_size, uint64_t pc, uint64_t* fde_address);

}  // namespace profscope::unwind
