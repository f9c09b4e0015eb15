#include "core/symbols/elf_symbols.h"

#include <cstring>
#include <string>

#include "core/io/byte_reader.h"
#include "core/symbols/demangle.h"
#include "core/symbols/perf_symbol_tree.h"

namespace profscope::symbols {

namespace {

constexpr uint32_t kShtSymtab = 2, kShtRela = 4, kShtNobits = 8, kShtRel = 9, kShtDynsym = 11;
constexpr uint64_t kShfAlloc = 2;
constexpr uint16_t kShnUndef = 0, kShnAbs = 0xfff1;
constexpr uint32_t kPtLoad = 1;
constexpr uint16_t kEmArm = 40, kEmAarch64 = 183, kEmSparc = 2, kEmSparcv9 = 43;

struct RawSym {
  uint32_t name;
  uint8_t info, other;
  uint16_t shndx;
  uint64_t value, size;
};

ByteReader At(const ElfImage& im, uint64_t off, uint64_t len) {
  if (off > im.size || len > im.size - off) return ByteReader(im.data, 0, 0, im.file->order);
  return ByteReader(im.data + off, static_cast<size_t>(len), off, im.file->order);
}

bool InFile(const ElfImage& im, const elf::Section& s) {
  return s.type != kShtNobits && s.offset <= im.size && s.size <= im.size - s.offset;
}

bool ReadSym(const ElfImage& im, const elf::Section& tab, uint64_t i, RawSym* s) {
  size_t ent = im.file->is64 ? 24 : 16;
  ByteReader r = At(im, tab.offset + i * ent, ent);
  if (r.size() < ent) return false;
  s->name = r.U32();
  if (im.file->is64) {
    s->info = r.U8(); s->other = r.U8(); s->shndx = r.U16(); s->value = r.U64(); s->size = r.U64();
  } else {
    s->value = r.U32(); s->size = r.U32(); s->info = r.U8(); s->other = r.U8(); s->shndx = r.U16();
  }
  return r.ok();
}

std::string StrAt(const ElfImage& im, const elf::Section& str, uint32_t off) {
  if (!InFile(im, str) || off >= str.size) return {};
  return At(im, str.offset + off, str.size - off).CString();
}

const elf::Section* ByName(const elf::ElfFile& f, const char* name) {
  for (const auto& s : f.sections)
    if (s.name == name) return &s;
  return nullptr;
}

// perf's dso__synthesize_plt_symbols (perf 6.1).
size_t SynthesizePlt(const ElfImage& rt, PerfSymbolTree& out, bool demangle) {
  const elf::ElfFile& f = *rt.file;
  size_t dynsym_idx = 0;
  const elf::Section* dynsym = nullptr;
  for (size_t i = 0; i < f.sections.size(); ++i)
    if (f.sections[i].name == ".dynsym" && f.sections[i].type == kShtDynsym) { dynsym = &f.sections[i]; dynsym_idx = i; break; }
  if (!dynsym || !InFile(rt, *dynsym)) return 0;
  const elf::Section* rel = ByName(f, ".rela.plt");
  if (!rel) rel = ByName(f, ".rel.plt");
  if (!rel || rel->link != dynsym_idx || !InFile(rt, *rel) || !rel->entsize) return 0;
  const elf::Section* plt = ByName(f, ".plt");
  if (!plt) return 0;
  if (dynsym->link >= f.sections.size()) return 0;
  const elf::Section& strs = f.sections[dynsym->link];
  if (!InFile(rt, strs) || strs.size == 0) return 0;
  uint64_t header, entry;
  switch (f.machine) {
    case kEmArm: header = 20; entry = 12; break;
    case kEmAarch64: header = 32; entry = 16; break;
    case kEmSparc: header = 48; entry = 12; break;
    case kEmSparcv9: header = 128; entry = 32; break;
    default: header = plt->entsize; entry = plt->entsize; break;
  }
  uint64_t at = plt->offset + header;
  bool rela = rel->type == kShtRela;
  if (!rela && rel->type != kShtRel) return 0;
  uint64_t n = rel->size / rel->entsize;
  size_t ent = f.is64 ? (rela ? 24 : 16) : (rela ? 12 : 8);
  size_t made = 0;
  for (uint64_t i = 0; i < n; ++i) {
    ByteReader r = At(rt, rel->offset + i * rel->entsize, ent);
    if (r.size() < ent) break;
    if (f.is64) r.U64(); else r.U32();
    uint64_t info = f.is64 ? r.U64() : r.U32();
    uint64_t symidx = f.is64 ? info >> 32 : info >> 8;
    RawSym s{};
    std::string name;
    if (ReadSym(rt, *dynsym, symidx, &s)) name = StrAt(rt, strs, s.name);
    if (demangle) name = PerfDemangle(name);
    Symbol sym;
    sym.start = at;
    sym.end = at + entry;
    sym.binding = kStbGlobal;
    sym.type = kSttFunc;
    sym.name = name + "@plt";
    out.Insert(std::move(sym));
    at += entry;
    ++made;
  }
  return made;
}

// One symbol table's symbols, in table order, through perf's filters
// (dso__load_sym_internal); each kept one is given to `sink` with its name
// as the table has it (a user DSO's names are demangled by its tree).
// Returns how many were given.
template <typename Sink>
size_t ReadSymbols(const ElfImage& ss, const ElfImage& rt, const elf::Section& tab, bool user, Sink&& sink) {
  const elf::ElfFile& f = *ss.file;
  if (!InFile(ss, tab) || tab.link >= f.sections.size() || !InFile(ss, f.sections[tab.link])) return 0;
  const elf::Section& strs = f.sections[tab.link];
  size_t ent = f.is64 ? 24 : 16;
  uint64_t count = tab.size / ent;
  size_t n = 0;
  for (uint64_t i = 0; i < count; ++i) {
    RawSym s;
    if (!ReadSym(ss, tab, i, &s)) break;
    uint8_t type = s.info & 15, bind = s.info >> 4, vis = s.other & 3;
    bool named = s.name != 0, defined = s.shndx != kShnUndef;
    bool is_label = type == 0 && named && defined && s.shndx != kShnAbs && vis != 2 && vis != 1;
    bool keep = (type == kSttFunc || type == kSttGnuIfunc || type == kSttObject) && named && defined;
    if (!is_label && !keep) continue;
    std::string name = StrAt(ss, strs, s.name);
    if ((f.machine == kEmArm || f.machine == kEmAarch64) && name.size() >= 2 && name[0] == '$' &&
        std::strchr("adtx", name[1]) && (name.size() == 2 || name[2] == '.'))
      continue;
    if (s.shndx >= f.sections.size()) continue;  // SHN_ABS and other special indexes
    const elf::Section* sec = &f.sections[s.shndx];
    if (!(sec->flags & kShfAlloc)) continue;
    if (sec->type == kShtNobits && rt.file && s.shndx < rt.file->sections.size()) sec = &rt.file->sections[s.shndx];
    if (is_label && sec->name.find("text") == std::string::npos && sec->name.find("data") == std::string::npos) continue;
    uint64_t value = s.value;
    if (f.machine == kEmArm && type == kSttFunc && (value & 1)) --value;
    if (user) {
      const elf::ElfFile& r = rt.file ? *rt.file : f;
      bool found = false;
      for (const auto& g : r.segments) {
        if (g.type != kPtLoad) continue;
        uint64_t sz = g.memsz > g.filesz ? g.memsz : g.filesz;
        if (!sz) continue;
        if (value >= g.vaddr && value - g.vaddr < sz) {
          value -= g.vaddr - g.offset;
          found = true;
          break;
        }
      }
      if (!found) value -= sec->addr - sec->offset;
    }
    sink(value, s.size, bind, type, std::move(name));
    ++n;
  }
  return n;
}

}  // namespace

bool FindSymtabValue(const ElfImage& im, const std::string& name, uint64_t* value) {
  const elf::ElfFile& f = *im.file;
  for (const auto& tab : f.sections) {
    if (tab.name != ".symtab" || tab.type != kShtSymtab || !InFile(im, tab) || tab.link >= f.sections.size()) continue;
    const elf::Section& strs = f.sections[tab.link];
    const uint64_t count = tab.size / (f.is64 ? 24 : 16);
    for (uint64_t i = 0; i < count; ++i) {
      RawSym s;
      if (!ReadSym(im, tab, i, &s)) break;
      if (s.name != 0 && s.shndx != kShnUndef && StrAt(im, strs, s.name) == name) {
        *value = s.value;
        return true;
      }
    }
  }
  return false;
}

bool HasSymtab(const elf::ElfFile& f) {
  for (const auto& s : f.sections)
    if (s.name == ".symtab" && s.type == kShtSymtab) return true;
  return false;
}

size_t LoadElfSymbols(const ElfImage& ss, const ElfImage& rt, ElfRole role, SymbolTable& out, std::string* damage) {
  const elf::ElfFile& f = *ss.file;
  const elf::Section* symtab = nullptr;
  const elf::Section* dynsym = nullptr;
  for (const auto& s : f.sections) {
    if (s.name == ".symtab" && s.type == kShtSymtab) symtab = &s;
    if (s.name == ".dynsym" && s.type == kShtDynsym && !dynsym) dynsym = &s;
  }
  const elf::Section* tab = symtab;
  if (!tab) {
    if (role == ElfRole::kKernel) return 0;  // a stripped vmlinux: perf falls back to kallsyms
    tab = dynsym;
  }
  // A table or string table past the end of the file is not read (libelf refuses it, so perf
  // names nothing from it): said in `damage`, never read as empty names.
  if (tab && damage) {
    if (!InFile(ss, *tab)) *damage = tab->name + " [" + std::to_string(tab->offset) + ", +" + std::to_string(tab->size) + ") lies outside the file";
    else if (tab->link >= f.sections.size()) *damage = tab->name + " names no string table (link " + std::to_string(tab->link) + ")";
    else if (!InFile(ss, f.sections[tab->link]))
      *damage = tab->name + "'s string table [" + std::to_string(f.sections[tab->link].offset) + ", +" +
                std::to_string(f.sections[tab->link].size) + ") lies outside the file";
  }
  if (role != ElfRole::kUser) {
    size_t n = 0;
    if (tab)
      n = ReadSymbols(ss, rt, *tab, false, [&](uint64_t v, uint64_t size, uint8_t bind, uint8_t type, std::string name) {
        out.Add(v, size, bind, type, std::move(name));
      });
    out.Finish(false);
    return n;
  }
  // A user DSO: perf's tree, built by the same inserts and erases (dso__load_sym):
  // .symtab's symbols, fixup_end, fixup_duplicate; then, when the symbol file has
  // a .dynsym (a separate debug file's is NOBITS: none), its symbols inserted into
  // the same tree, fixup_end, fixup_duplicate again; then the PLT entries.
  PerfSymbolTree tree(PerfDemangle);
  auto insert = [&](uint64_t v, uint64_t size, uint8_t bind, uint8_t type, std::string name) {
    Symbol s;
    s.start = v;
    s.end = size ? v + size : v;  // symbol__new
    if (s.end < s.start) s.end = UINT64_MAX;
    s.binding = bind;
    s.type = type;
    s.name = std::move(name);
    tree.Insert(std::move(s), true);
  };
  size_t n = 0;
  for (const elf::Section* pass : {symtab, dynsym}) {
    if (!pass) continue;
    size_t got = ReadSymbols(ss, rt, *pass, true, insert);
    if (got > 0) {
      tree.FixupEnd();
      tree.FixupDuplicate();
    }
    n += got;
  }
  if (n > 0 && rt.file) n += SynthesizePlt(rt, tree, true);
  tree.MoveInto(out);
  return n;
}

}  // namespace profscope::symbols
