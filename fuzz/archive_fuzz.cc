// libFuzzer target for side-file archives: the tar reader over every
// decompressor (by content) with small budgets, then the symbol store's
// intake of the same bytes (tarball, ELF or kallsyms). Seeded with the perf
// cases' files (perf archive tarballs). Never a crash, a hang or memory past
// the budgets.
#include <cstddef>
#include <cstdint>

#include "core/archive/tar_reader.h"
#include "core/symbols/symbol_store.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace profscope;
  MemorySource src(data, size);
  Window w(src, 4096);
  archive::TarOptions opt;
  opt.max_stream_bytes = 8u << 20;
  opt.max_kept_bytes = 2u << 20;
  archive::TarResult r = archive::ReadTarFile(w, opt);
  for (const auto& p : r.problems) (void)p;
  symbols::SymbolStore st;
  st.tar_options().max_stream_bytes = 8u << 20;
  st.tar_options().max_kept_bytes = 2u << 20;
  st.AddFile("input", src);
  int32_t d = st.Dso("/some/prog", "", false);
  int32_t k = st.Dso("[kernel.kallsyms]", "", true);
  st.SetKernelMap("[kernel.kallsyms]_text", 0xffffffff81000000ull, ~0ull, 0xffffffff81000000ull);
  for (uint64_t a = 0; a < 0x4000; a += 0x100) (void)st.Find(d, a);
  (void)st.Find(k, 0xffffffff81000100ull);
  st.Finish();
  return 0;
}
