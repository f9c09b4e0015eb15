// The ELF reader and symbolizer: a synthetic ELF written here in all four
// class/byte-order combinations (section headers, .symtab with sizes,
// .dynsym, GNU build-id note, .gnu_debuglink, xray_instr_map version 2 and a
// version-1 map fixed up by R_*_RELATIVE relocations), every truncation, and
// the real XRay binary of the corpus (checked against readelf/nm).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>
#include <vector>

#include "core/format/elf/elf_reader.h"
#include "core/format/elf/symbolizer.h"

namespace fs = std::filesystem;
using namespace profscope::elf;

namespace {

struct Builder {
  bool is64, big;
  std::vector<uint8_t> b;
  void N(uint64_t v, int n) {
    for (int i = 0; i < n; ++i) b.push_back(static_cast<uint8_t>(v >> (big ? (n - 1 - i) * 8 : i * 8)));
  }
  void Put(size_t at, uint64_t v, int n) {
    for (int i = 0; i < n; ++i) b[at + static_cast<size_t>(i)] = static_cast<uint8_t>(v >> (big ? (n - 1 - i) * 8 : i * 8));
  }
  void A(uint64_t v) { N(v, is64 ? 8 : 4); }
  void Align(size_t a) { while (b.size() % a) b.push_back(0); }
  struct Sec { std::string name; uint32_t type; uint64_t flags, addr, off, size, entsize; uint32_t link, info; };
  std::vector<Sec> secs;
};

std::vector<uint8_t> MakeElf(bool is64, bool big, int sled_version) {
  Builder e{is64, big, {}, {}};
  size_t eh = is64 ? 64 : 52;
  e.b.resize(eh, 0);
  e.b[0] = 0x7f; e.b[1] = 'E'; e.b[2] = 'L'; e.b[3] = 'F';
  e.b[4] = is64 ? 2 : 1; e.b[5] = big ? 2 : 1; e.b[6] = 1;
  e.Put(16, 3, 2);                 // ET_DYN
  e.Put(18, is64 ? 62 : 3, 2);     // x86-64 / i386
  // .text at 0x1000 (file offset = its current position)
  e.Align(16);
  size_t text = e.b.size();
  e.b.resize(text + 0x40, 0x90);
  e.secs.push_back({".text", 1, 6, 0x1000, text, 0x40, 0, 0, 0});
  // .strtab
  std::string str = std::string("\0", 1) + "_Z3runiPPc" + '\0' + "leaf" + '\0' + "dynfn" + '\0' + "data" + '\0';
  size_t stroff = e.b.size();
  e.b.insert(e.b.end(), str.begin(), str.end());
  size_t strtab_index = 3;  // null, .text, .symtab, .strtab ...
  e.secs.push_back({".strtab", 3, 0, 0, stroff, str.size(), 0, 0, 0});
  // .symtab: null, run (func 0x1000 size 0x20), leaf (func 0x1020 size 0x10), data (object)
  e.Align(8);
  size_t symoff = e.b.size();
  auto sym = [&](uint32_t name, uint64_t value, uint64_t size, uint8_t info, uint16_t shndx) {
    if (is64) { e.N(name, 4); e.b.push_back(info); e.b.push_back(0); e.N(shndx, 2); e.N(value, 8); e.N(size, 8); }
    else { e.N(name, 4); e.N(value, 4); e.N(size, 4); e.b.push_back(info); e.b.push_back(0); e.N(shndx, 2); }
  };
  sym(0, 0, 0, 0, 0);
  sym(1, 0x1000, 0x20, 0x12, 1);
  sym(12, 0x1020, 0x10, 0x02, 1);
  sym(23, 0x2000, 8, 0x11, 1);
  size_t symsize = e.b.size() - symoff;
  e.secs.insert(e.secs.begin() + 1, {".symtab", 2, 0, 0, symoff, symsize, static_cast<uint64_t>(is64 ? 24 : 16),
                                     static_cast<uint32_t>(strtab_index), 1});
  // .dynsym with dynfn at 0x1030 (size 0x10), sharing .strtab
  size_t dynoff = e.b.size();
  sym(0, 0, 0, 0, 0);
  sym(17, 0x1030, 0x10, 0x12, 1);
  e.secs.push_back({".dynsym", 11, 2, 0, dynoff, e.b.size() - dynoff, static_cast<uint64_t>(is64 ? 24 : 16),
                    static_cast<uint32_t>(strtab_index), 1});
  // build-id note
  e.Align(4);
  size_t note = e.b.size();
  e.N(4, 4); e.N(4, 4); e.N(3, 4);
  for (char c : std::string("GNU\0", 4)) e.b.push_back(static_cast<uint8_t>(c));
  for (uint8_t c : {0xde, 0xad, 0xbe, 0xef}) e.b.push_back(c);
  e.secs.push_back({".note.gnu.build-id", 7, 2, 0, note, e.b.size() - note, 0, 0, 0});
  // .gnu_debuglink
  size_t dl = e.b.size();
  for (char c : std::string("prog.debug\0\0", 12)) e.b.push_back(static_cast<uint8_t>(c));
  e.N(0x12345678, 4);
  e.secs.push_back({".gnu_debuglink", 1, 0, 0, dl, e.b.size() - dl, 0, 0, 0});
  // xray_instr_map at address 0x3000: sleds enter/exit of run, enter/exit of leaf
  e.Align(8);
  size_t xm = e.b.size();
  uint64_t xaddr = 0x3000;
  size_t ent = is64 ? 32 : 16, word = is64 ? 8 : 4;
  struct S { uint64_t addr, fn; uint8_t kind; } sleds[] = {{0x1002, 0x1000, 0}, {0x101e, 0x1000, 1}, {0x1022, 0x1020, 0}, {0x102e, 0x1020, 1}};
  std::vector<std::pair<uint64_t, uint64_t>> relocs;
  for (size_t i = 0; i < 4; ++i) {
    uint64_t here = xaddr + i * ent;
    if (sled_version >= 2) { e.A(sleds[i].addr - here); e.A(sleds[i].fn - here - word); }
    else { e.A(0); e.A(0); relocs.push_back({here, sleds[i].addr}); relocs.push_back({here + word, sleds[i].fn}); }
    e.b.push_back(sleds[i].kind); e.b.push_back(0); e.b.push_back(static_cast<uint8_t>(sled_version));
    e.b.resize(xm + (i + 1) * ent, 0);
  }
  e.secs.push_back({"xray_instr_map", 1, 2, xaddr, xm, 4 * ent, 0, 0, 0});
  if (!relocs.empty()) {
    e.Align(8);
    size_t ro = e.b.size();
    for (auto& [where, val] : relocs) {
      if (is64) { e.N(where, 8); e.N(8, 8); e.N(val, 8); }  // R_X86_64_RELATIVE
      else { e.N(where, 4); e.N(8, 4); e.N(val, 4); }       // R_386_RELATIVE (as RELA)
    }
    e.secs.push_back({".rela.dyn", 4, 2, 0, ro, e.b.size() - ro, static_cast<uint64_t>(is64 ? 24 : 12), 0, 0});
  }
  // .shstrtab
  std::string sh(1, '\0');
  std::vector<uint32_t> names;
  for (auto& s : e.secs) { names.push_back(static_cast<uint32_t>(sh.size())); sh += s.name; sh += '\0'; }
  uint32_t shname = static_cast<uint32_t>(sh.size());
  sh += ".shstrtab"; sh += '\0';
  size_t sho = e.b.size();
  e.b.insert(e.b.end(), sh.begin(), sh.end());
  e.secs.push_back({".shstrtab", 3, 0, 0, sho, sh.size(), 0, 0, 0});
  names.push_back(shname);
  // section headers: null + secs
  e.Align(8);
  size_t shoff = e.b.size();
  size_t shent = is64 ? 64 : 40;
  e.b.resize(e.b.size() + shent, 0);
  for (size_t i = 0; i < e.secs.size(); ++i) {
    auto& s = e.secs[i];
    e.N(names[i], 4); e.N(s.type, 4);
    e.A(s.flags); e.A(s.addr); e.A(s.off); e.A(s.size);
    e.N(s.link, 4); e.N(s.info, 4); e.A(1); e.A(s.entsize);
  }
  uint16_t shnum = static_cast<uint16_t>(e.secs.size() + 1);
  if (is64) { e.Put(0x28, shoff, 8); e.Put(0x3a, shent, 2); e.Put(0x3c, shnum, 2); e.Put(0x3e, shnum - 1, 2); }
  else { e.Put(0x20, shoff, 4); e.Put(0x2e, shent, 2); e.Put(0x30, shnum, 2); e.Put(0x32, shnum - 1, 2); }
  return e.b;
}

class ElfLayouts : public ::testing::TestWithParam<std::tuple<bool, bool>> {};

TEST_P(ElfLayouts, ReadsEverything) {
  auto [is64, big] = GetParam();
  for (int version : {2, 1}) {
    auto bytes = MakeElf(is64, big, version);
    ElfFile f = ReadElfBytes(bytes.data(), bytes.size());
    ASSERT_TRUE(f.ok);
    EXPECT_TRUE(f.problems.empty()) << f.problems.front();
    EXPECT_EQ(f.is64, is64);
    EXPECT_EQ(f.build_id, "deadbeef");
    EXPECT_EQ(f.debuglink, "prog.debug");
    EXPECT_EQ(f.debuglink_crc, 0x12345678u);
    ASSERT_EQ(f.funcs.size(), 3u);  // run, leaf, dynfn (not the object)
    EXPECT_EQ(f.funcs[0].name, "_Z3runiPPc");
    EXPECT_EQ(f.funcs[0].size, 0x20u);
    EXPECT_TRUE(f.funcs[2].dynamic);
    ASSERT_EQ(f.sleds.size(), 4u) << version;
    EXPECT_EQ(f.sleds[1].address, 0x101eu) << version;
    EXPECT_EQ(f.sleds[2].function, 0x1020u) << version;
    auto ids = XRayFunctionIds(f.sleds);
    ASSERT_EQ(ids.size(), 2u);
    EXPECT_EQ(ids[1], std::make_pair(2, uint64_t{0x1020}));
    Symbolizer s(f);
    EXPECT_EQ(s.Name(0x1010), "run(int, char**)");
    EXPECT_EQ(s.Name(0x102f), "leaf");
    EXPECT_EQ(s.Name(0x1035), "dynfn");
    EXPECT_EQ(s.Name(0x1040), "");
  }
}

TEST_P(ElfLayouts, EveryTruncation) {
  auto [is64, big] = GetParam();
  auto bytes = MakeElf(is64, big, 1);
  for (size_t n = 0; n < bytes.size(); ++n) {
    std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<long>(n));
    ElfFile f = ReadElfBytes(cut.data(), cut.size());
    EXPECT_FALSE(f.problems.empty()) << n;  // the section headers are at the end
  }
}

