// JitUnwind: a jit dump's JIT_CODE_UNWINDING_INFO records as unwind tables of
// the CODE_LOAD after them (perf inject --jit's jitted-PID-N.so layout), found
// by address and time in the recorded perf.data or by the jitted .so's name
// in perf inject --jit's output; both byte orders.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/format/perf/perf_jit_unwind.h"
#include "tests/unit/cfi_test_builder.h"
#include "tests/unit/jit_test_writer.h"

namespace {

using profscope::ByteOrder;
using profscope::MemorySource;
using profscope::SideFile;
using profscope::Window;
using profscope::jitdump::test::JitWriter;
using profscope::perf::JitEhFrameAddress;
using profscope::perf::JitUnwind;
using profscope::perf::kJitTextOffset;
namespace jd = profscope::jitdump;
namespace ut = profscope::unwind::test;
namespace uw = profscope::unwind;

constexpr uint32_t kPid = 4242;
constexpr uint64_t kCode = 0x7f0000001000, kSize = 0x44;

// UNWINDING_INFO for a code of kSize bytes (its .eh_frame and .eh_frame_hdr
// at their places in the jitted .so's layout), then:
//   load 1 at kCode (time 100): has the tables;
//   load 2 at kCode + 0x1000 (time 200): no UNWINDING_INFO before it;
//   an UNWINDING_INFO without eh_frame_hdr, then load 3 (time 300): perf
//   ignores such data, so it has none either;
//   move of code 1 to kCode + 0x8000 (time 400).
std::vector<uint8_t> Dump(bool big) {
  const ByteOrder order = big ? ByteOrder::kBig : ByteOrder::kLittle;
  const uint64_t eh_at = JitEhFrameAddress(kSize);
  ut::CfiBuilder b(order, true, eh_at);
  size_t cie = b.Cie(ut::CieSpec{}, {uw::kCfaDefCfa, 7, 8, uw::kCfaOffset | 16, 1});
  b.Fde(cie, kJitTextOffset, kSize, {uw::kCfaAdvanceLoc | 4, uw::kCfaDefCfaOffset, 16});
  const ut::Bytes eh = b.Finish();
  const ut::Bytes hdr = b.Hdr(eh_at + eh.size());

  JitWriter w(big);
  w.Header(1, kPid);
  w.Begin(jd::kCodeUnwindingInfo, 90);
  w.U64(eh.size() + hdr.size());
  w.U64(hdr.size());
  w.U64(eh.size() + hdr.size());
  for (uint8_t c : eh) w.Bytes(1, c);
  for (uint8_t c : hdr) w.Bytes(1, c);
  w.End(3);
  w.CodeLoad(100, kPid, kCode, kSize, 1, "JS:*hot a.js:1:1");
  w.CodeLoad(200, kPid, kCode + 0x1000, kSize, 2, "JS:~cold a.js:9:1");
  w.Begin(jd::kCodeUnwindingInfo, 290);
  w.U64(16);
  w.U64(0);
  w.U64(16);
  w.Bytes(16, 0);
  w.End();
  w.CodeLoad(300, kPid, kCode + 0x2000, kSize, 3, "JS:~other a.js:20:1");
  w.Begin(jd::kCodeMove, 400);
  w.U32(kPid); w.U32(kPid); w.U64(kCode); w.U64(kCode); w.U64(kCode + 0x8000); w.U64(kSize); w.U64(1);
  w.End();
  return w.bytes();
}

class JitUnwindTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    bytes_ = Dump(GetParam());
    src_ = std::make_unique<MemorySource>(bytes_);
    win_ = std::make_unique<Window>(*src_);
    jit_.Add({SideFile{"/tmp/jit-4242.dump", "jitdump", win_.get()}});
  }
  // The hit's module has an FDE for the process address `pc`.
  static bool Covers(const JitUnwind::Hit& h, uint64_t pc) {
    uw::UnwindModule::FdeHit fde;
    uw::CfiError e{};
    uint64_t at = 0;
    return h.module && h.module->FindFde(pc - h.bias, false, &fde, &e, &at) == uw::UnwindModule::FdeStatus::kFound;
  }
  std::vector<uint8_t> bytes_;
  std::unique_ptr<MemorySource> src_;
  std::unique_ptr<Window> win_;
  JitUnwind jit_;
};

