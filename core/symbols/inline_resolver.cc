#include "core/symbols/inline_resolver.h"

#include <algorithm>
#include <cstring>

#include "core/symbols/demangle.h"

namespace profscope::symbols {

InlineResolver::InlineResolver(const std::vector<uint8_t>& bytes, uint64_t cap, elf::DwarfLimits limits)
    : src_(bytes), layout_(elf::ReadElfLayout(src_)) {
  if (!layout_.ok) return;
  dwarf_ = elf::DwarfInfo::FromElf(src_, layout_, cap, limits);
  ReadSymbols(cap);
}

InlineResolver::~InlineResolver() = default;

void InlineResolver::ReadSymbols(uint64_t cap) {
  // addr2line reads the static symbol table, the dynamic one only without it.
  const elf::SectionHeader* tab = layout_.FindSection(".symtab");
  const elf::SectionHeader* str = layout_.FindSection(".strtab");
  if (!tab || !str || tab->type == elf::kShtNobits || tab->size == 0) {
    tab = layout_.FindSection(".dynsym");
    str = layout_.FindSection(".dynstr");
  }
  if (!tab || !str) return;
  std::vector<uint8_t> t;
  std::string why;
  if (!elf::ReadSection(src_, layout_, *tab, cap, &t, &why) || !elf::ReadSection(src_, layout_, *str, cap, &strtab_, &why))
    return;
  const size_t ent = layout_.is64 ? 24 : 16;
  for (size_t at = 0; at + ent <= t.size(); at += ent) {
    ByteReader r(t.data() + at, ent, at, layout_.order);
    Sym s;
    uint8_t info, other;
    uint16_t shndx;
    s.name = r.U32();
    if (layout_.is64) {
      info = r.U8(); other = r.U8(); shndx = r.U16(); s.value = r.U64(); s.size = r.U64();
    } else {
      s.value = r.U32(); s.size = r.U32(); info = r.U8(); other = r.U8(); shndx = r.U16();
    }
    const uint8_t type = info & 15, bind = info >> 4;
    // bfd's _bfd_elf_maybe_function_sym: not data, TLS, section or file
    // symbols; not annobin's hidden local zero-size NOTYPE markers.
    if (type != 0 && type != 2 && type != 10) continue;
    if (s.value == 0 || shndx == 0 || shndx >= 0xff00) continue;
    if (s.size == 0 && bind == 0 && type == 0 && (other & 3) == 2) continue;
    s.shndx = shndx;
    syms_.push_back(s);
  }
  std::stable_sort(syms_.begin(), syms_.end(), [](const Sym& a, const Sym& b) { return a.value < b.value; });
}

std::string InlineResolver::SymName(const Sym& s) const {
  if (s.name >= strtab_.size()) return {};
  const char* p = reinterpret_cast<const char*>(strtab_.data() + s.name);
  return std::string(p, strnlen(p, strtab_.size() - s.name));
}

uint64_t InlineResolver::VaddrOfOffset(uint64_t offset) const {
  if (const elf::ProgramHeader* ph = layout_.LoadAtOffset(offset)) return offset - ph->offset + ph->vaddr;
  return offset;
}

int64_t InlineResolver::SectionOf(uint64_t vaddr) const {
  for (size_t i = 0; i < layout_.sections.size(); ++i) {
    const elf::SectionHeader& s = layout_.sections[i];
    if ((s.flags & 2) && vaddr >= s.addr && vaddr - s.addr < s.size) return static_cast<int64_t>(i);
  }
  return -1;
}

const InlineResolver::Sym* InlineResolver::ElfFunction(uint64_t vaddr, int64_t section) const {
  // bfd's better_fit over the symbols of the address's section, in
  // symbol-table order: the highest start <= vaddr, then among equal starts
  // the one covering the address with the smallest size.
  auto end = std::upper_bound(syms_.begin(), syms_.end(), vaddr, [](uint64_t a, const Sym& s) { return a < s.value; });
  const Sym* best = nullptr;
  for (auto p = end; p != syms_.begin();) {
    --p;
    if (best && p->value < best->value) break;
    if (static_cast<int64_t>(p->shndx) != section) continue;
    if (!best) { best = &*p; continue; }
  }
  if (!best) return nullptr;
  // Equal starts, in table order.
  auto first = std::lower_bound(syms_.begin(), end, best->value, [](const Sym& s, uint64_t v) { return s.value < v; });
  best = nullptr;
  for (auto p = first; p != end; ++p) {
    if (static_cast<int64_t>(p->shndx) != section) continue;
    const Sym* s = &*p;
    if (!best) { best = s; continue; }
    if (best->value + best->size < vaddr) {
      if (s->size > best->size) best = s;
    } else if (s->value + s->size > vaddr && s->size < best->size) {
      best = s;
    }
  }
  return best;
}

const std::vector<std::string>& InlineResolver::Records(uint64_t vaddr) {
  auto [it, added] = cache_.try_emplace(vaddr);
  if (!added) return it->second;
  std::vector<std::string>& out = it->second;
  const int64_t section = SectionOf(vaddr);
  if (section < 0) return out;  // addr2line: "??"
  const Sym* sym = ElfFunction(vaddr, section);
  if (dwarf_ && dwarf_->Lookup(vaddr, &scratch_) && !scratch_.empty()) {
    // The innermost function without a linkage name: addr2line prints the
    // ELF symbol found for the address, renames the function to it when the
    // symbol starts where the function does, and from then on takes the
    // function's name as final (bfd's is_linkage).
    elf::InlineFrame& in = scratch_.front();
    if (!in.linkage) {
      std::string s = sym ? SymName(*sym) : std::string();
      dwarf_->MarkLinkage(in.func, sym && sym->value == in.low ? &s : nullptr);
      if (sym) in.name = s;
    }
    for (const auto& f : scratch_) out.push_back(PerfDemangle(f.name));
  } else if (sym) {
    out.push_back(PerfDemangle(SymName(*sym)));
  }
  return out;
}

}  // namespace profscope::symbols
