// The functions (and the inlined calls inside them) that hold an address,
// read from an ELF's DWARF debug information the way binutils' addr2line -i
// -f finds them (bfd/dwarf2.c: scan_unit_for_symbols, find_abstract_instance,
// lookup_address_in_function_table, _bfd_dwarf2_find_inliner_info), which is
// what perf 6.1 runs for its inlined frames (util/srcline.c addr2line).
//
// Sections: .debug_info, .debug_abbrev, .debug_str, .debug_line_str,
// .debug_str_offsets, .debug_addr, .debug_ranges, .debug_rnglists (DWARF
// 2-5, 32- and 64-bit units; compressed sections inflated by the ELF layout
// reader). Lazy: the first lookup reads each unit's header and CU DIE only
// (its address ranges); a unit's DIE tree is read when an address in it is
// first asked. Untrusted input: every read is bounded, nesting, reference
// chains and the memory held are capped, damage is a problem with its
// .debug_info offset and the other units still answer.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/format/elf/dwarf_forms.h"
#include "core/format/elf/elf_layout.h"
#include "core/io/byte_reader.h"
#include "core/io/byte_source.h"

namespace profscope::elf {

struct DwarfSections {
  ByteOrder order = ByteOrder::kLittle;
  std::vector<uint8_t> info, abbrev, str, line_str, str_offsets, addr, ranges, rnglists;
};

// One record of addr2line -i: a function holding the address.
struct InlineFrame {
  std::string name;     // as stored: the linkage (mangled) name when there is one
  bool linkage = false; // bfd's is_linkage: a linkage name, or any name in a C-like unit
  uint64_t low = 0;     // the first address of its first range
  int32_t func = -1;    // DwarfInfo's id of the function (for MarkLinkage)
};

struct DwarfProblem {
  uint64_t offset = 0;  // in .debug_info (or the section the message names)
  std::string message;
};

// Caps for untrusted debug information.
struct DwarfLimits {
  uint64_t max_bytes = uint64_t{256} << 20;  // functions, ranges and names held
  uint32_t max_depth = 512;                  // DIE nesting
  uint32_t max_refs = 32;                    // abstract_origin/specification hops
  uint32_t max_frames = 1024;                // perf's MAX_INLINE_NEST
  uint32_t max_ranges = 1u << 16;            // entries of one range list
};

class DwarfInfo {
 public:
  using Limits = DwarfLimits;

  explicit DwarfInfo(DwarfSections s, Limits limits = {});
  ~DwarfInfo();
  // The debug sections of an ELF (each at most `cap` bytes once inflated);
  // nullptr when it has no .debug_info. Why a section could not be read is
  // in problems().
  static std::unique_ptr<DwarfInfo> FromElf(ByteSource& src, const ElfLayout& layout, uint64_t cap,
                                            Limits limits = {});

  // The functions holding link-time address `addr`, innermost first (the
  // inlined ones, then the function they are inlined into), as addr2line -i
  // lists them; false (and `out` empty) when no function DIE holds it.
  bool Lookup(uint64_t addr, std::vector<InlineFrame>* out);

  // bfd names a function without a linkage name once (after an ELF symbol
  // lookup) and from then on treats it as having one: `func` gets
  // linkage = true and, when `rename` is given, that name.
  void MarkLinkage(int32_t func, const std::string* rename);

  const std::vector<DwarfProblem>& problems() const { return problems_; }
  uint64_t bytes_held() const { return held_; }
  size_t units() const { return units_.size(); }

 private:
  struct Abbrev;
  struct AbbrevTable;
  struct Func {
    uint64_t die = 0;
    int32_t caller = -1;    // the enclosing function of an inlined call (index into funcs_)
    int32_t name = -1;      // index into names_ once resolved, -2 when it has none
    bool linkage = false;
    uint64_t low = 0;
    int32_t unit = -1;
  };
  struct Range {
    uint64_t low, high;
    int32_t func;
  };
  struct UnitInfo {
    dwarf::Unit u;
    bool parsed = false;
    bool broken = false;
    std::vector<Range> ranges;  // of its functions (after parsing)
  };
  struct CuRange {
    uint64_t low, high;
    int32_t unit;
  };

  void Index();
  const AbbrevTable* Abbrevs(uint64_t offset);
  bool ParseUnit(size_t ui);
  bool ReadRanges(const dwarf::Unit& u, const dwarf::Value& v, uint64_t base, std::vector<std::pair<uint64_t, uint64_t>>* out);
  bool Address(const dwarf::Unit& u, const dwarf::Value& v, uint64_t* out);
  // DW_AT_low_pc/high_pc as one range appended to `out` (when both are there and
  // low_pc resolves); returns low_pc (0 without one), the base of DW_AT_ranges.
  uint64_t PcRange(const dwarf::Unit& u, const dwarf::Value* low, const dwarf::Value* high,
                   std::vector<std::pair<uint64_t, uint64_t>>* out);
  bool String(const dwarf::Unit& u, const dwarf::Value& v, const char** s, size_t* n);
  int32_t UnitAt(uint64_t info_offset);
  void Name(Func& f);
  void NameFrom(uint64_t die, uint32_t hops, bool top, const char** name, size_t* len, bool* linkage);
  bool Best(size_t ui, uint64_t addr, int32_t* func);
  void Problem(uint64_t offset, std::string msg);
  bool Charge(uint64_t bytes, uint64_t offset);

  DwarfSections s_;
  Limits limits_;
  bool indexed_ = false;
  bool full_ = false;  // the memory cap was reached: no more units are parsed
  uint64_t held_ = 0;
  std::vector<UnitInfo> units_;
  std::vector<CuRange> cu_ranges_;   // sorted by low
  std::vector<int32_t> unranged_;    // units whose CU DIE gives no address range
  std::vector<Func> funcs_;
  std::vector<std::string> names_;
  std::map<uint64_t, std::unique_ptr<AbbrevTable>> abbrevs_;
  std::vector<DwarfProblem> problems_;
};

// Demangling-style of DW_AT_language for bfd's is_linkage rule: true for the
// languages whose plain DW_AT_name is the linkage name (C, assembler, ...).
bool DwarfLanguageIsUnmangled(uint32_t language);

}  // namespace profscope::elf