TEST_P(JitUnwindTest, CodeWithTablesIsFoundByAddressAndTime) {
  ASSERT_FALSE(jit_.empty());
  EXPECT_TRUE(jit_.Unwinds(kPid));
  JitUnwind::Hit h;
  ASSERT_TRUE(jit_.Find(kPid, kCode + 0x10, 150, true, &h));
  EXPECT_EQ(h.bias, kCode - kJitTextOffset);
  EXPECT_EQ(h.dump, "/tmp/jit-4242.dump");
  EXPECT_TRUE(Covers(h, kCode + 0x10));
  EXPECT_FALSE(Covers(h, kCode + kSize + 4));  // past the code
  // Before the load, in another process, past the code: no JIT code there.
  EXPECT_FALSE(jit_.Find(kPid, kCode + 0x10, 99, true, &h));
  EXPECT_FALSE(jit_.Find(kPid + 1, kCode + 0x10, 150, true, &h));
  EXPECT_FALSE(jit_.Find(kPid, kCode + 0x800, 150, true, &h));
  // Samples not on CLOCK_MONOTONIC cannot be compared with the dump's times.
  EXPECT_FALSE(jit_.Find(kPid, kCode + 0x10, 150, false, &h));
}

TEST_P(JitUnwindTest, CodeWithoutTablesIsJitCodeWithoutAModule) {
  JitUnwind::Hit h;
  ASSERT_TRUE(jit_.Find(kPid, kCode + 0x1010, 250, true, &h));
  EXPECT_EQ(h.module, nullptr);
  // An UNWINDING_INFO without .eh_frame_hdr is not used (perf's jit_repipe_code_load).
  ASSERT_TRUE(jit_.Find(kPid, kCode + 0x2010, 350, true, &h));
  EXPECT_EQ(h.module, nullptr);
}

TEST_P(JitUnwindTest, MovedCodeKeepsItsTablesAtTheNewAddress) {
  JitUnwind::Hit h;
  EXPECT_FALSE(jit_.Find(kPid, kCode + 0x10, 450, true, &h));  // moved away
  ASSERT_TRUE(jit_.Find(kPid, kCode + 0x8010, 450, true, &h));
  EXPECT_EQ(h.bias, kCode + 0x8000 - kJitTextOffset);
  EXPECT_TRUE(Covers(h, kCode + 0x8010));
}

TEST_P(JitUnwindTest, AMappingOfTheDumpTiesItToAnotherPid) {
  JitUnwind::Hit h;
  EXPECT_FALSE(jit_.Unwinds(777));
  jit_.Mapped(777, "/opt/x/jit-1.dump");  // another dump's file: no tie
  EXPECT_FALSE(jit_.Unwinds(777));
  jit_.Mapped(777, "/home/u/jit-4242.dump");  // (a container's pid namespace)
  EXPECT_TRUE(jit_.Unwinds(777));
  EXPECT_TRUE(jit_.Find(777, kCode + 0x10, 150, true, &h));
}

TEST_P(JitUnwindTest, PerfInjectJitMappingsAreTheDumpsCode) {
  JitUnwind::Hit h;
  ASSERT_TRUE(jit_.FindInjected("/run/jitted-4242-1.so", 0x5000, kJitTextOffset, &h));
  EXPECT_EQ(h.bias, 0x5000 - kJitTextOffset);
  EXPECT_TRUE(Covers(h, 0x5010));
  ASSERT_TRUE(jit_.FindInjected("/run/jitted-4242-2.so", 0x6000, kJitTextOffset, &h));
  EXPECT_EQ(h.module, nullptr);
  EXPECT_FALSE(jit_.FindInjected("/run/jitted-4242-9.so", 0x6000, kJitTextOffset, &h));  // no such load
  EXPECT_FALSE(jit_.FindInjected("/run/jitted-99-1.so", 0x6000, kJitTextOffset, &h));    // another process
  EXPECT_FALSE(jit_.FindInjected("/run/libjitted-4242-1.so", 0x6000, kJitTextOffset, &h));
}

