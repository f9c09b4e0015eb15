#include "core/format/elf/elf_reader.h"

#include "core/model/fields.h"

#include <cxxabi.h>

#if PROFSCOPE_HAVE_IBERTY
// libiberty's demangler (libiberty/demangle.h, whose libiberty.h redeclares basename against <cstring>):
// cplus_demangle_v3 and its DMGL_PARAMS | DMGL_TYPES, the options GNU's __cxa_demangle passes.
extern "C" char* cplus_demangle_v3(const char* mangled, int options);
namespace {
constexpr int kDmglParams = 1 << 0, kDmglTypes = 1 << 4;
}
#endif

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <new>

namespace profscope::elf {

namespace {

constexpr uint32_t kShtSymtab = 2, kShtRela = 4, kShtNote = 7, kShtNobits = 8, kShtRel = 9, kShtDynsym = 11;
constexpr size_t kMaxSections = 65536;

class Reader {
 public:
  Reader(const uint8_t* data, size_t size, ElfFile& f) : data_(data), size_(size), f_(f) {}
  ByteReader At(uint64_t off, uint64_t len) const {
    if (off > size_ || len > size_ - off) return ByteReader(data_, 0, 0, f_.order);
    return ByteReader(data_ + off, static_cast<size_t>(len), off, f_.order);
  }
  bool InFile(const Section& s) const { return s.type != kShtNobits && s.offset <= size_ && s.size <= size_ - s.offset; }
  void Run();

