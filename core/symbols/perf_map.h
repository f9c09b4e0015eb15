// /tmp/perf-PID.map: the text a JIT runtime writes so perf can name the code
// it generates in anonymous memory (node --perf-basic-prof, Java's
// perf-map-agent, .NET's DOTNET_PerfMapEnabled, Python 3.12 -X perf), read as
// perf 6.1 reads it (util/symbol.c dso__load_perf_map): one "START SIZE NAME"
// line per code object, START and SIZE in hex without 0x, NAME the rest of the
// line (spaces included); a line whose fields do not leave room for a name is
// skipped. Symbols are absolute addresses (perf maps such memory with an
// identity map_ip) and keep the file's order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace profscope::symbols {

struct PerfMapSymbol {
  uint64_t start = 0, size = 0;
  std::string name;
};

// True when the first lines read as perf map lines (and not as kallsyms).
bool LooksLikePerfMap(const uint8_t* data, size_t size);
std::vector<PerfMapSymbol> ParsePerfMap(std::string_view text);
// The pid of a perf map file name ("perf-1234.map" -> 1234), -1 when it is not one.
int64_t PerfMapPid(std::string_view file_name);

}  // namespace profscope::symbols
