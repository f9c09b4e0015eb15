// The unwinder end to end on small worlds written here: an ELF file (PT_LOADs,
// .eh_frame_hdr, .eh_frame, a zlib- or zstd-compressed .debug_frame, code
// bytes with a PLT entry), synthetic modules, a stack copy and registers in
// perf's numbering. Every stop reason, perf's address rules (ip first, then
// return address - 1, exact after a signal frame), the stack-copy slot of each
// return address, perf + libunwind's edge rules (the copy's last word, a mapped
// unreadable word reads 0, x86_64's PLT and %rbp fallbacks), aarch64's pointer
// authentication, perf's and simpleperf's register numbering, and every
// truncation of the CFI (a stop reason, never a crash).
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <memory>

#ifdef PROFSCOPE_HAVE_ZLIB
#include <zlib.h>
#endif
#ifdef PROFSCOPE_HAVE_ZSTD
#include <zstd.h>
#endif

#include "core/format/elf/elf_layout.h"
#include "core/unwind/perf_registers.h"
#include "core/unwind/unwinder.h"
#include "tests/unit/cfi_test_builder.h"

using namespace profscope;
using namespace profscope::unwind;
using namespace profscope::unwind::test;

namespace {

constexpr uint64_t kBias = 0x400000;   // where the test binary is mapped
constexpr uint64_t kSp = 0x7ff000;     // the sample's stack pointer
constexpr uint64_t kStackFile = 0x9000;  // file offset of the stack copy in the "perf.data"

// x86_64 CFI of five functions (link-time addresses):
//   leaf  [0x1000,0x1040)  CFA = rsp+8, RA at CFA-8 (the CIE's rules)
//   mid   [0x1100,0x1180)  push %rbp at 0x1100: from 0x1101 CFA = rsp+16, rbp at CFA-16
//   root  [0x1200,0x1280)  RA undefined (the outermost frame)
//   sig   [0x12ff,0x1310)  a sigreturn trampoline ('S') at 0x1300: CFA = [rsp+160], rip at [rsp+168],
//                          rbp at [rsp+120]; like glibc's, its FDE starts one byte early so that the
//                          handler's return address - 1 finds it
//   stuck [0x1500,0x1510)  CFA = rsp+0, RA "same value": no progress
// Nothing covers 0x1400 (a PLT entry's bytes) or 0x1600 (code without CFI).
struct Cfi {
  Bytes eh, hdr;
  uint64_t eh_addr = 0x2100, hdr_addr = 0x2000;
};

Cfi MakeCfi(uint64_t eh_addr = 0x2100, uint64_t hdr_addr = 0x2000) {
  Cfi c;
  c.eh_addr = eh_addr;
  c.hdr_addr = hdr_addr;
  CfiBuilder b(ByteOrder::kLittle, true, eh_addr);
  CieSpec normal;
  size_t cie = b.Cie(normal, {kCfaDefCfa, 7, 8, kCfaOffset | 16, 1});
  CieSpec sig;
  sig.aug = "zRS";
  size_t scie = b.Cie(sig, {});
  b.Fde(cie, 0x1000, 0x40, {});
  b.Fde(cie, 0x1100, 0x80, {kCfaAdvanceLoc | 1, kCfaDefCfaOffset, 16, kCfaOffset | 6, 2});
  b.Fde(cie, 0x1200, 0x80, {kCfaUndefined, 16});
  const uint8_t breg7 = kOpBreg0 + 7;
  b.Fde(scie, 0x12ff, 0x11,
        Cat({{kCfaDefCfaExpression, 4, breg7}, S(160), {kOpDeref},
             {kCfaExpression, 16, 3, breg7}, S(168),
             {kCfaExpression, 6, 3, breg7}, S(120)}));
  b.Fde(cie, 0x1500, 0x10, {kCfaDefCfaOffset, 0, kCfaSameValue, 16});
  c.eh = b.Finish();
  c.hdr = b.Hdr(hdr_addr);
  return c;
}

// A small ELF64 (little-endian, x86_64) holding .text [0x1000,0x2000) (a PLT
// entry at 0x1400), .eh_frame_hdr at 0x2000, .eh_frame at 0x2100, and
// optionally a .debug_frame (compressed with `compression`: 0 none, 1 zlib, 2 zstd).
struct ElfSpec {
  bool with_hdr = true;
  bool with_eh = true;
  Bytes debug_frame;
  uint32_t compression = 0;
  bool lie_about_size = false;  // a compressed section declaring more than it inflates to
  std::string build_id = "0123456789abcdef0123456789abcdef01234567";
};

Bytes MakeElf(const Cfi& cfi, const ElfSpec& spec) {
  Bytes f(0x3000, 0);
  auto put = [&](size_t at, uint64_t v, int n) {
    for (int i = 0; i < n; ++i) f[at + static_cast<size_t>(i)] = static_cast<uint8_t>(v >> (8 * i));
  };
  // .text: a PLT entry (jmp *x(%rip); push $1; jmp ...) at 0x1400, nops elsewhere.
  for (size_t i = 0x1000; i < 0x2000; ++i) f[i] = 0x90;
  const uint8_t plt[] = {0xff, 0x25, 0xc2, 0x2f, 0, 0, 0x68, 1, 0, 0, 0, 0xe9, 0xd0, 0xff, 0xff, 0xff};
  std::memcpy(&f[0x1400], plt, sizeof plt);
  std::memcpy(&f[0x2000], cfi.hdr.data(), cfi.hdr.size());
  std::memcpy(&f[0x2100], cfi.eh.data(), cfi.eh.size());
  // Notes with the build-id at 0x2f00.
  put(0x2f00, 4, 4);
  put(0x2f04, spec.build_id.size() / 2, 4);
  put(0x2f08, 3, 4);
  std::memcpy(&f[0x2f0c], "GNU", 4);
  for (size_t i = 0; i < spec.build_id.size() / 2; ++i)
    f[0x2f10 + i] = static_cast<uint8_t>(std::stoi(spec.build_id.substr(2 * i, 2), nullptr, 16));
  // .debug_frame after the loaded part.
  uint64_t dbg_off = f.size(), dbg_size = 0;
  if (!spec.debug_frame.empty()) {
    Bytes body = spec.debug_frame;
    if (spec.compression) {
      Bytes comp(body.size() * 2 + 128);
      size_t n = 0;
#ifdef PROFSCOPE_HAVE_ZLIB
      if (spec.compression == 1) {
        uLongf len = comp.size();
        EXPECT_EQ(compress2(comp.data(), &len, body.data(), body.size(), 9), Z_OK);
        n = len;
      }
#endif
#ifdef PROFSCOPE_HAVE_ZSTD
      if (spec.compression == 2) n = ZSTD_compress(comp.data(), comp.size(), body.data(), body.size(), 3);
#endif
      comp.resize(n);
      Bytes chdr(24, 0);
      for (int i = 0; i < 4; ++i) chdr[static_cast<size_t>(i)] = static_cast<uint8_t>(spec.compression >> (8 * i));
      uint64_t declared = body.size() + (spec.lie_about_size ? 100 : 0);
      for (int i = 0; i < 8; ++i) chdr[8 + static_cast<size_t>(i)] = static_cast<uint8_t>(declared >> (8 * i));
      chdr[16] = 8;
      body = Cat({chdr, comp});
    }
    f.insert(f.end(), body.begin(), body.end());
    dbg_size = body.size();
  }
  // Section names.
  std::string names = std::string("\0.text\0.eh_frame_hdr\0.eh_frame\0.debug_frame\0.note.gnu.build-id\0.shstrtab\0", 78);
  uint64_t names_off = f.size();
  f.insert(f.end(), names.begin(), names.end());
  while (f.size() % 8) f.push_back(0);
  // Section headers: null, .text, [.eh_frame_hdr], [.eh_frame], [.debug_frame], .note, .shstrtab
  struct Sh { uint32_t name, type; uint64_t flags, addr, off, size; };
  std::vector<Sh> sh = {{0, 0, 0, 0, 0, 0}, {1, 1, 6, 0x1000, 0x1000, 0x1000}};
  if (spec.with_hdr) sh.push_back({7, 1, 2, 0x2000, 0x2000, cfi.hdr.size()});
  if (spec.with_eh) sh.push_back({21, 1, 2, cfi.eh_addr, 0x2100, cfi.eh.size()});
  if (dbg_size) sh.push_back({31, 1, spec.compression ? 0x800u : 0u, 0, dbg_off, dbg_size});
  sh.push_back({44, 7, 2, 0x2f00, 0x2f00, 0x10 + spec.build_id.size() / 2});
  sh.push_back({63, 3, 0, 0, names_off, names.size()});
  uint64_t shoff = f.size();
  for (const auto& s : sh) {
    Bytes e(64, 0);
    for (int i = 0; i < 4; ++i) { e[static_cast<size_t>(i)] = static_cast<uint8_t>(s.name >> (8 * i)); e[4 + static_cast<size_t>(i)] = static_cast<uint8_t>(s.type >> (8 * i)); }
    for (int i = 0; i < 8; ++i) {
      e[8 + static_cast<size_t>(i)] = static_cast<uint8_t>(s.flags >> (8 * i));
      e[16 + static_cast<size_t>(i)] = static_cast<uint8_t>(s.addr >> (8 * i));
      e[24 + static_cast<size_t>(i)] = static_cast<uint8_t>(s.off >> (8 * i));
      e[32 + static_cast<size_t>(i)] = static_cast<uint8_t>(s.size >> (8 * i));
    }
    f.insert(f.end(), e.begin(), e.end());
  }
  // ELF header and program headers (PT_LOAD of the first 0x3000 bytes, PT_GNU_EH_FRAME, PT_NOTE).
  f[0] = 0x7f; f[1] = 'E'; f[2] = 'L'; f[3] = 'F'; f[4] = 2; f[5] = 1; f[6] = 1;
  put(16, 3, 2);       // ET_DYN
  put(18, 62, 2);      // x86_64
  put(0x20, 64, 8);    // phoff
  put(0x28, shoff, 8);
  put(0x36, 56, 2);    // phentsize
  put(0x38, 3, 2);     // phnum
  put(0x3a, 64, 2);    // shentsize
  put(0x3c, sh.size(), 2);
  put(0x3e, sh.size() - 1, 2);  // shstrndx
  auto ph = [&](size_t i, uint32_t type, uint64_t off, uint64_t size) {
    size_t at = 64 + i * 56;
    put(at, type, 4); put(at + 4, 5, 4); put(at + 8, off, 8); put(at + 16, off, 8); put(at + 24, off, 8);
    put(at + 32, size, 8); put(at + 40, size, 8); put(at + 48, 0x1000, 8);
  };
  ph(0, elf::kPtLoad, 0, 0x3000);
  ph(1, spec.with_hdr ? elf::kPtGnuEhFrame : 0, 0x2000, cfi.hdr.size());
  ph(2, elf::kPtNote, 0x2f00, 0x10 + spec.build_id.size() / 2);
  return f;
}

// The process: the binary mapped at kBias (+0x1000, pgoff 0x1000), optionally
// a [stack] mapping without a file, and other mappings added by tests.
class World : public ModuleLookup {
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

// A stack copy of `words` 8-byte words starting at kSp.
struct Stack {
  std::vector<uint8_t> bytes;
  explicit Stack(size_t words) : bytes(words * 8, 0) {}
  void Set(uint64_t addr, uint64_t v) {
    for (int i = 0; i < 8; ++i) bytes[addr - kSp + static_cast<size_t>(i)] = static_cast<uint8_t>(v >> (8 * i));
  }
  StackCopy Copy(uint64_t dyn = ~uint64_t{0}) const {
    StackCopy c;
    c.data = bytes.data();
    c.size = bytes.size();
    c.dyn_size = dyn == ~uint64_t{0} ? bytes.size() : dyn;
    c.file_offset = kStackFile;
    return c;
  }
};

// perf's x86_64 register block for mask 0xff0fff (AX..SS, R8..R15): ip, sp, bp given.
std::vector<uint64_t> Regs(uint64_t ip, uint64_t sp, uint64_t bp = 0x1111) {
  std::vector<uint64_t> v(20, 0);
  v[6] = bp;
  v[7] = sp;
  v[8] = ip;
  return v;
}
constexpr uint64_t kMask = 0xff0fff;

struct Fixture : ::testing::Test {
  Cfi cfi = MakeCfi();
  Bytes elf_bytes = MakeElf(cfi, ElfSpec{});
  std::unique_ptr<MemorySource> src;
  std::unique_ptr<UnwindModule> module;
  World world;
  void SetUp() override {
    src = std::make_unique<MemorySource>(elf_bytes);
    module = UnwindModule::FromElf(*src, "prog");
    world.maps.push_back({kBias + 0x1000, kBias + 0x2000, 0x1000, module.get(), 7});
  }
  UnwindResult Run(const std::vector<uint64_t>& regs, const StackCopy& stack, UnwindOptions o = {}) {
    Unwinder u(o);
    UnwindResult r;
    u.Unwind(Arch::kX86_64, RegisterAbi::kPerf, kRegsAbi64, kMask, regs.data(), regs.size(), stack, world, &r);
    return r;
  }
  static std::vector<uint64_t> Addresses(const UnwindResult& r) {
    std::vector<uint64_t> a;
    for (const auto& f : r.frames) a.push_back(f.address);
    return a;
  }
};

using UnwinderTest = Fixture;

TEST_F(UnwinderTest, ElfModuleReadsItsLayout) {
  EXPECT_TRUE(module->elf().ok);
  EXPECT_EQ(module->build_id(), "0123456789abcdef0123456789abcdef01234567");
  EXPECT_TRUE(module->has_eh_frame_hdr());
  EXPECT_FALSE(module->has_debug_frame());
  uint64_t bias;
  ASSERT_TRUE(module->Bias(kBias + 0x1000, 0x1000, &bias));
  EXPECT_EQ(bias, kBias);
  uint64_t w;
  ASSERT_TRUE(module->ReadAddress(0x1400, 2, &w));
  EXPECT_EQ(w, 0x25ffu);
  EXPECT_FALSE(module->ReadAddress(0x5000, 8, &w));
}

TEST_F(UnwinderTest, ChainToTheOutermostFrameWithPerfsAddresses) {
  Stack st(8);
  st.Set(kSp, kBias + 0x1150);        // leaf's return address, into mid
  st.Set(kSp + 8, 0x2222);            // mid's saved %rbp
  st.Set(kSp + 16, kBias + 0x1250);   // mid's return address, into root
  UnwindResult r = Run(Regs(kBias + 0x1010, kSp), st.Copy());
  EXPECT_EQ(Addresses(r), (std::vector<uint64_t>{kBias + 0x1010, kBias + 0x114f, kBias + 0x124f}));
  EXPECT_EQ(r.stop, StopReason::kOutermost) << r.detail;
  ASSERT_EQ(r.frames.size(), 3u);
  EXPECT_EQ(r.frames[0].ra_slot, kNoSlot);
  EXPECT_EQ(r.frames[1].ra_slot, kStackFile + 0);
  EXPECT_EQ(r.frames[2].ra_slot, kStackFile + 16);
  EXPECT_EQ(r.frames[1].pc, kBias + 0x1150);
  for (const auto& f : r.frames) EXPECT_EQ(f.mapping, 7);
}

TEST_F(UnwinderTest, SignalFrameKeepsTheInterruptedPc) {
  // handler (leaf) returns into the trampoline; the trampoline's CFI finds
  // the interrupted context: pc 0x1150 (in mid, exact), rsp 0x7ff100.
  Stack st(64);
  st.Set(kSp, kBias + 0x1300);               // leaf's return address: the trampoline's first byte
  st.Set(kSp + 8 + 160, kSp + 0x100);        // sigcontext rsp
  st.Set(kSp + 8 + 168, kBias + 0x1150);     // sigcontext rip
  st.Set(kSp + 8 + 120, 0x3333);             // sigcontext rbp
  st.Set(kSp + 0x100 + 8, kBias + 0x1250);   // mid's return address
  UnwindResult r = Run(Regs(kBias + 0x1010, kSp), st.Copy());
  // The trampoline is reported at its return address - 1, as perf does (it
  // lands before __restore_rt's symbol); the interrupted mid at its exact pc.
  EXPECT_EQ(Addresses(r), (std::vector<uint64_t>{kBias + 0x1010, kBias + 0x12ff, kBias + 0x1150, kBias + 0x124f}));
  EXPECT_EQ(r.stop, StopReason::kOutermost) << r.detail;
}

TEST_F(UnwinderTest, MissingBinaryAndNoMapping) {
  Stack st(8);
  // The ip in a mapping whose binary was not given: the ip alone.
  world.maps.push_back({0x900000, 0x901000, 0, nullptr, 9});
  UnwindResult r = Run(Regs(0x900010, kSp), st.Copy());
  EXPECT_EQ(Addresses(r), (std::vector<uint64_t>{0x900010}));
  EXPECT_EQ(r.stop, StopReason::kMissingBinary);
  EXPECT_EQ(r.stop_mapping, 9);
  EXPECT_EQ(r.stop_pc, 0x900010u);
  // A caller in it: unwound up to that frame, which ends the stack.
  st.Set(kSp, 0x900100);
  r = Run(Regs(kBias + 0x1010, kSp), st.Copy());
  EXPECT_EQ(Addresses(r), (std::vector<uint64_t>{kBias + 0x1010, 0x9000ff}));
  EXPECT_EQ(r.stop, StopReason::kMissingBinary);
  EXPECT_EQ(r.stop_mapping, 9);
  // In no mapping at all.
  r = Run(Regs(0x123456, kSp), st.Copy());
  EXPECT_EQ(Addresses(r), (std::vector<uint64_t>{0x123456}));
  EXPECT_EQ(r.stop, StopReason::kNoMapping);
}

TEST_F(UnwinderTest, StackCopyTooSmall) {
  // A full 16-byte copy: mid's return address at sp+16 is past it. Without a
  // mapping there the read fails and unwinding stops at mid.
  Stack st(2);
  st.Set(kSp, kBias + 0x1150);
  UnwindResult r = Run(Regs(kBias + 0x1010, kSp), st.Copy());
  EXPECT_EQ(Addresses(r), (std::vector<uint64_t>{kBias + 0x1010, kBias + 0x114f}));
  EXPECT_EQ(r.stop, StopReason::kStackCopyEnd);
  EXPECT_EQ(r.stack_needed, 16u + 8 + 1);  // perf never reads the copy's last word
  EXPECT_NE(r.detail.find("stack copy"), std::string::npos);
  // A copy the kernel ended early (dyn_size < size: the top of the stack) was
  // not too small: what lies past it is not stack.
  Stack big(8);
  big.Set(kSp, kBias + 0x1150);
  r = Run(Regs(kBias + 0x1010, kSp), big.Copy(16));
  EXPECT_EQ(r.stop, StopReason::kUnreadableMemory);
  // With the stack mapped (perf: the [stack] map, whose file cannot be read),
  // the word reads as 0: perf shows 0xffffffffffffffff and stops there.
  world.maps.push_back({kSp - 0x10000, kSp + 0x10000, 0, nullptr, 3});
  r = Run(Regs(kBias + 0x1010, kSp), st.Copy());
  EXPECT_EQ(Addresses(r), (std::vector<uint64_t>{kBias + 0x1010, kBias + 0x114f, 0xffffffffffffffffULL}));
  EXPECT_EQ(r.stop, StopReason::kStackCopyEnd);
  EXPECT_EQ(r.stack_needed, 25u);
}

TEST_F(UnwinderTest, PerfNeverReadsTheLastWordOfTheCopy) {
  Stack st(3);
  st.Set(kSp, kBias + 0x1150);
  st.Set(kSp + 16, kBias + 0x1250);  // the copy's last word
  UnwindResult perf = Run(Regs(kBias + 0x1010, kSp), st.Copy());
  EXPECT_EQ(perf.frames.size(), 2u);
  EXPECT_EQ(perf.stop, StopReason::kStackCopyEnd);
  UnwindOptions plain;
  plain.perf_compatible = false;
  UnwindResult dwarf = Run(Regs(kBias + 0x1010, kSp), st.Copy(), plain);
  EXPECT_EQ(dwarf.frames.size(), 3u);
  EXPECT_EQ(dwarf.stop, StopReason::kOutermost);
}

TEST_F(UnwinderTest, DepthLimitNoProgressAndEmptyStack) {
  Stack st(8);
  st.Set(kSp, kBias + 0x1150);
  st.Set(kSp + 16, kBias + 0x1250);
  UnwindOptions o;
  o.max_frames = 2;
  UnwindResult r = Run(Regs(kBias + 0x1010, kSp), st.Copy(), o);
  EXPECT_EQ(r.frames.size(), 2u);
  EXPECT_EQ(r.stop, StopReason::kDepthLimit);
  // A frame whose rules change neither pc nor CFA.
  r = Run(Regs(kBias + 0x1505, kSp), st.Copy());
  EXPECT_EQ(r.frames.size(), 1u);
  EXPECT_EQ(r.stop, StopReason::kNoProgress);
  // dyn_size 0: perf takes no user frame at all.
  r = Run(Regs(kBias + 0x1010, kSp), st.Copy(0));
  EXPECT_TRUE(r.frames.empty());
  EXPECT_EQ(r.stop, StopReason::kEmptyStack);
  // abi NONE (a kernel thread): no registers.
  Unwinder u;
  std::vector<uint64_t> none;
  u.Unwind(Arch::kX86_64, RegisterAbi::kPerf, kRegsAbiNone, kMask, none.data(), 0, st.Copy(), world, &r);
  EXPECT_EQ(r.stop, StopReason::kNoRegisters);
  EXPECT_TRUE(r.frames.empty());
}

TEST_F(UnwinderTest, CfaNotIncreasingOnlyWhenAsked) {
  // A return address pointing back into leaf with the same CFA: perf goes on
  // until the depth cap (libunwind only checks pc and CFA together).
  Stack st(8);
  for (int i = 0; i < 8; ++i) st.Set(kSp + 8 * static_cast<uint64_t>(i), kBias + 0x1011);
  UnwindOptions strict;
  strict.require_cfa_increase = true;
  UnwindResult r = Run(Regs(kBias + 0x1010, kSp), st.Copy(), strict);
  EXPECT_EQ(r.stop, StopReason::kStackCopyEnd);  // every step moves up 8 bytes: fine until the copy ends
  // A frame whose CFA goes down (a hostile stack): strict mode stops.
  Cfi down;
  CfiBuilder b(ByteOrder::kLittle, true, 0x100000);
  // CFA = rsp - 8 (sleb 1 x data alignment -8), RA at CFA + 16 (sleb -2 x -8)
  size_t cie = b.Cie(CieSpec{}, {kCfaDefCfaSf, 7, 1, kCfaOffsetExtendedSf, 16, 0x7e});
  b.Fde(cie, 0x10000, 0x100, {});
  Bytes eh = b.Finish();
  auto m = UnwindModule::FromEhFrame("down", ByteOrder::kLittle, 8, eh, 0x100000, {}, 0);
  world.maps.push_back({0x10000, 0x10100, 0x10000, m.get(), 5});
  st.Set(kSp + 8, 0x10020);
  r = Run(Regs(0x10010, kSp), st.Copy(), strict);
  EXPECT_EQ(r.stop, StopReason::kCfaNotIncreasing);
  EXPECT_EQ(r.frames.size(), 1u);
}

TEST_F(UnwinderTest, RegistersTheSampleLacks) {
  // mid's CFA rule after `mov %rsp,%rbp` style CFI needs %rbp: give a module whose CFA is rbp-based.
  CfiBuilder b(ByteOrder::kLittle, true, 0x100000);
  size_t cie = b.Cie(CieSpec{}, {kCfaDefCfa, 6, 16, kCfaOffset | 16, 1});
  b.Fde(cie, 0x20000, 0x100, {});
  Bytes eh = b.Finish();
  auto m = UnwindModule::FromEhFrame("rbp", ByteOrder::kLittle, 8, eh, 0x100000, {}, 0);
  world.maps.push_back({0x20000, 0x20100, 0x20000, m.get(), 6});
  Stack st(8);
  // The mask without BP (bit 6): the CFA rule cannot be evaluated.
  std::vector<uint64_t> v(19, 0);
  v[6] = kSp;    // SP (bits 0..5 AX..DI, then SP at index 6 since BP is left out)
  v[7] = 0x20010;  // IP
  Unwinder u;
  UnwindResult r;
  u.Unwind(Arch::kX86_64, RegisterAbi::kPerf, kRegsAbi64, kMask & ~uint64_t{1 << 6}, v.data(), v.size(), st.Copy(), world, &r);
  ASSERT_EQ(r.frames.size(), 1u);
  EXPECT_EQ(r.frames[0].address, 0x20010u);
  EXPECT_EQ(r.stop, StopReason::kRegisterUnknown) << r.detail;
}

TEST_F(UnwinderTest, X86FallbacksWhereNoFdeCovers) {
  // A PLT entry (no FDE): the return address at the CFA, CFA + 8.
  Stack st(8);
  st.Set(kSp, kBias + 0x1250);
  UnwindResult r = Run(Regs(kBias + 0x1400, kSp), st.Copy());
  EXPECT_EQ(Addresses(r), (std::vector<uint64_t>{kBias + 0x1400, kBias + 0x124f}));
  EXPECT_EQ(r.stop, StopReason::kOutermost);
  // Code without CFI: the %rbp chain ([rbp] = caller's rbp, [rbp+8] = return address).
  Stack ch(8);
  ch.Set(kSp + 16, 0x4444);
  ch.Set(kSp + 24, kBias + 0x1250);
  r = Run(Regs(kBias + 0x1600, kSp, kSp + 16), ch.Copy());
  EXPECT_EQ(Addresses(r), (std::vector<uint64_t>{kBias + 0x1600, kBias + 0x124f}));
  // %rbp too far above the CFA (> 0x4000): no guess.
  r = Run(Regs(kBias + 0x1600, kSp, kSp + 0x5000), ch.Copy());
  EXPECT_EQ(r.frames.size(), 1u);
  EXPECT_EQ(r.stop, StopReason::kNoFde);
  // Without perf's rules: no FDE is the end.
  UnwindOptions plain;
  plain.perf_compatible = false;
  r = Run(Regs(kBias + 0x1400, kSp), st.Copy(), plain);
  EXPECT_EQ(r.frames.size(), 1u);
  EXPECT_EQ(r.stop, StopReason::kNoFde);
}

TEST(UnwinderModules, CompressedDebugFrame) {
  // No .eh_frame_hdr / .eh_frame: the CFI is only in a compressed .debug_frame.
  CfiBuilder b(ByteOrder::kLittle, false, 0);
  CieSpec spec;
  spec.aug = "";
  spec.version = 3;
  size_t cie = b.Cie(spec, {kCfaDefCfa, 7, 8, kCfaOffset | 16, 1});
  b.Fde(cie, 0x1000, 0x40, {});
  b.Fde(cie, 0x1200, 0x80, {kCfaUndefined, 16});
  Bytes dbg = b.Finish();
  Cfi cfi = MakeCfi();
  for (uint32_t comp : {0u, 1u, 2u}) {
    for (bool lie : {false, true}) {
      if (comp == 0 && lie) continue;
      ElfSpec es;
      es.with_hdr = false;
      es.with_eh = false;
      es.debug_frame = dbg;
      es.compression = comp;
      es.lie_about_size = lie;
      Bytes elf = MakeElf(cfi, es);
      MemorySource src(elf);
      auto m = UnwindModule::FromElf(src, "dbg");
      World w;
      w.maps.push_back({kBias + 0x1000, kBias + 0x2000, 0x1000, m.get(), 1});
      Stack st(4);
      st.Set(kSp, kBias + 0x1250);
      std::vector<uint64_t> regs = Regs(kBias + 0x1010, kSp);
      Unwinder u;
      UnwindResult r;
      u.Unwind(Arch::kX86_64, RegisterAbi::kPerf, kRegsAbi64, kMask, regs.data(), regs.size(), st.Copy(), w, &r);
      if (lie) {
        // A section that inflates to less than it declares is refused, and said so.
        EXPECT_EQ(r.stop, StopReason::kNoUnwindInfo) << comp;
        EXPECT_NE(m->cfi_problem().find("declared"), std::string::npos) << m->cfi_problem();
        continue;
      }
      EXPECT_TRUE(m->has_debug_frame()) << comp << ": " << m->cfi_problem();
      ASSERT_EQ(r.frames.size(), 2u) << comp << ": " << StopReasonName(r.stop) << " " << r.detail;
      EXPECT_EQ(r.frames[1].address, kBias + 0x124f);
      EXPECT_EQ(r.stop, StopReason::kOutermost);
    }
  }
}

TEST(UnwinderModules, EhFrameWithoutHeaderIsPerfsBlindSpot) {
  // perf finds .eh_frame only through .eh_frame_hdr; the plain DWARF mode indexes it.
  Cfi cfi = MakeCfi();
  ElfSpec es;
  es.with_hdr = false;
  Bytes elf = MakeElf(cfi, es);
  MemorySource src(elf);
  auto m = UnwindModule::FromElf(src, "nohdr");
  World w;
  w.maps.push_back({kBias + 0x1000, kBias + 0x2000, 0x1000, m.get(), 1});
  Stack st(4);
  st.Set(kSp, kBias + 0x1250);
  std::vector<uint64_t> regs = Regs(kBias + 0x1010, kSp);
  for (bool perf : {true, false}) {
    UnwindOptions o;
    o.perf_compatible = perf;
    Unwinder u(o);
    UnwindResult r;
    u.Unwind(Arch::kX86_64, RegisterAbi::kPerf, kRegsAbi64, kMask, regs.data(), regs.size(), st.Copy(), w, &r);
    if (perf) {
      EXPECT_EQ(r.frames.size(), 1u);
      EXPECT_EQ(r.stop, StopReason::kNoUnwindInfo);
    } else {
      EXPECT_EQ(r.frames.size(), 2u);
      EXPECT_EQ(r.stop, StopReason::kOutermost);
    }
  }
}

TEST(UnwinderModules, SyntheticModuleFromJitUnwindingInfo) {
  // A jit dump's JIT_CODE_UNWINDING_INFO: .eh_frame then .eh_frame_hdr for code at 0x7f0000001000.
  const uint64_t code = 0x7f0000001000, eh_at = code + 0x100, hdr_at = code + 0x400;
  CfiBuilder b(ByteOrder::kLittle, true, eh_at);
  size_t cie = b.Cie(CieSpec{}, {kCfaDefCfa, 7, 8, kCfaOffset | 16, 1});
  b.Fde(cie, code, 0x80, {kCfaAdvanceLoc | 4, kCfaDefCfaOffset, 16});
  Bytes eh = b.Finish();
  Bytes hdr = b.Hdr(hdr_at);
  auto m = UnwindModule::FromEhFrame("jitted", ByteOrder::kLittle, 8, eh, eh_at, hdr, hdr_at);
  EXPECT_TRUE(m->synthetic());
  EXPECT_TRUE(m->has_eh_frame_hdr());
  World w;
  w.maps.push_back({code, code + 0x80, code, m.get(), 4});  // file offset = link address
  Stack st(4);
  st.Set(kSp + 8, 0x77);  // nothing mapped there: the second step has no mapping
  std::vector<uint64_t> regs = Regs(code + 0x10, kSp);
  Unwinder u;
  UnwindResult r;
  u.Unwind(Arch::kX86_64, RegisterAbi::kPerf, kRegsAbi64, kMask, regs.data(), regs.size(), st.Copy(), w, &r);
  ASSERT_EQ(r.frames.size(), 2u) << StopReasonName(r.stop) << " " << r.detail;
  EXPECT_EQ(r.frames[1].address, 0x76u);
  EXPECT_EQ(r.frames[1].ra_slot, kStackFile + 8);
  EXPECT_EQ(r.stop, StopReason::kNoMapping);
}

TEST(UnwinderModules, EveryTruncationOfTheCfiStopsCleanly) {
  Cfi cfi = MakeCfi();
  Stack st(64);
  st.Set(kSp, kBias + 0x1300);
  st.Set(kSp + 8 + 160, kSp + 0x100);
  st.Set(kSp + 8 + 168, kBias + 0x1150);
  st.Set(kSp + 0x108, kBias + 0x1250);
  std::vector<uint64_t> regs = Regs(kBias + 0x1010, kSp);
  for (bool with_hdr : {true, false}) {
    for (size_t n = 0; n <= cfi.eh.size(); ++n) {
      Bytes eh(cfi.eh.begin(), cfi.eh.begin() + static_cast<long>(n));
      auto m = UnwindModule::FromEhFrame("cut", ByteOrder::kLittle, 8, eh, cfi.eh_addr,
                                         with_hdr ? cfi.hdr : Bytes{}, cfi.hdr_addr);
      World w;
      w.maps.push_back({kBias + 0x1000, kBias + 0x2000, 0x1000, m.get(), 1});
      UnwindOptions o;
      o.perf_compatible = with_hdr;
      Unwinder u(o);
      UnwindResult r;
      u.Unwind(Arch::kX86_64, RegisterAbi::kPerf, kRegsAbi64, kMask, regs.data(), regs.size(), st.Copy(), w, &r);
      ASSERT_GE(r.frames.size(), 1u);
      EXPECT_LE(r.frames.size(), 4u);
      if (n == cfi.eh.size()) EXPECT_EQ(r.stop, StopReason::kOutermost);
      else EXPECT_NE(r.stop, StopReason::kDepthLimit) << n;
    }
  }
}

TEST(UnwinderArch, Aarch64WithPointerAuthentication) {
  // foo: paciasp; stp x29, x30, [sp, #-16]!  CFA = sp + 16, x29 at CFA-16, x30 at CFA-8, RA signed.
  CfiBuilder b(ByteOrder::kLittle, true, 0x100000);
  CieSpec spec;
  spec.ra = 30;
  spec.data_align = -4;
  spec.code_align = 4;
  size_t cie = b.Cie(spec, {kCfaDefCfa, 31, 0});
  b.Fde(cie, 0x1000, 0x100, {kCfaAdvanceLoc | 1, kCfaGnuWindowSave, kCfaAdvanceLoc | 1, kCfaDefCfaOffset, 16,
                             kCfaOffset | 29, 4, kCfaOffset | 30, 2});
  b.Fde(cie, 0x2000, 0x100, {kCfaUndefined, 30});
  Bytes eh = b.Finish();
  Bytes hdr = b.Hdr(0x200000);
  auto m = UnwindModule::FromEhFrame("a64", ByteOrder::kLittle, 8, eh, 0x100000, hdr, 0x200000);
  World w;
  w.maps.push_back({0x1000, 0x3000, 0x1000, m.get(), 2});
  Stack st(4);
  st.Set(kSp, 0x5555);                              // x29
  st.Set(kSp + 8, 0x002a000000002010ULL);           // x30 with a PAC in the top bits
  // perf's arm64 registers: x0..x30, sp (31), pc (32).
  std::vector<uint64_t> v(33, 0);
  v[29] = kSp;
  v[30] = 0x9999;
  v[31] = kSp;
  v[32] = 0x1010;
  Unwinder u;
  UnwindResult r;
  u.Unwind(Arch::kAarch64, RegisterAbi::kPerf, kRegsAbi64, (uint64_t{1} << 33) - 1, v.data(), v.size(), st.Copy(), w, &r);
  ASSERT_EQ(r.frames.size(), 2u) << StopReasonName(r.stop) << " " << r.detail;
  EXPECT_EQ(r.frames[0].address, 0x1010u);
  EXPECT_EQ(r.frames[1].address, 0x200fu);  // PAC stripped, then - 1
  EXPECT_EQ(r.stop, StopReason::kOutermost);
}

TEST(PerfRegisters, NumberingsOfEveryArchitecture) {
  RegisterFile f;
  Arch task;
  // x86_64, mask 0xff0fff: AX BX CX DX SI DI BP SP IP FLAGS CS SS, R8..R15.
  std::vector<uint64_t> v;
  for (uint64_t i = 0; i < 20; ++i) v.push_back(100 + i);
  ASSERT_TRUE(MapUserRegisters(RegisterAbi::kPerf, Arch::kX86_64, kRegsAbi64, 0xff0fff, v.data(), v.size(), &task, &f));
  EXPECT_EQ(task, Arch::kX86_64);
  EXPECT_EQ(f.value[0], 100u);  // rax
  EXPECT_EQ(f.value[3], 101u);  // rbx
  EXPECT_EQ(f.value[2], 102u);  // rcx
  EXPECT_EQ(f.value[1], 103u);  // rdx
  EXPECT_EQ(f.value[6], 106u);  // rbp
  EXPECT_EQ(f.value[7], 107u);  // rsp
  EXPECT_EQ(f.value[16], 108u); // rip
  EXPECT_EQ(f.value[8], 112u);  // r8 (after FLAGS CS SS)
  EXPECT_EQ(f.value[15], 119u); // r15
  // A 32-bit task on x86_64: i386 numbering, values truncated to 32 bits.
  std::vector<uint64_t> v32 = {1, 2, 3, 4, 5, 6, 7, 0x1'0000'0008ULL, 9};
  ASSERT_TRUE(MapUserRegisters(RegisterAbi::kPerf, Arch::kX86_64, kRegsAbi32, 0x1ff, v32.data(), v32.size(), &task, &f));
  EXPECT_EQ(task, Arch::kI386);
  EXPECT_EQ(f.value[4], 8u);  // esp
  EXPECT_EQ(f.value[5], 7u);  // ebp
  EXPECT_EQ(f.value[8], 9u);  // eip
  EXPECT_EQ(f.value[1], 3u);  // ecx
  // arm (32-bit kernel): r0..r15 as recorded.
  std::vector<uint64_t> a(16);
  for (uint64_t i = 0; i < 16; ++i) a[i] = i;
  ASSERT_TRUE(MapUserRegisters(RegisterAbi::kPerf, Arch::kArm, kRegsAbi32, 0xffff, a.data(), a.size(), &task, &f));
  EXPECT_EQ(task, Arch::kArm);
  EXPECT_EQ(f.value[13], 13u);
  EXPECT_EQ(f.value[15], 15u);
  // A 32-bit task on arm64 recorded by simpleperf: its pc is in the arm64 PC slot (32).
  std::vector<uint64_t> c(34, 0);
  for (uint64_t i = 0; i < 34; ++i) c[i] = 1000 + i;
  ASSERT_TRUE(MapUserRegisters(RegisterAbi::kSimpleperf, Arch::kAarch64, kRegsAbi32, (uint64_t{1} << 33) - 1, c.data(), 33, &task, &f));
  EXPECT_EQ(task, Arch::kArm);
  EXPECT_EQ(f.value[15], 1032u);
  EXPECT_EQ(f.value[13], 1013u);
  ASSERT_TRUE(MapUserRegisters(RegisterAbi::kPerf, Arch::kAarch64, kRegsAbi32, (uint64_t{1} << 33) - 1, c.data(), 33, &task, &f));
  EXPECT_EQ(f.value[15], 1015u);  // perf: the kernel's compat pc at index 15
  // Counts that do not match the mask, and abi NONE.
  EXPECT_FALSE(MapUserRegisters(RegisterAbi::kPerf, Arch::kX86_64, kRegsAbi64, 0xff0fff, v.data(), 3, &task, &f));
  EXPECT_FALSE(MapUserRegisters(RegisterAbi::kPerf, Arch::kX86_64, kRegsAbiNone, 0xff0fff, v.data(), 0, &task, &f));
  Arch arch;
  EXPECT_TRUE(ArchFromName("x86_64", &arch));
  EXPECT_EQ(arch, Arch::kX86_64);
  EXPECT_TRUE(ArchFromName("armv7l", &arch));
  EXPECT_EQ(arch, Arch::kArm);
  EXPECT_TRUE(ArchFromName("aarch64", &arch));
  EXPECT_TRUE(ArchFromName("i686", &arch));
  EXPECT_EQ(arch, Arch::kI386);
  EXPECT_FALSE(ArchFromName("riscv64", &arch));
}

TEST(ElfLayoutTest, TruncatedAndDamagedFiles) {
  Cfi cfi = MakeCfi();
  Bytes elf = MakeElf(cfi, ElfSpec{});
  for (size_t n = 0; n < elf.size(); n += 7) {
    MemorySource src(elf.data(), n);
    elf::ElfLayout l = elf::ReadElfLayout(src);
    if (n < 64) EXPECT_FALSE(l.ok) << n;
    auto m = UnwindModule::FromElf(src, "cut");
    uint64_t w;
    m->ReadAddress(0x1400, 8, &w);
    UnwindModule::FdeHit hit;
    CfiError e;
    uint64_t at;
    m->FindFde(0x1010, false, &hit, &e, &at);  // never crashes
  }
}

}  // namespace
