// CIEs and FDEs of .eh_frame and .debug_frame: one entry parsed at a section
// offset, bounds-checked against the section and its own declared length.
// Handles 32- and 64-bit DWARF lengths, CIE versions 1, 3 and 4, the .eh_frame
// (relative) and .debug_frame (absolute, all-ones id) CIE pointers, and the
// augmentations z, R, P, L, S, B, G and "eh". An FDE's CIE pointer must lead
// to a CIE (never another FDE), so entries cannot form cycles.
// Source of truth: DWARF 5 §6.4.1, the LSB's .eh_frame chapter, GCC's
// unwind-dw2-fde.c / unwind-dw2.c (extract_cie_info).
#pragma once

#include <cstdint>
#include <string>

#include "core/io/byte_reader.h"
#include "core/unwind/dwarf_read.h"

namespace profscope::unwind {

enum class CfiError : uint8_t {
  kNone = 0,
  kTruncated,          // an entry or a value runs past its end
  kBadLength,          // a length beyond the section
  kBadCiePointer,      // an FDE's CIE pointer leads outside the section
  kNotACie,            // the CIE pointer leads to something that is not a CIE
  kBadVersion,         // CIE version other than 1, 3, 4
  kBadAugmentation,    // an augmentation we cannot skip (no 'z')
  kBadEncoding,        // an unknown pointer encoding
  kBadAddressSize,     // a v4 CIE's address size is not 4 or 8, or a segment selector
  kBadRegister,        // a register number the architecture does not have
  kBadOpcode,          // an unknown or unsupported DW_CFA_* instruction
  kStateStack,         // remember/restore_state stack too deep, or restore without remember
  kTooLong,            // a CFA program longer than we agree to run
  kTerminator,         // the .eh_frame zero terminator (not an entry)
};
const char* CfiErrorName(CfiError e);

// One section of call frame information.
struct CfiSection {
  const uint8_t* data = nullptr;
  size_t size = 0;
  uint64_t address = 0;      // link-time address of data[0] (.eh_frame pcrel pointers)
  bool eh_frame = true;      // false: .debug_frame
  ByteOrder order = ByteOrder::kLittle;
  uint8_t address_size = 8;  // from the ELF class (a v4 CIE may say otherwise)
  uint64_t text_base = 0, data_base = 0;  // DW_EH_PE_textrel / _datarel bases
  bool has_text_base = false, has_data_base = false;
  std::function<bool(uint64_t, uint64_t*)> read_word;  // DW_EH_PE_indirect
};

struct Cie {
  uint64_t offset = 0;           // in the section
  uint8_t version = 0;
  uint64_t code_align = 1;
  int64_t data_align = 1;
  uint64_t ra_register = 0;
  uint8_t fde_encoding = 0;      // DW_EH_PE_absptr
  uint8_t lsda_encoding = 0xff;  // DW_EH_PE_omit
  bool has_z = false;
  bool signal_frame = false;     // 'S'
  bool b_key = false;            // 'B' (aarch64: return address signed with the B key)
  bool mte_tagged = false;       // 'G' (aarch64: MTE-tagged stack frame)
  uint8_t address_size = 8;
  uint8_t segment_size = 0;
  const uint8_t* instructions = nullptr;
  size_t instructions_size = 0;
};

struct Fde {
  uint64_t offset = 0;           // in the section
  uint64_t cie_offset = 0;
  uint64_t pc_begin = 0, pc_end = 0;  // link-time addresses
  const uint8_t* instructions = nullptr;
  size_t instructions_size = 0;
};

// What is at `offset`: a CIE or an FDE, and where the next entry starts.
struct EntryHeader {
  bool is_cie = false;
  bool terminator = false;       // .eh_frame zero length
  uint64_t offset = 0, end = 0;  // [offset, end) is the whole entry
  uint64_t body = 0;             // first byte after the id / CIE pointer
  uint64_t cie_offset = 0;       // FDEs: the CIE's offset in the section
  bool dwarf64 = false;
};
CfiError ReadEntryHeader(const CfiSection& s, uint64_t offset, EntryHeader* out);

CfiError ParseCie(const CfiSection& s, uint64_t offset, Cie* out);
// Parses the FDE at `offset` with its CIE (already parsed: `cie`, whose offset
// must equal the FDE's CIE pointer; see ReadEntryHeader).
CfiError ParseFde(const CfiSection& s, const EntryHeader& h, const Cie& cie, Fde* out);

}  // namespace profscope::unwind