INSTANTIATE_TEST_SUITE_P(ByteOrders, JitUnwindTest, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Big" : "Little"; });

TEST(JitUnwindNames, InjectedFileNames) {
  uint64_t index = 0;
  EXPECT_EQ(JitUnwind::InjectedPid("/opt/run/jitted-12629-2209.so", &index), 12629);
  EXPECT_EQ(index, 2209u);
  EXPECT_EQ(JitUnwind::InjectedPid("jitted-1-0.so", nullptr), 1);
  EXPECT_EQ(JitUnwind::InjectedPid("/opt/run/jitted-12629-*.so", nullptr), 12629);
  for (const char* bad : {"jitted-.so", "jitted-12-.so", "jitted--3.so", "jitted-1-2.so.1", "jitted-x-1.so",
                          "jitted-99999999999-1.so", "libfoo.so", "jit-12.dump"})
    EXPECT_EQ(JitUnwind::InjectedPid(bad, nullptr), -1) << bad;
  EXPECT_EQ(JitUnwind::InjectedGroup("/opt/run/jitted-12629-2209.so"), "/opt/run/jitted-12629-*.so");
  EXPECT_EQ(JitUnwind::InjectedGroup("/opt/run/jitted-12629-*.so"), "/opt/run/jitted-12629-*.so");
  EXPECT_EQ(JitUnwind::InjectedGroup("/usr/lib/libc.so.6"), "");
}

TEST(JitUnwindDamage, EveryTruncationOfTheDumpIsSafe) {
  const std::vector<uint8_t> full = Dump(false);
  for (size_t n = 0; n <= full.size(); ++n) {
    std::vector<uint8_t> cut(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n));
    MemorySource src(cut);
    Window win(src);
    JitUnwind jit;
    jit.Add({SideFile{"jit-4242.dump", "jitdump", &win}});
    JitUnwind::Hit h;
    jit.Find(kPid, kCode + 0x10, 150, true, &h);
    jit.FindInjected("jitted-4242-1.so", 0x5000, kJitTextOffset, &h);
  }
}

// A dump cut on disk after it was read (a JIT still writing it, a file replaced): the tables read later
// through its window read zeros from the cut, and the window says where it ended (the session reports
// that as file_changed), instead of a read that fails silently.
class ShrinkingSource : public profscope::ByteSource {
 public:
  explicit ShrinkingSource(const std::vector<uint8_t>& bytes) : bytes_(bytes), end_(bytes.size()) {}
  uint64_t size() const override { return bytes_.size(); }
  size_t Read(uint64_t offset, uint8_t* dst, size_t len) override {
    return offset >= end_ ? 0 : MemorySource(bytes_.data(), end_).Read(offset, dst, len);
  }
  void Cut(size_t end) { end_ = end; }

 private:
  const std::vector<uint8_t>& bytes_;
  size_t end_;
};

TEST(JitUnwindDamage, ADumpCutAfterItWasReadIsSaidByItsWindow) {
  const std::vector<uint8_t> full = Dump(false);
  for (const bool cut : {false, true}) {
    ShrinkingSource src(full);
    Window win(src, 64);  // (a small read-ahead: the tables are read again when their module is made)
    JitUnwind jit;
    jit.Add({SideFile{"jit-4242.dump", "jitdump", &win}});
    if (cut) src.Cut(100);  // inside the first UNWINDING_INFO's tables (from byte 80: the 40-byte header, its 40)
    JitUnwind::Hit h;
    ASSERT_TRUE(jit.Find(kPid, kCode + 0x10, 150, true, &h)) << cut;
    uw::UnwindModule::FdeHit fde;
    uw::CfiError e{};
    uint64_t at = 0;
    const bool found = h.module && h.module->FindFde(kCode + 0x10 - h.bias, false, &fde, &e, &at) ==
                                       uw::UnwindModule::FdeStatus::kFound;
    EXPECT_EQ(found, !cut);
    EXPECT_EQ(win.ended_at(), cut ? 100u : Window::kNotEnded);
  }
}

}  // namespace
