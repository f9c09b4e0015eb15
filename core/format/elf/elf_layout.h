// The layout of an ELF file read lazily through a ByteSource: the header, the
// program headers (PT_LOAD segments, PT_GNU_EH_FRAME), the section headers with
// their names and the GNU build-id, without reading the rest of the file (a
// 100 MB binary costs a few KiB). Sections are then read on demand, compressed
// ones (SHF_COMPRESSED with ELFCOMPRESS_ZLIB or _ZSTD, and GNU .zdebug_*)
// inflated within the size they declare and a caller's cap. Both classes, both
// byte orders; damage is reported in `problems`, never trusted.
// Source of truth: the System V gABI (ELF header, program and section headers,
// Elf32_Chdr/Elf64_Chdr).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/io/byte_reader.h"
#include "core/io/byte_source.h"

namespace profscope::elf {

inline constexpr uint32_t kPtLoad = 1, kPtNote = 4, kPtGnuEhFrame = 0x6474e550;
inline constexpr uint32_t kShtNobits = 8, kShtNote = 7;
inline constexpr uint64_t kShfCompressed = 0x800;
inline constexpr uint32_t kElfCompressZlib = 1, kElfCompressZstd = 2;
inline constexpr uint16_t kEmI386 = 3, kEmArm = 40, kEmX86_64 = 62, kEmAarch64 = 183;
inline constexpr uint16_t kEtExec = 2, kEtDyn = 3;

struct ProgramHeader {
  uint32_t type = 0, flags = 0;
  uint64_t offset = 0, vaddr = 0, filesz = 0, memsz = 0, align = 0;
};

struct SectionHeader {
  std::string name;
  uint32_t type = 0;
  uint64_t flags = 0, addr = 0, offset = 0, size = 0;
};

struct ElfLayout {
  bool ok = false;        // the ELF header was readable
  bool is64 = false;
  ByteOrder order = ByteOrder::kLittle;
  uint16_t type = 0;      // ET_EXEC 2, ET_DYN 3
  uint16_t machine = 0;   // EM_*
  uint64_t file_size = 0;
  std::vector<ProgramHeader> segments;
  std::vector<SectionHeader> sections;
  std::string build_id;   // lower-case hex; empty when absent
  std::vector<std::string> problems;

  const SectionHeader* FindSection(const std::string& name) const;
  const ProgramHeader* FindSegment(uint32_t type) const;
  // The PT_LOAD whose file bytes hold `file_offset` (nullptr if none).
  const ProgramHeader* LoadAtOffset(uint64_t file_offset) const;
  // The PT_LOAD whose memory image holds link-time address `vaddr`.
  const ProgramHeader* LoadAtAddress(uint64_t vaddr) const;
};

// Reads the headers (bounded: at most 65536 program/section headers).
ElfLayout ReadElfLayout(ByteSource& src);

// Reads section `s` into `out` (inflating a compressed one). Fails (with a
// reason in `why`) when the section lies outside the file, is NOBITS, or its
// (declared or inflated) size exceeds `cap` bytes.
bool ReadSection(ByteSource& src, const ElfLayout& elf, const SectionHeader& s, uint64_t cap,
                 std::vector<uint8_t>* out, std::string* why);

}  // namespace profscope::elf