INSTANTIATE_TEST_SUITE_P(Classes, ElfLayouts, ::testing::Combine(::testing::Values(false, true), ::testing::Values(false, true)),
                         [](const auto& i) {
                           return std::string(std::get<0>(i.param) ? "Elf64" : "Elf32") + (std::get<1>(i.param) ? "Big" : "Little");
                         });

TEST(Elf, RealXRayBinaryFromTheCorpus) {
  fs::path p = fs::path(PROFSCOPE_SOURCE_DIR) / "tests/data/xray/fdr_calltree/xray_calltree";
  std::ifstream in(p, std::ios::binary);
  std::vector<uint8_t> b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(b.empty());
  ElfFile f = ReadElfBytes(b.data(), b.size());
  ASSERT_TRUE(f.ok);
  EXPECT_EQ(f.build_id, "30d50e4e48fd458b032314e9180ea4798aba9467");  // readelf -n
  EXPECT_EQ(f.sleds.size(), 0x240u / 32);                           // readelf -S: xray_instr_map size 0x240
  auto ids = XRayFunctionIds(f.sleds);
  ASSERT_EQ(ids.size(), 9u);  // instrmap.yaml (llvm-xray extract): ids 1..9
  EXPECT_EQ(ids[0].second, 0x21dc0u);
  Symbolizer s(f);
  EXPECT_EQ(s.Name(0x21dc0), "run(int, char**)");   // nm: _Z3runiPPc at 0x21dc0
  EXPECT_EQ(s.Name(0x21e30), "leaf_a(unsigned long)");
}

}  // namespace

