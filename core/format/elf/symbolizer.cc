#include "core/format/elf/symbolizer.h"

#include <algorithm>

namespace profscope::elf {

Symbolizer::Symbolizer(ElfFile file) : file_(std::move(file)) {}

const Symbol* Symbolizer::Find(uint64_t addr) const {
  const auto& f = file_.funcs;
  auto it = std::upper_bound(f.begin(), f.end(), addr, [](uint64_t a, const Symbol& s) { return a < s.addr; });
  if (it == f.begin()) return nullptr;
  --it;
  if (addr == it->addr) return &*it;
  if (it->size && addr - it->addr < it->size) return &*it;
  return nullptr;
}

std::string Symbolizer::Name(uint64_t addr) const {
  const Symbol* s = Find(addr);
  return s ? Demangle(s->name) : std::string();
}

uint64_t Symbolizer::FileOffsetToAddress(uint64_t off) const {
  for (const auto& s : file_.sections) {
    if (s.type == 8 || !(s.flags & 2)) continue;  // SHF_ALLOC, not NOBITS
    if (off >= s.offset && off - s.offset < s.size) return s.addr + (off - s.offset);
  }
  return off;
}

}  // namespace profscope::elf
