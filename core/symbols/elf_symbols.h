// An ELF file's symbols the way perf 6.1 loads them (util/symbol-elf.c
// dso__load_sym, dso__synthesize_plt_symbols; util/symbol.c dso__load):
//  - `.symtab` of the symbol file (a debug file is preferred, see the
//    store), else `.dynsym`;
//  - functions (STT_FUNC, STT_GNU_IFUNC), objects (STT_OBJECT) and labels
//    (STT_NOTYPE, not hidden/internal, not absolute, in a section whose
//    name holds "text" or "data"), named, defined, in an SHF_ALLOC section;
//    ARM mapping symbols ($a, $d, $t, $x) dropped, the ARM thumb bit cleared;
//  - user space: each value made a file offset through the PT_LOAD program
//    header of the runtime file that contains it (elf_read_program_header),
//    else through its section (sh_addr - sh_offset); names demangled;
//  - then fixup_end and fixup_duplicate;
//  - user space: when the symbol file also has a .dynsym (an unstripped
//    binary; a debug file's is NOBITS), its symbols go into the same tree,
//    then fixup_end and fixup_duplicate again (perf 6.1 reads both tables);
//  - then one `name@plt` symbol per .rela.plt/.rel.plt entry of the
//    runtime file at .plt's file offset + one header, .plt's sh_entsize
//    apart, in relocation order.
// A user DSO's symbols are built in a replay of perf's rb-tree
// (perf_symbol_tree.h) so that where they overlap (a zero-size `_init`
// stretched over .plt, libc's nested functions) the table's Find names what
// perf names.
// Kernel (vmlinux) symbols keep their link-time address, not demangled.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/format/elf/elf_reader.h"
#include "core/symbols/symbol_table.h"

namespace profscope::symbols {

struct ElfImage {
  const uint8_t* data = nullptr;
  size_t size = 0;
  const elf::ElfFile* file = nullptr;
};

enum class ElfRole : uint8_t { kUser, kKernel, kModule };

// Loads `syms`' symbols into `out` (which it Finishes); `runtime` is the
// loadable file (the same as syms, or the binary a debug file belongs to).
// Returns the number of symbols loaded (PLT entries included). A symbol table
// or string table that lies outside the file is not read, and said in `damage`.
size_t LoadElfSymbols(const ElfImage& syms, const ElfImage& runtime, ElfRole role, SymbolTable& out,
                      std::string* damage = nullptr);

// The value of the first defined .symtab symbol named `name` (perf's
// ref_reloc_sym "_text"/"_stext" of a vmlinux, read before aliases are
// merged); false when there is none.
bool FindSymtabValue(const ElfImage& im, const std::string& name, uint64_t* value);

// True when the file has a SHT_SYMTAB section (perf's symsrc__has_symtab).
bool HasSymtab(const elf::ElfFile& f);

}  // namespace profscope::symbols