// __cxa_demangle's text (GNU's runtime, whose demangler is libiberty's), the same in the WASM build, where
// the runtime's own demangler (libc++abi) recursed without a limit: a name nesting templates 2 000 deep
// (8 KB) ended the module. libiberty gives such names up (they stay mangled).
TEST(Demangle, GnuTextAndDeepNamesStayMangled) {
  EXPECT_EQ(Demangle("_Z3runiPPc"), "run(int, char**)");
  EXPECT_EQ(Demangle("_ZNSt6vectorIiSaIiEE9push_backERKi"), "std::vector<int, std::allocator<int> >::push_back(int const&)");
  EXPECT_EQ(Demangle("_ZN12_GLOBAL__N_14spinEv"), "(anonymous namespace)::spin()");
  EXPECT_EQ(Demangle("main"), "main");
  EXPECT_EQ(Demangle("_Znot a name"), "_Znot a name");
  for (const int n : {2000, 100000}) {
    std::string nested = "_Z1fI", chain = "_Z1f" + std::string(static_cast<size_t>(n), 'P') + "v";
    for (int i = 0; i < n; ++i) nested += "1aI";
    nested += "i" + std::string(static_cast<size_t>(n), 'E') + "Ev";
    EXPECT_EQ(Demangle(nested), nested);
    EXPECT_EQ(Demangle(chain), chain);
  }
}
