// gperftools CPU profile decoder on synthetic profiles: 32- and 64-bit words
// in both byte orders, the maps text with build= / $build, pprof's optional
// adjustments, and every truncation.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "core/api/session.h"

using profscope::MemorySource;
using profscope::Session;

namespace {

std::vector<uint8_t> Profile(int word, bool big) {
  std::vector<uint8_t> b;
  auto W = [&](uint64_t v) {
    for (int i = 0; i < word; ++i) {
      int sh = big ? (word - 1 - i) * 8 : i * 8;
      b.push_back(static_cast<uint8_t>(v >> sh));
    }
  };
  for (uint64_t v : {0, 3, 0, 10000, 0}) W(v);
  W(3); W(3); W(0x401010); W(0x402020); W(0x403030);  // 3 samples: leaf 0x401010
  W(1); W(2); W(0x401014); W(0x402020);
  W(0); W(1); W(0);                                    // trailer
  std::string maps =
      "build=/opt/app\n"
      "00400000-00404000 r-xp 00000000 08:01 123 $build/bin/prog\n"
      "7f0000000000-7f0000001000 r-xp 00001000 08:01 124 /lib/libc.so.6\n";
  b.insert(b.end(), maps.begin(), maps.end());
  return b;
}

struct Opened {
  std::vector<uint8_t> bytes;
  std::unique_ptr<MemorySource> src;
  std::unique_ptr<Session> s;
  bool ok;
};

std::unique_ptr<Opened> Open(std::vector<uint8_t> b, std::vector<std::pair<std::string, std::string>> opts = {}) {
  auto o = std::make_unique<Opened>();
  o->bytes = std::move(b);
  o->src = std::make_unique<MemorySource>(o->bytes.data(), o->bytes.size());
  o->s = std::make_unique<Session>(*o->src, "cpu.prof");
  for (auto& [k, v] : opts) o->s->SetOption(k, v);
  o->ok = o->s->Decode();
  return o;
}

class GperfLayouts : public ::testing::TestWithParam<std::tuple<int, bool>> {};

TEST_P(GperfLayouts, DecodesHeaderSamplesTrailerAndMaps) {
  auto [word, big] = GetParam();
  auto o = Open(Profile(word, big));
  ASSERT_TRUE(o->ok);
  const auto& r = o->s->result();
  EXPECT_EQ(r.format, "gperftools");
  EXPECT_EQ(r.byte_order, big ? "big" : "little");
  EXPECT_EQ(r.mode, word == 4 ? "32-bit" : "64-bit");
  size_t w = static_cast<size_t>(word);
  std::string want = "0\t" + std::to_string(5 * w) + "\theader\n" + std::to_string(5 * w) + "\t" + std::to_string(5 * w) +
                     "\tsample\n" + std::to_string(10 * w) + "\t" + std::to_string(4 * w) + "\tsample\n" +
                     std::to_string(14 * w) + "\t" + std::to_string(3 * w) + "\ttrailer\n" + std::to_string(17 * w) +
                     "\t" + std::to_string(o->bytes.size() - 17 * w) + "\tmaps\n";
  EXPECT_EQ(o->s->RecordsText(), want);
  EXPECT_EQ(o->s->StacksText(true, ""), "0x402020;0x401014 1\n0x403030;0x402020;0x401010 3\n");
  EXPECT_EQ(r.profile.samples.size(), 2u);  // one row per sample record, carrying its count
  EXPECT_EQ(r.profile.samples.Total(), 4u);
  ASSERT_EQ(r.profile.mappings.size(), 2u);
  EXPECT_EQ(r.profile.strings.Get(r.profile.mappings.path[0]), "/opt/app/bin/prog");  // $build substituted
  // PCs resolved to mapping + offset.
  EXPECT_NE(o->s->StacksText(false, "").find("/opt/app/bin/prog+0x1010"), std::string::npos);
  EXPECT_NE(o->s->RecordFieldsJson(1).find("/opt/app/bin/prog+0x1010"), std::string::npos);
  EXPECT_NE(o->s->RecordFieldsJson(4).find("after $build"), std::string::npos);
}

TEST_P(GperfLayouts, PprofAdjustmentsAreOptions) {
  auto [word, big] = GetParam();
  auto o = Open(Profile(word, big), {{"pc_minus_one", "1"}});
  ASSERT_TRUE(o->ok);
  EXPECT_EQ(o->s->StacksText(true, ""), "0x40201f;0x401014 1\n0x40302f;0x40201f;0x401010 3\n");
  auto s = Open(Profile(word, big), {{"strip_signal_frames", "1"}});
  // Both records share the second frame 0x402020: stripped from both.
  EXPECT_EQ(s->s->StacksText(true, ""), "0x401014 1\n0x403030;0x401010 3\n");
}

TEST_P(GperfLayouts, EveryTruncation) {
  auto [word, big] = GetParam();
  auto full = Profile(word, big);
  for (size_t n = 0; n < full.size(); ++n) {
    auto o = Open(std::vector<uint8_t>(full.begin(), full.begin() + static_cast<long>(n)));
    if (n < 5u * static_cast<size_t>(word)) {
      EXPECT_FALSE(o->ok) << n;
      continue;
    }
    o->s->RecordsText();
    o->s->StacksText(true, "");
    for (size_t r = 0; r < o->s->result().records.rows(); ++r) o->s->RecordFieldsJson(static_cast<int32_t>(r));
    if (n < 17u * static_cast<size_t>(word)) EXPECT_FALSE(o->s->result().diags.items().empty()) << n;
  }
}

INSTANTIATE_TEST_SUITE_P(Words, GperfLayouts,
                         ::testing::Combine(::testing::Values(4, 8), ::testing::Values(false, true)),
                         [](const auto& i) {
                           return std::to_string(std::get<0>(i.param) * 8) + (std::get<1>(i.param) ? "Big" : "Little");
                         });

// A record's count is kept as a count on its one sample row: a huge count costs nothing.
TEST(Gperf, HugeCountsAreOneRowEach) {
  auto b = Profile(8, false);
  b[40] = 0xff; b[41] = 0xff; b[42] = 0xff; b[43] = 0x7f;  // count of the first record ~ 2^31
  auto o = Open(b);
  ASSERT_TRUE(o->ok);
  const auto& smp = o->s->result().profile.samples;
  EXPECT_EQ(smp.size(), 2u);
  EXPECT_EQ(smp.Total(), 0x7fffffffu + 1u);
  EXPECT_NE(o->s->StacksText(true, "").find(" 2147483647\n"), std::string::npos);
  EXPECT_NE(o->s->InfoJson().find("\"samples\":2147483648"), std::string::npos);
}

// drop_duplicate_leaf: the profiler may store the leaf twice (from the signal
// context and from unwinding); Go pprof drops the second copy. Alone, with
// pc_minus_one (the duplicate is compared before the -1) and all three on.
TEST(Gperf, DropDuplicateLeafOption) {
  std::vector<uint8_t> b;
  auto W = [&](uint64_t v) { for (int i = 0; i < 8; ++i) b.push_back(static_cast<uint8_t>(v >> (i * 8))); };
  for (uint64_t v : {0, 3, 0, 10000, 0}) W(v);
  W(2); W(3); W(0x401010); W(0x401010); W(0x402020);  // leaf stored twice
  W(1); W(2); W(0x401020); W(0x402020);               // no duplicate
  W(0); W(1); W(0);
  auto raw = Open(b);
  ASSERT_TRUE(raw->ok);
  EXPECT_EQ(raw->s->StacksText(true, ""), "0x402020;0x401010;0x401010 2\n0x402020;0x401020 1\n");
  auto off = Open(b, {{"drop_duplicate_leaf", "0"}});
  EXPECT_EQ(off->s->StacksText(true, ""), raw->s->StacksText(true, ""));
  auto drop = Open(b, {{"drop_duplicate_leaf", "1"}});
  EXPECT_EQ(drop->s->StacksText(true, ""), "0x402020;0x401010 2\n0x402020;0x401020 1\n");
  auto both = Open(b, {{"drop_duplicate_leaf", "true"}, {"pc_minus_one", "on"}});
  EXPECT_EQ(both->s->StacksText(true, ""), "0x40201f;0x401010 2\n0x40201f;0x401020 1\n");
  // All three: 0x40201f is the second frame of every record, so it goes too.
  auto all = Open(b, {{"pc_minus_one", "1"}, {"drop_duplicate_leaf", "1"}, {"strip_signal_frames", "1"}});
  EXPECT_EQ(all->s->StacksText(true, ""), "0x401010 2\n0x401020 1\n");
}

TEST(Gperf, UnknownOptionIsADiagnostic) {
  auto o = Open(Profile(8, false), {{"no_such_option", "1"}});
  ASSERT_TRUE(o->ok);
  bool seen = false;
  for (const auto& d : o->s->result().diags.items()) seen |= d.message.find("no_such_option") != std::string::npos;
  EXPECT_TRUE(seen);
  EXPECT_EQ(o->s->StacksText(true, ""), Open(Profile(8, false))->s->StacksText(true, ""));
}

}  // namespace
