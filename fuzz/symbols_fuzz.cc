// libFuzzer target for the symbol readers: kallsyms text, perf's symbol
// rules (fixup_end, choose_best_symbol, kallsyms relocation and module
// split) and ELF symbol loading (symtab/dynsym, program headers, PLT) of
// hostile ELF files, and the .gnu_debuglink/build-id reading of the separate
// debug file search (debug_file_search.h) over a host with no files; a side
// folder's lazily read files (SymbolStore::AddFileLazily); a JIT's perf map. Seeded with the perf cases' binaries and fuzz/seeds/symbols_fuzz.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/format/elf/elf_reader.h"
#include "core/symbols/debug_file_search.h"
#include "core/symbols/elf_symbols.h"
#include "core/symbols/kallsyms.h"
#include "core/symbols/perf_map.h"
#include "core/symbols/symbol_store.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace profscope;
  symbols::Kallsyms k = symbols::ParseKallsyms(std::string_view(reinterpret_cast<const char*>(data), size));
  symbols::SymbolTable t;
  for (const auto& s : k.symbols) t.Add(s.addr, s.addr & 0xff, symbols::kStbGlobal, symbols::kSttFunc, s.name + s.module);
  t.Finish(true);
  for (const auto& s : k.symbols) (void)t.Find(s.addr + 1);
  elf::ElfFile f = elf::ReadElfBytes(data, size);
  if (f.ok) {
    symbols::SymbolTable e;
    symbols::ElfImage im{data, size, &f};
    symbols::LoadElfSymbols(im, im, symbols::ElfRole::kUser, e);
    symbols::SymbolTable v;
    symbols::LoadElfSymbols(im, im, symbols::ElfRole::kKernel, v);
  }
  symbols::SymbolStore st;
  MemorySource src(data, size);
  st.AddFile("kallsyms", src);
  int32_t kd = st.Dso("[kernel.kallsyms]", "", true);
  int32_t md = st.Dso("/lib/modules/x/ext4.ko", "", true);
  st.SetKernelMap("[kernel.kallsyms]_text", 0xffffffff81000000ull, ~0ull, 0xffffffff81000000ull);
  st.SetModuleMap(md, 0xffffffffc0000000ull);
  (void)st.Find(kd, 0xffffffff81000010ull);
  (void)st.Find(md, 0x10);
  uint64_t lo, hi;
  (void)st.KernelMapRange(&lo, &hi);
  st.Finish();
  // A side folder's files, read lazily: a binary matched by name and
  // by a build-id cache path, a compressed module (its bytes decompressed only then).
  {
    symbols::SymbolStore lazy;
    MemorySource a(data, size), b(data, size), c(data, size);
    lazy.AddFileLazily("bin/prog", a, "folder");
    lazy.AddFileLazily(".build-id/ab/cdef0123456789", b, "folder");
    lazy.AddFileLazily("lib/modules/x/ext4.ko.xz", c, "folder");
    int32_t u = lazy.Dso("/usr/bin/prog", "", false);
    int32_t id = lazy.Dso("/usr/bin/other", "abcdef0123456789", false);
    int32_t m = lazy.Dso("[ext4]", "", true);
    lazy.SetModuleMap(m, 0xffffffffc0000000ull);
    (void)lazy.Find(u, 0x1000);
    (void)lazy.Find(id, 0x1000);
    (void)lazy.Find(m, 0x10);
    lazy.Finish();
  }
  // A JIT's perf map: the text as /tmp/perf-PID.map, looked up in perf's tree.
  {
    for (const auto& s : symbols::ParsePerfMap(std::string_view(reinterpret_cast<const char*>(data), size))) (void)s;
    (void)symbols::LooksLikePerfMap(data, size);
    symbols::SymbolStore maps;
    MemorySource m(data, size);
    maps.AddFile("perf-42.map", m);
    int32_t d = maps.Dso("/tmp/perf-42.map", "", false);
    (void)maps.Find(d, 0x7f0000001000ull);
    (void)maps.Find(d, data && size >= 8 ? (uint64_t{data[0]} << 40 | uint64_t{data[size - 1]} << 8) : 0);
    maps.Finish();
  }
  struct NoFiles : symbols::FileAccess {
    std::unique_ptr<ByteSource> Open(const std::string&, std::string* e) override { *e = "none"; return nullptr; }
    bool IsDirectory(const std::string&) override { return false; }
  } none;
  MemorySource bin(data, size);
  (void)symbols::FindDebugFile("/usr/lib/x.so", bin, none);
  return 0;
}
