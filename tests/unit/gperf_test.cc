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

// The records are read a slice of the window at a time: a record deeper than a slice (2^16 PCs) and
// larger than the window's 4 MiB chunk is read whole, in both word sizes and byte orders.
TEST(Gperf, ARecordDeeperThanTheWindowIsReadWhole) {
  for (int word : {4, 8})
    for (bool big : {false, true}) {
      std::vector<uint8_t> b;
      auto W = [&](uint64_t v) {
        for (int i = 0; i < word; ++i) b.push_back(static_cast<uint8_t>(v >> ((big ? word - 1 - i : i) * 8)));
      };
      for (uint64_t v : {0, 3, 0, 10000, 0}) W(v);
      const uint64_t depth = (5u << 20) / static_cast<uint64_t>(word) + 3;  // > 4 MiB of PCs
      W(1); W(depth);
      for (uint64_t k = 0; k < depth; ++k) W(0x1000 + (k % 7));  // the root is 0x1000 + (depth - 1) % 7
      W(2); W(1); W(0x2000);
      W(0); W(1); W(0);
      auto o = Open(b);
      ASSERT_TRUE(o->ok);
      const auto& p = o->s->result().profile;
      ASSERT_EQ(p.samples.size(), 2u) << word << big;
      // the deep record's leaf and root, and its depth
      int32_t st = p.samples.stack[0];
      ASSERT_GE(st, 0);
      EXPECT_EQ(p.frames.address[static_cast<size_t>(p.stacks.frame[static_cast<size_t>(st)])], 0x1000u);
      uint64_t frames = 0, root = 0;
      for (; st >= 0; st = p.stacks.prefix[static_cast<size_t>(st)], ++frames)
        root = p.frames.address[static_cast<size_t>(p.stacks.frame[static_cast<size_t>(st)])];
      EXPECT_EQ(frames, depth);
      EXPECT_EQ(root, 0x1000u + (depth - 1) % 7);
      EXPECT_EQ(p.samples.count[1], 2u);
      EXPECT_EQ(p.frames.address[static_cast<size_t>(p.stacks.frame[static_cast<size_t>(p.samples.stack[1])])], 0x2000u);
    }
}

// Stepped as the page decodes: paused between records, resumed to the same result; a stop keeps the records
// read before it (the maps text after the trailer is then not read: frames stay addresses) and says where.
TEST(Gperf, PausesBetweenRecordsAndAStopKeepsWhatWasRead) {
  std::vector<uint8_t> b;
  auto W = [&](uint64_t v) { for (int i = 0; i < 8; ++i) b.push_back(static_cast<uint8_t>(v >> (i * 8))); };
  for (uint64_t v : {0, 3, 0, 10000, 0}) W(v);
  for (uint64_t r = 0; r < 100; ++r) { W(1); W(2); W(0x401000 + r); W(0x402020); }
  W(0); W(1); W(0);
  const std::string maps = "00400000-00404000 r-xp 00000000 08:01 123 /bin/prog\n";
  b.insert(b.end(), maps.begin(), maps.end());
  auto whole = Open(b);
  ASSERT_TRUE(whole->ok);
  MemorySource a(b.data(), b.size()), c(b.data(), b.size());
  Session stepped(a, "cpu.prof"), stopped(c, "cpu.prof");
  int pauses = 0;
  auto state = stepped.DecodeStart(nullptr, [](uint64_t, uint8_t) { return true; }, 32);
  while (state == Session::DecodeState::kPaused) {
    ++pauses;
    state = stepped.DecodeResume();
  }
  EXPECT_GT(pauses, 50);
  EXPECT_EQ(stepped.StacksText(false, ""), whole->s->StacksText(false, ""));
  EXPECT_NE(stepped.StacksText(false, "").find("/bin/prog+0x2020;/bin/prog+0x1000 1\n"), std::string::npos);
  // stopped before the 41st record (offset 40 + 40 * 32)
  const uint64_t at = 40 + 40 * 32;
  state = stopped.DecodeStart(nullptr, [&](uint64_t off, uint8_t) { return off >= at; }, 1);
  ASSERT_EQ(state, Session::DecodeState::kPaused);
  EXPECT_EQ(stopped.PausedAt(), at);
  stopped.DecodeStop();
  EXPECT_TRUE(stopped.DecodeOk());
  EXPECT_EQ(stopped.result().profile.samples.size(), 40u);
  EXPECT_NE(stopped.StacksText(false, "").find("0x402020;0x401000 1\n"), std::string::npos);
  const std::string diags = stopped.DiagnosticsJson();
  EXPECT_NE(diags.find("\"code\":\"decode_stopped\""), std::string::npos) << diags;
  EXPECT_NE(diags.find("\"offset\":" + std::to_string(at)), std::string::npos) << diags;
}

// The budget stops the reading between records: what was read stays; the rest is not taken for maps text.
TEST(Gperf, TheBudgetStopsBetweenRecordsAndKeepsThem) {
  std::vector<uint8_t> b;
  auto W = [&](uint64_t v) { for (int i = 0; i < 8; ++i) b.push_back(static_cast<uint8_t>(v >> (i * 8))); };
  for (uint64_t v : {0, 3, 0, 10000, 0}) W(v);
  for (uint64_t r = 0; r < 200000; ++r) { W(1); W(4); W(0x401000 + r); W(0x402020); W(0x403030); W(0x404040); }
  W(0); W(1); W(0);
  MemorySource src(b.data(), b.size());
  Session s(src, "cpu.prof");
  s.SetMaxMemoryMiB(16);
  ASSERT_TRUE(s.Decode());
  const auto n = s.result().profile.samples.size();
  EXPECT_GT(n, 1000u);
  EXPECT_LT(n, 200000u);
  const std::string diags = s.DiagnosticsJson();
  EXPECT_NE(diags.find("\"code\":\"memory_budget\""), std::string::npos) << diags;
  EXPECT_EQ(diags.find("no trailer"), std::string::npos) << diags;
  for (size_t r = 0; r < s.result().records.rows(); ++r) EXPECT_NE(s.RecordLabel(static_cast<int32_t>(r)), "maps");
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
