// The body of the unwind_fuzz libFuzzer target (fuzz/unwind_fuzz.cc), shared
// with the GoogleTest replay of fuzz/regressions/unwind_fuzz/
// (tests/unit/fuzz_regressions_test.cc): hostile CFI (.eh_frame /
// .eh_frame_hdr bytes, or a whole ELF file with compressed sections), hostile
// stack copies and registers, every architecture, perf's rules and plain
// DWARF. Loops in CFA programs and expressions, CIE pointers that point
// anywhere, enormous lengths and counts must end with a stop reason: no hang,
// no trap, no unbounded allocation.
//
// Input (libFuzzer FuzzedDataProvider layout, see Provider): from the back the
// flags (arch, perf rules, give .eh_frame_hdr, ELF mode, map a stack, strict),
// three blob lengths, the mapping's start and file offset, then register
// values; from the front the CFI blob (or ELF), the .eh_frame_hdr blob and the
// stack copy. fuzz/make_unwind_seeds.py writes the seeds.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/io/byte_source.h"
#include "core/unwind/unwinder.h"

namespace profscope::fuzz {

using namespace profscope::unwind;

// libFuzzer's FuzzedDataProvider, the two calls used here, written out so that
// the GoogleTest replay (no clang headers there) reads inputs the same way:
// blobs from the front, integers from the back (last byte most significant).
class Provider {
 public:
  Provider(const uint8_t* d, size_t n) : d_(d), n_(n) {}
  template <typename T>
  T ConsumeIntegral() {
    uint64_t v = 0;
    for (size_t i = 0; i < sizeof(T) && n_ > 0; ++i) v = (v << 8) | d_[--n_];
    return static_cast<T>(v);
  }
  template <typename T>
  std::vector<T> ConsumeBytes(size_t n) {
    n = n < n_ ? n : n_;
    std::vector<T> out(d_, d_ + n);
    d_ += n;
    n_ -= n;
    return out;
  }
  size_t remaining_bytes() const { return n_; }

 private:
  const uint8_t* d_;
  size_t n_;
};

namespace detail {

class Space : public ModuleLookup {
 public:
  struct Map { uint64_t start, end, pgoff; UnwindModule* module; int32_t id; };
  std::vector<Map> maps;
  bool Find(uint64_t a, ModuleHit* out) override {
    for (const auto& m : maps) {
      if (a < m.start || a >= m.end) continue;
      out->mapping = m.id;
      out->module = m.module;
      out->bias = 0;
      if (m.module && !m.module->Bias(m.start, m.pgoff, &out->bias)) out->module = nullptr;
      return true;
    }
    return false;
  }
};

}  // namespace detail

// One input: see the file comment. Returns 0.
inline int RunUnwindInput(const uint8_t* data, size_t size) {
  Provider in(data, size);
  const uint8_t flags = in.ConsumeIntegral<uint8_t>();
  const Arch arch = static_cast<Arch>(flags & 3);
  const bool perf = flags & 4;
  const bool give_hdr = flags & 8;
  const bool elf_mode = flags & 16;
  const bool map_stack = flags & 32;
  const uint16_t cfi_len = in.ConsumeIntegral<uint16_t>();
  const uint16_t hdr_len = in.ConsumeIntegral<uint16_t>();
  const uint16_t stack_len = in.ConsumeIntegral<uint16_t>();
  const uint64_t map_start = in.ConsumeIntegral<uint32_t>() & ~uint64_t{0xfff};
  const uint64_t pgoff = in.ConsumeIntegral<uint16_t>() & ~uint64_t{0xfff};
  std::vector<uint8_t> cfi = in.ConsumeBytes<uint8_t>(cfi_len);
  std::vector<uint8_t> hdr = in.ConsumeBytes<uint8_t>(hdr_len);
  std::vector<uint8_t> stack = in.ConsumeBytes<uint8_t>(stack_len);
  std::vector<uint64_t> regs;
  while (in.remaining_bytes() >= 8 && regs.size() < 64) regs.push_back(in.ConsumeIntegral<uint64_t>());

  MemorySource src(cfi);
  std::unique_ptr<UnwindModule> module;
  if (elf_mode) {
    module = UnwindModule::FromElf(src, "fuzz.elf");
  } else {
    const uint8_t asize = (arch == Arch::kI386 || arch == Arch::kArm) ? 4 : 8;
    module = UnwindModule::FromEhFrame("fuzz.jit", ByteOrder::kLittle, asize, cfi, map_start + 0x10000,
                                       give_hdr ? hdr : std::vector<uint8_t>{}, map_start + 0x20000);
  }
  detail::Space space;
  space.maps.push_back({map_start, map_start + 0x40000, pgoff, module.get(), 1});
  space.maps.push_back({0x10000, 0x20000, 0, nullptr, 2});  // a mapping without a binary
  // Registers in DWARF numbering: the first values, with sp pointing into the stack copy.
  RegisterFile rf;
  const ArchInfo& info = Info(arch);
  for (size_t i = 0; i < regs.size() && i < info.tracked; ++i) rf.Set(static_cast<unsigned>(i), regs[i]);
  const uint64_t sp = 0x7ff0000000ULL & (info.address_size == 4 ? 0xffffffffu : ~uint64_t{0});
  rf.Set(info.sp, sp);
  if (!rf.Has(info.pc)) rf.Set(info.pc, map_start + 0x100);
  if (map_stack) space.maps.push_back({sp - 0x1000, sp + 0x100000, 0, nullptr, 3});
  StackCopy sc;
  sc.data = stack.data();
  sc.size = stack.size();
  sc.dyn_size = stack.size();
  sc.file_offset = 0;
  // One unwinder per option set for the whole run (its row cache is large);
  // forgetting its rows each time, as modules die with the input.
  static std::unique_ptr<Unwinder> unwinders[4];
  const int which = (perf ? 1 : 0) | ((flags & 64) ? 2 : 0);
  if (!unwinders[which]) {
    UnwindOptions opt;
    opt.perf_compatible = perf;
    opt.require_cfa_increase = flags & 64;
    unwinders[which] = std::make_unique<Unwinder>(opt);
  }
  Unwinder& u = *unwinders[which];
  u.ClearCache();
  const UnwindOptions& o = u.options();
  UnwindResult r;
  u.Unwind(arch, rf, sc, space, &r);
  // Twice: the second run takes rows from the cache.
  u.Unwind(arch, rf, sc, space, &r);
  // Through perf's register numbering too.
  if (regs.size() >= 2) {
    u.Unwind(Arch::kX86_64, RegisterAbi::kPerf, regs[0] & 3, regs[1], regs.data() + 2, regs.size() - 2, sc, space, &r);
    u.Unwind(Arch::kAarch64, RegisterAbi::kSimpleperf, regs[0] & 3, regs[1], regs.data() + 2, regs.size() - 2, sc, space, &r);
  }
  if (r.frames.size() > o.max_frames) __builtin_trap();
  return 0;
}

}  // namespace profscope::fuzz
