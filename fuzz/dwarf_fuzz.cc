// libFuzzer target for the DWARF debug-info reader (core/format/elf/
// dwarf_info.h) and the inline-record resolver (core/symbols/
// inline_resolver.h) with hostile input. An input starting with "\x7fELF" is
// a whole ELF file (sections found by name, compressed ones inflated,
// symbols read); any other input is split into raw sections by a 16-byte
// header of eight little-endian u16 lengths (.debug_info, .debug_abbrev,
// .debug_str, .debug_line_str, .debug_str_offsets, .debug_addr,
// .debug_ranges, .debug_rnglists), in the byte order its first bit says.
// Lookups at addresses taken from the input must never crash, hang or
// exceed the limits. Seeded with the perf cases' binaries (tests/data/perf)
// and fuzz/seeds/dwarf_fuzz.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/format/elf/dwarf_info.h"
#include "core/symbols/inline_resolver.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace profscope;
  elf::DwarfLimits lim;
  lim.max_bytes = 64u << 20;
  std::vector<uint64_t> addrs = {0, 0x1000, 0x1023, 0x1138, 0x2000};
  for (size_t i = 0; i + 8 <= size && addrs.size() < 24; i += size / 16 + 8) {
    uint64_t a;
    std::memcpy(&a, data + i, 8);
    addrs.push_back(a & 0xffffff);
  }
  if (size >= 4 && std::memcmp(data, "\x7f" "ELF", 4) == 0) {
    std::vector<uint8_t> bytes(data, data + size);
    symbols::InlineResolver r(bytes, 16u << 20, lim);
    for (uint64_t a : addrs) (void)r.Records(r.VaddrOfOffset(a));
    return 0;
  }
  if (size < 16) return 0;
  elf::DwarfSections s;
  s.order = (data[0] & 1) ? ByteOrder::kBig : ByteOrder::kLittle;
  std::vector<uint8_t>* secs[] = {&s.info, &s.abbrev, &s.str, &s.line_str, &s.str_offsets, &s.addr, &s.ranges, &s.rnglists};
  size_t at = 16;
  for (int k = 0; k < 8; ++k) {
    size_t n = data[2 * k] | (static_cast<size_t>(data[2 * k + 1]) << 8);
    if (k == 0) n >>= 1;
    n = std::min(n, size - at);
    secs[k]->assign(data + at, data + at + n);
    at += n;
  }
  elf::DwarfInfo d(std::move(s), lim);
  std::vector<elf::InlineFrame> out;
  for (uint64_t a : addrs) {
    if (d.Lookup(a, &out) && !out.empty() && out.front().func >= 0) {
      const std::string name = "renamed";
      d.MarkLinkage(out.front().func, (a & 1) ? &name : nullptr);
    }
  }
  return 0;
}
