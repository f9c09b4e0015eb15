// A small ELF32/ELF64 reader (both byte orders) for what a profile viewer
// needs from a program binary: section headers, function symbols with sizes
// (.symtab and .dynsym), the GNU build-id note, .gnu_debuglink and the XRay
// instrumentation map (xray_instr_map, with its dynamic relocations in
// position-independent binaries). Damage is reported in `problems` and
// reading goes on with what is left.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/io/byte_reader.h"
#include "core/io/byte_source.h"

namespace profscope::elf {

struct Section {
  std::string name;
  uint32_t type = 0;
  uint64_t flags = 0, addr = 0, offset = 0, size = 0, entsize = 0;
  uint32_t link = 0, info = 0;
};

// A program header (PT_LOAD etc.).
struct Segment {
  uint32_t type = 0, flags = 0;
  uint64_t offset = 0, vaddr = 0, filesz = 0, memsz = 0;
};

struct Symbol {
  uint64_t addr = 0;
  uint64_t size = 0;
  std::string name;  // as stored (mangled)
  bool dynamic = false;
};

// One sled of the XRay instrumentation map (addresses already absolute,
// i.e. link-time virtual addresses).
struct XRaySled {
  uint64_t address = 0;
  uint64_t function = 0;
  uint8_t kind = 0;  // 0 enter, 1 exit, 2 tail exit, 3 log args enter, 4 custom event, 5 typed event
  uint8_t always_instrument = 0;
  uint8_t version = 0;
};

struct ElfFile {
  bool ok = false;  // header readable
  bool is64 = false;
  ByteOrder order = ByteOrder::kLittle;
  uint16_t type = 0;  // ET_EXEC 2, ET_DYN 3
  uint16_t machine = 0;
  std::vector<Section> sections;
  std::vector<Segment> segments;  // program headers
  std::vector<Symbol> funcs;  // STT_FUNC (and STT_GNU_IFUNC) with a nonzero address, sorted by address
  std::string build_id;       // lower-case hex, empty when absent
  std::string debuglink;      // .gnu_debuglink file name
  uint32_t debuglink_crc = 0;
  std::vector<XRaySled> sleds;
  std::vector<std::string> problems;

  const Section* FindSection(const std::string& name) const;
};

// Reads everything above from the file in `w`.
ElfFile ReadElf(Window& w);

// Same from bytes in memory (tests).
ElfFile ReadElfBytes(const uint8_t* data, size_t size);

// "_Z3runiPPc" -> "run(int, char**)", the text of __cxa_demangle as GNU's C++
// runtime gives it (its demangler is libiberty's: cplus_demangle_v3 with
// DMGL_PARAMS | DMGL_TYPES), in both builds; other names unchanged. (Not the
// WASM runtime's own __cxa_demangle: libc++abi's recurses without a limit
// and a name of a few KB nesting templates 2 000 deep overflows the stack.)
std::string Demangle(const std::string& name);

// XRay function ids (1-based, in sled order, a new id whenever the sled's
// function changes, as LLVM's InstrumentationMap does) -> function address.
std::vector<std::pair<int32_t, uint64_t>> XRayFunctionIds(const std::vector<XRaySled>& sleds);

}  // namespace profscope::elf