 private:
  void Symbols(const Section& s, bool dynamic);
  void Notes(const Section& s);
  void Sleds(const Section& s);
  const uint8_t* data_;
  size_t size_;
  ElfFile& f_;
};

void Reader::Run() {
  if (size_ < 16 || data_[0] != 0x7f || data_[1] != 'E' || data_[2] != 'L' || data_[3] != 'F') {
    f_.problems.push_back("not an ELF file (no \\x7fELF magic)");
    return;
  }
  if ((data_[4] != 1 && data_[4] != 2) || (data_[5] != 1 && data_[5] != 2)) {
    f_.problems.push_back("unknown ELF class or data encoding");
    return;
  }
  f_.is64 = data_[4] == 2;
  f_.order = data_[5] == 1 ? ByteOrder::kLittle : ByteOrder::kBig;
  ByteReader h = At(0, f_.is64 ? 64 : 52);
  if (h.size() == 0) { f_.problems.push_back("ELF header truncated"); return; }
  h.Seek(16);
  f_.type = h.U16();
  f_.machine = h.U16();
  uint64_t shoff, phoff;
  uint16_t shentsize, shnum, shstrndx, phentsize, phnum;
  if (f_.is64) {
    h.Seek(0x20); phoff = h.U64(); shoff = h.U64(); h.Seek(0x36);
  } else {
    h.Seek(0x1c); phoff = h.U32(); shoff = h.U32(); h.Seek(0x2a);
  }
  phentsize = h.U16(); phnum = h.U16();
  shentsize = h.U16(); shnum = h.U16(); shstrndx = h.U16();
  if (!h.ok()) { f_.problems.push_back("ELF header truncated"); return; }
  f_.ok = true;
  size_t phwant = f_.is64 ? 56 : 32;
  if (phoff && phnum && phentsize >= phwant) {
    for (size_t i = 0; i < phnum; ++i) {
      ByteReader r = At(phoff + i * phentsize, phwant);
      if (r.size() == 0) { f_.problems.push_back("program header table extends past the end of the file"); break; }
      Segment g;
      g.type = r.U32();
      if (f_.is64) {
        g.flags = r.U32(); g.offset = r.U64(); g.vaddr = r.U64(); r.U64(); g.filesz = r.U64(); g.memsz = r.U64();
      } else {
        g.offset = r.U32(); g.vaddr = r.U32(); r.U32(); g.filesz = r.U32(); g.memsz = r.U32(); g.flags = r.U32();
      }
      f_.segments.push_back(g);
    }
  }
  size_t want = f_.is64 ? 64 : 40;
  if (shnum == 0 || shoff == 0) { f_.problems.push_back("no section headers"); return; }
  if (shentsize < want) { f_.problems.push_back("section header entry size too small"); return; }
  for (size_t i = 0; i < shnum && i < kMaxSections; ++i) {
    ByteReader r = At(shoff + i * shentsize, want);
    if (r.size() == 0) { f_.problems.push_back("section header table extends past the end of the file"); break; }
    Section s;
    uint32_t name = r.U32();
    s.type = r.U32();
    if (f_.is64) {
      s.flags = r.U64(); s.addr = r.U64(); s.offset = r.U64(); s.size = r.U64();
      s.link = r.U32(); s.info = r.U32(); r.U64(); s.entsize = r.U64();
    } else {
      s.flags = r.U32(); s.addr = r.U32(); s.offset = r.U32(); s.size = r.U32();
      s.link = r.U32(); s.info = r.U32(); r.U32(); s.entsize = r.U32();
    }
    s.name = std::to_string(name);  // resolved below
    f_.sections.push_back(s);
  }
  if (shstrndx < f_.sections.size() && InFile(f_.sections[shstrndx])) {
    const Section& st = f_.sections[shstrndx];
    for (auto& s : f_.sections) {
      uint64_t n = std::strtoull(s.name.c_str(), nullptr, 10);
      if (n < st.size) {
        ByteReader r = At(st.offset + n, st.size - n);
        s.name = r.CString();
      } else {
        s.name.clear();
      }
    }
  } else {
    for (auto& s : f_.sections) s.name.clear();
    f_.problems.push_back("section name table missing");
  }
  for (const auto& s : f_.sections) {
    if (s.type == kShtSymtab) Symbols(s, false);
    else if (s.type == kShtDynsym) Symbols(s, true);
    else if (s.type == kShtNote) Notes(s);
    if (s.name == ".gnu_debuglink" && InFile(s)) {
      ByteReader r = At(s.offset, s.size);
      f_.debuglink = r.CString();
      r.Align(4);
      f_.debuglink_crc = r.U32();
    }
  }
  for (const auto& s : f_.sections)
    if (s.name == "xray_instr_map") Sleds(s);
  std::stable_sort(f_.funcs.begin(), f_.funcs.end(), [](const Symbol& a, const Symbol& b) {
    if (a.addr != b.addr) return a.addr < b.addr;
    return a.dynamic < b.dynamic;  // .symtab first
  });
  // One symbol per address (prefer .symtab, then the larger size).
  std::vector<Symbol> uniq;
  for (auto& s : f_.funcs) {
    if (!uniq.empty() && uniq.back().addr == s.addr) {
      if (uniq.back().size == 0 && s.size) uniq.back().size = s.size;
      continue;
    }
    uniq.push_back(std::move(s));
  }
  f_.funcs = std::move(uniq);
}

void Reader::Symbols(const Section& s, bool dynamic) {
  if (!InFile(s)) { f_.problems.push_back("symbol table " + s.name + " outside the file"); return; }
  if (s.link >= f_.sections.size() || !InFile(f_.sections[s.link])) {
    f_.problems.push_back("symbol table " + s.name + " has no string table");
    return;
  }
  const Section& str = f_.sections[s.link];
  size_t ent = f_.is64 ? 24 : 16;
  if (s.entsize && s.entsize < ent) { f_.problems.push_back("symbol entry size too small in " + s.name); return; }
  size_t step = s.entsize ? static_cast<size_t>(s.entsize) : ent;
  for (uint64_t off = 0; off + ent <= s.size; off += step) {
    ByteReader r = At(s.offset + off, ent);
    uint32_t name = r.U32();
    uint64_t value, size;
    uint8_t info;
    uint16_t shndx;
    if (f_.is64) {
      info = r.U8(); r.U8(); shndx = r.U16(); value = r.U64(); size = r.U64();
    } else {
      value = r.U32(); size = r.U32(); info = r.U8(); r.U8(); shndx = r.U16();
    }
    uint8_t type = info & 15;
    if ((type != 2 && type != 10) || shndx == 0 || value == 0) continue;  // STT_FUNC, STT_GNU_IFUNC, defined
    if (name >= str.size) continue;
    Symbol sym;
    sym.addr = value;
    if (f_.machine == 40) sym.addr &= ~uint64_t{1};  // ARM thumb bit
    sym.size = size;
    sym.name = At(str.offset + name, str.size - name).CString();
    sym.dynamic = dynamic;
    if (!sym.name.empty()) f_.funcs.push_back(std::move(sym));
  }
}

void Reader::Notes(const Section& s) {
  if (!InFile(s)) return;
  ByteReader r = At(s.offset, s.size);
  while (r.remaining() >= 12) {
    uint32_t namesz = r.U32(), descsz = r.U32(), type = r.U32();
    if (namesz > r.remaining()) break;
    std::string name = r.FixedString(namesz);
    r.Align(4);
    if (descsz > r.remaining()) break;
    const uint8_t* desc = r.cursor();
    r.Skip(descsz);
    r.Align(4);
    if (type == 3 && name == "GNU" && f_.build_id.empty()) f_.build_id = HexBytes(desc, descsz);
    if (!r.ok()) break;
  }
}

void Reader::Sleds(const Section& s) {
  if (!InFile(s)) { f_.problems.push_back("xray_instr_map outside the file"); return; }
  size_t word = f_.is64 ? 8 : 4;
  size_t ent = f_.is64 ? 32 : 16;
  if (s.size % ent) f_.problems.push_back("xray_instr_map size is not a multiple of the sled entry size");
  // Dynamic relocations that patch words inside the map (position-independent
  // binaries with sled version < 2 store absolute addresses fixed up at load).
  std::map<uint64_t, uint64_t> relocated;
  for (const auto& rs : f_.sections) {
    if ((rs.type != kShtRela && rs.type != kShtRel) || !InFile(rs)) continue;
    bool rela = rs.type == kShtRela;
    size_t rent = f_.is64 ? (rela ? 24 : 16) : (rela ? 12 : 8);
    const Section* symtab = rs.link < f_.sections.size() ? &f_.sections[rs.link] : nullptr;
    for (uint64_t off = 0; off + rent <= rs.size; off += rent) {
      ByteReader r = At(rs.offset + off, rent);
      uint64_t where = f_.is64 ? r.U64() : r.U32();
      uint64_t info = f_.is64 ? r.U64() : r.U32();
      int64_t addend = rela ? (f_.is64 ? r.I64() : static_cast<int32_t>(r.U32())) : 0;
      if (where < s.addr || where - s.addr >= s.size) continue;
      uint32_t rtype = f_.is64 ? static_cast<uint32_t>(info & 0xffffffff) : static_cast<uint32_t>(info & 0xff);
      uint64_t sym = f_.is64 ? info >> 32 : info >> 8;
      uint64_t symval = 0;
      if (sym && symtab && InFile(*symtab)) {
        size_t sent = f_.is64 ? 24 : 16;
        ByteReader sr = At(symtab->offset + sym * sent, sent);
        if (f_.is64) { sr.Skip(8); symval = sr.U64(); } else { sr.Skip(4); symval = sr.U32(); }
      }
      if (!rela) {
        ByteReader cur = At(s.offset + (where - s.addr), word);
        addend = f_.is64 ? cur.I64() : static_cast<int32_t>(cur.U32());
      }
      (void)rtype;
      relocated[where] = symval + static_cast<uint64_t>(addend);
    }
  }
  for (uint64_t off = 0; off + ent <= s.size; off += ent) {
    ByteReader r = At(s.offset + off, ent);
    XRaySled e;
    uint64_t a = f_.is64 ? r.U64() : r.U32();
    uint64_t fn = f_.is64 ? r.U64() : r.U32();
    e.kind = r.U8();
    e.always_instrument = r.U8();
    e.version = r.U8();
    uint64_t here = s.addr + off;
    auto ra = relocated.find(here);
    if (ra != relocated.end()) a = ra->second;
    auto rf = relocated.find(here + word);
    if (rf != relocated.end()) fn = rf->second;
    if (e.version >= 2) {
      if (!f_.is64) { a = static_cast<uint32_t>(a); fn = static_cast<uint32_t>(fn); }
      a += here;
      fn += here + word;
      if (!f_.is64) { a &= 0xffffffffu; fn &= 0xffffffffu; }
    }
    e.address = a;
    e.function = fn;
    f_.sleds.push_back(e);
  }
}

}  // namespace

const Section* ElfFile::FindSection(const std::string& name) const {
  for (const auto& s : sections)
    if (s.name == name) return &s;
  return nullptr;
}

ElfFile ReadElfBytes(const uint8_t* data, size_t size) {
  ElfFile f;
  Reader(data, size, f).Run();
  return f;
}

ElfFile ReadElf(Window& w) {
  // Read once, straight from the source (through the window it would be in memory twice: its buffer and
  // the copy the parse needs, as window buffers are replaced by later reads).
  const uint64_t n = w.size();
  std::vector<uint8_t> bytes;
  size_t got = 0;
  bool read = n > 0 && n <= SIZE_MAX;
  if (read) {
    try {
      bytes.resize(static_cast<size_t>(n));
    } catch (const std::bad_alloc&) {
      ElfFile f;
      f.problems.push_back("the file (" + std::to_string(n) + " bytes) is too large to read into memory");
      return f;
    }
    got = w.source().Read(0, bytes.data(), bytes.size());
    read = got == bytes.size();
  }
  if (!read) {
    ElfFile f;
    f.problems.push_back(n == 0           ? std::string("cannot read the file: it is empty")
                         : n > SIZE_MAX ? "the file (" + std::to_string(n) + " bytes) is too large to read into memory"
                                : EndedWhileRead("the file", got, n));
    return f;
  }
  return ReadElfBytes(bytes.data(), bytes.size());
}

std::string Demangle(const std::string& name) {
  if (name.size() < 2 || name[0] != '_' || name[1] != 'Z') return name;
#if PROFSCOPE_HAVE_IBERTY
  char* out = cplus_demangle_v3(name.c_str(), kDmglParams | kDmglTypes);
#else
  // (a runtime whose demangler may recurse without a limit: only names too short to nest that deep)
  int status = 0;
  char* out = name.size() <= 1024 ? abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status) : nullptr;
  if (status != 0) { std::free(out); out = nullptr; }
#endif
  if (!out) return name;
  std::string s(out);
  std::free(out);
  return s;
}

std::vector<std::pair<int32_t, uint64_t>> XRayFunctionIds(const std::vector<XRaySled>& sleds) {
  std::vector<std::pair<int32_t, uint64_t>> ids;
  int32_t id = 0;
  uint64_t cur = 0;
  bool have = false;
  for (const auto& e : sleds) {
    if (!have || e.function != cur) {
      ++id;
      cur = e.function;
      have = true;
      ids.emplace_back(id, cur);
    }
  }
  return ids;
}

}  // namespace profscope::elf
