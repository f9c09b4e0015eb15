// The inline records perf 6.1 makes of a user-space address: what binutils'
// `addr2line -i -f` prints for it on the DSO's symbol file (perf's
// util/srcline.c addr2line(), run on dso->symsrc_filename), demangled as perf
// demangles (new_inline_sym -> dso__demangle_sym), innermost first.
//
// addr2line's names (bfd/dwarf2.c _bfd_dwarf2_find_nearest_line and
// _bfd_dwarf2_find_inliner_info, bfd/elf.c _bfd_elf_find_function):
//  - the DWARF function with the smallest address range holding the address,
//    then the functions it is inlined into (DwarfInfo);
//  - the innermost one named by a plain DW_AT_name in a mangling language
//    takes the name of the ELF symbol that starts where it starts;
//  - no DWARF function: the nearest ELF function symbol at or below the
//    address (the static .symtab, else .dynsym), one record;
//  - neither: no record (perf then keeps its own frame).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/format/elf/dwarf_info.h"
#include "core/io/byte_source.h"
#include "core/io/keyed_hash.h"

namespace profscope::symbols {

class InlineResolver {
 public:
  // `bytes`: the symbol file (kept alive by the caller). `cap`: most bytes
  // one debug or symbol section may take once inflated.
  InlineResolver(const std::vector<uint8_t>& bytes, uint64_t cap, elf::DwarfLimits limits = {});
  ~InlineResolver();

  // The records at link-time address `vaddr`, demangled, innermost first;
  // empty when addr2line would find nothing. Cached per address.
  const std::vector<std::string>& Records(uint64_t vaddr);
  // The link-time address of file offset `offset` (through the PT_LOAD that
  // holds it; the offset itself when none does).
  uint64_t VaddrOfOffset(uint64_t offset) const;

  bool has_dwarf() const { return dwarf_ != nullptr; }
  const std::vector<elf::DwarfProblem>* problems() const { return dwarf_ ? &dwarf_->problems() : nullptr; }

 private:
  struct Sym {
    uint64_t value = 0, size = 0;
    uint32_t name = 0;  // offset in strtab_
    uint32_t shndx = 0;
  };
  void ReadSymbols(uint64_t cap);
  // The allocated section holding `vaddr` (addr2line's find_address_in_section), or -1.
  int64_t SectionOf(uint64_t vaddr) const;
  // bfd's _bfd_elf_find_function: the symbol it names `vaddr` by, or nullptr.
  const Sym* ElfFunction(uint64_t vaddr, int64_t section) const;
  std::string SymName(const Sym& s) const;

  MemorySource src_;
  elf::ElfLayout layout_;
  std::unique_ptr<elf::DwarfInfo> dwarf_;
  std::vector<Sym> syms_;  // the function-like symbols addr2line reads, by value (stable)
  std::vector<uint8_t> strtab_;
  std::unordered_map<uint64_t, std::vector<std::string>, KeyedIntHash> cache_;
  std::vector<elf::InlineFrame> scratch_;
};

}  // namespace profscope::symbols
