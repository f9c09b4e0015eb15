// The project's symbolizer: names addresses of a program from its ELF file's
// function symbols. Formats use it for XRay function ids (through the
// instrumentation map), gperftools PCs and, later, perf.data frames.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/format/elf/elf_reader.h"

namespace profscope::elf {

class Symbolizer {
 public:
  Symbolizer() = default;
  explicit Symbolizer(ElfFile file);
  const ElfFile& file() const { return file_; }
  // The function symbol containing `addr` (link-time address), or nullptr.
  // A symbol of size 0 covers only its own address.
  const Symbol* Find(uint64_t addr) const;
  // Demangled name of the function at addr, or empty.
  std::string Name(uint64_t addr) const;
  // Link-time address of the first PT_LOAD-like executable section start
  // (lowest address of an executable section), used to map file offsets.
  uint64_t FileOffsetToAddress(uint64_t file_offset) const;

 private:
  ElfFile file_;
};

}  // namespace profscope::elf
