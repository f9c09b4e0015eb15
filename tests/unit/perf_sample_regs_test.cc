// ParseSample keeps what the DWARF unwinder needs from a SAMPLE: the
// PERF_SAMPLE_REGS_USER abi, mask and values and the PERF_SAMPLE_STACK_USER
// copy's absolute offset, size and dyn_size, in both byte orders, and forgets
// them between samples; a copy or register block cut short fails cleanly.
#include <gtest/gtest.h>

#include "core/format/perf/perf_format.h"
#include "core/format/perf/perf_sample.h"
#include "tests/unit/perf_test_writer.h"

using namespace profscope;
using namespace profscope::perf;

namespace {

std::vector<uint8_t> Payload(ByteOrder o, const PerfEventAttr& a, uint64_t abi, size_t nregs, size_t stack,
                             uint64_t dyn) {
  PerfWriter w(o);
  w.U64(0x401234);  // ip
  w.U32(10);
  w.U32(11);        // pid, tid
  w.U64(abi);
  if (abi)
    for (size_t i = 0; i < nregs; ++i) w.U64(0x1000 + i);
  w.U64(stack);
  for (size_t i = 0; i < stack; ++i) w.U8(static_cast<uint8_t>(i));
  if (stack) w.U64(dyn);
  (void)a;
  return w.data();
}

TEST(PerfSampleRegs, RegistersAndStackCopyAreKept) {
  PerfEventAttr a;
  a.sample_type = kSampleIp | kSampleTid | kSampleRegsUser | kSampleStackUser;
  a.sample_regs_user = 0xff0fff;  // 20 registers
  for (ByteOrder o : {ByteOrder::kLittle, ByteOrder::kBig}) {
    std::vector<uint8_t> p = Payload(o, a, 2, 20, 64, 48);
    const uint64_t base = 1000;  // the payload's absolute offset in the file
    SampleData s;
    ASSERT_TRUE(ParseSample(ByteReader(p.data(), p.size(), base, o), a, &s, nullptr, nullptr));
    EXPECT_EQ(s.ip, 0x401234u);
    EXPECT_EQ(s.regs_user_abi, 2u);
    EXPECT_EQ(s.regs_user_mask, 0xff0fffu);
    ASSERT_EQ(s.regs_user.size(), 20u);
    EXPECT_EQ(s.regs_user[0], 0x1000u);
    EXPECT_EQ(s.regs_user[19], 0x1013u);
    EXPECT_EQ(s.regs_user_offset, base + 16);
    EXPECT_EQ(s.stack_user_size, 64u);
    EXPECT_EQ(s.stack_user_dyn_size, 48u);
    EXPECT_EQ(s.stack_user_offset, base + 16 + 8 + 160 + 8);
    EXPECT_EQ(p[s.stack_user_offset - base + 5], 5);
    // The next sample without registers (a kernel thread: abi 0) and without a copy forgets them.
    std::vector<uint8_t> q = Payload(o, a, 0, 0, 0, 0);
    ASSERT_TRUE(ParseSample(ByteReader(q.data(), q.size(), base, o), a, &s, nullptr, nullptr));
    EXPECT_EQ(s.regs_user_abi, 0u);
    EXPECT_TRUE(s.regs_user.empty());
    EXPECT_EQ(s.stack_user_size, 0u);
    EXPECT_EQ(s.stack_user_dyn_size, 0u);
    // Every cut inside the registers or the copy fails without keeping a half copy.
    for (size_t n = 16; n < p.size(); ++n) {
      SampleData c;
      Diagnostics d;
      EXPECT_FALSE(ParseSample(ByteReader(p.data(), n, base, o), a, &c, nullptr, &d)) << n;
      EXPECT_LE(c.regs_user.size(), 20u);
      EXPECT_EQ(c.stack_user_size, 0u) << n;
      EXPECT_FALSE(d.items().empty());
    }
  }
}

}  // namespace
