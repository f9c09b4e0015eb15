// /proc/kallsyms text, read as perf reads it (tools/lib/symbol/kallsyms.c
// kallsyms__parse, util/symbol.c map__process_kallsym_symbol): lines
// "ADDRESS TYPE NAME[\t[MODULE]]"; only types T/t, W/w, D/d, B/b are kept
// (symbol_type__filter), names starting with '$' (ARM mapping symbols)
// are dropped; T/t/W/w are functions, the rest objects; W/w weak,
// upper case global, lower case local. A module symbol keeps its module
// name ("[ext4]"). Lines that do not parse are skipped and counted.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace profscope::symbols {

struct KernelSymbol {
  uint64_t addr = 0;
  char type = 0;
  std::string name;
  std::string module;  // "[ext4]" for a module symbol, else empty
};

struct Kallsyms {
  std::vector<KernelSymbol> symbols;  // in file order
  uint64_t lines = 0, skipped = 0;    // lines read; lines that did not parse
  // Address of a symbol by name (kernel proper, first match), false when absent.
  bool Lookup(std::string_view name, uint64_t* addr) const;
};

// True when the text looks like kallsyms: its first lines are "HEX T NAME".
bool LooksLikeKallsyms(const uint8_t* data, size_t size);

Kallsyms ParseKallsyms(std::string_view text);

}  // namespace profscope::symbols
