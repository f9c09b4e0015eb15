// jitdump decoder: synthetic dumps in both byte orders with every record
// type, version 1 and 2 headers, unknown ids, unaligned records, every
// truncation length, and a garbage header.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/api/session.h"
#include "core/format/jitdump/jitdump_decoder.h"
#include "core/format/jitdump/jitdump_format.h"
#include "tests/unit/jit_test_writer.h"

namespace {

using profscope::ByteOrder;
using profscope::MemorySource;
using profscope::Session;
using profscope::Window;
namespace jd = profscope::jitdump;
using profscope::jitdump::test::JitWriter;

struct Built {
  std::vector<uint8_t> bytes;
  std::vector<uint64_t> offsets;  // record starts
  std::vector<uint32_t> ids;
};

// Every record type, an unknown id, an odd-sized (unaligned) CODE_LOAD.
Built BuildAll(bool big, uint32_t version = 1) {
  JitWriter w(big);
  Built b;
  w.Header(version, 4242);
  auto mark = [&](uint32_t id) { b.offsets.push_back(w.size()); b.ids.push_back(id); };
  mark(jd::kCodeDebugInfo);
  w.Begin(jd::kCodeDebugInfo, 1000);
  w.U64(0x1000); w.U64(2);
  w.U64(0x1000); w.U32(10); w.U32(0); w.Str("a.js");
  w.U64(0x1008); w.U32(11); w.U32(3); w.Str("a.js");
  w.End(3);
  mark(jd::kCodeLoad);
  w.CodeLoad(1001, 4242, 0x1000, 17, 1, "JS:*foo a.js:1:1");  // odd size: next record unaligned
  mark(jd::kCodeUnwindingInfo);
  w.Begin(jd::kCodeUnwindingInfo, 1002);
  w.U64(30); w.U64(20); w.U64(30);
  w.Bytes(10, 0xee);  // eh_frame
  w.Bytes(20, 0xdd);  // eh_frame_hdr
  w.End(2);
  mark(jd::kCodeMove);
  w.Begin(jd::kCodeMove, 1003);
  w.U32(4242); w.U32(4243); w.U64(0x2000); w.U64(0x1000); w.U64(0x2000); w.U64(17); w.U64(1);
  w.End();
  mark(77);
  w.Begin(77, 1004);
  w.Bytes(5, 0xab);
  w.End();
  mark(jd::kCodeLoad);
  w.CodeLoad(1005, 4242, 0x3000, 0, 2, "empty");
  mark(jd::kCodeClose);
  w.Begin(jd::kCodeClose, 1006);
  w.End();
  b.bytes = w.bytes();
  return b;
}

bool HasDiag(const Session& s, profscope::DiagCode c) {
  for (const auto& d : s.result().diags.items())
    if (d.code == c) return true;
  return false;
}

class JitdumpOrder : public ::testing::TestWithParam<bool> {};

TEST_P(JitdumpOrder, EveryRecordType) {
  bool big = GetParam();
  Built b = BuildAll(big);
  MemorySource src(b.bytes);
  Session s(src, "jit-4242.dump");
  ASSERT_TRUE(s.Decode());
  EXPECT_EQ(s.result().format, "jitdump");
  EXPECT_EQ(s.result().byte_order, big ? "big" : "little");
  std::string want;
  for (size_t i = 0; i < b.offsets.size(); ++i) {
    uint64_t end = i + 1 < b.offsets.size() ? b.offsets[i + 1] : b.bytes.size();
    want += std::to_string(b.offsets[i]) + "\t" + std::to_string(end - b.offsets[i]) + "\t" + std::to_string(b.ids[i]) + "\n";
  }
  EXPECT_EQ(s.RecordsText(), want);
  EXPECT_NE(b.offsets[2] % 8, 0u) << "the record after the odd-sized CODE_LOAD should be unaligned";
  EXPECT_TRUE(HasDiag(s, profscope::DiagCode::kUnknownRecordType));

  std::string info = s.InfoJson();
  EXPECT_NE(info.find("\"format\":\"jitdump\""), std::string::npos);
  EXPECT_NE(info.find("\"records\":7"), std::string::npos) << info;
  EXPECT_NE(info.find("\"record_counts\":{\"CODE_LOAD\":2,\"CODE_MOVE\":1,\"DEBUG_INFO\":1,\"CODE_CLOSE\":1,\"UNWINDING_INFO\":1,\"UNKNOWN\":1}"),
            std::string::npos) << info;
  EXPECT_NE(info.find("\"pid\":4242"), std::string::npos);
  EXPECT_NE(info.find("\"pad1\":\"0xdeadbeef\""), std::string::npos);

  // Fields: the CODE_LOAD's code covers its exact bytes.
  std::string load = s.RecordFieldsJson(2);  // row 0 = header, 1 = DEBUG_INFO, 2 = CODE_LOAD
  uint64_t name_at = b.offsets[1] + 16 + 40;
  EXPECT_NE(load.find("\"name\":\"name\",\"offset\":" + std::to_string(name_at) + ",\"size\":17"), std::string::npos) << load;
  EXPECT_NE(load.find("\"name\":\"code\",\"offset\":" + std::to_string(name_at + 17) + ",\"size\":17"), std::string::npos) << load;
  EXPECT_NE(load.find("\"name\":\"code_addr\""), std::string::npos);
  EXPECT_NE(load.find("\"value\":\"0x1000\""), std::string::npos);
  EXPECT_NE(s.RecordLabel(2).find("JS:*foo a.js:1:1"), std::string::npos);

  std::string unw = s.RecordFieldsJson(3);
  uint64_t data_at = b.offsets[2] + 16 + 24;
  EXPECT_NE(unw.find("\"name\":\"eh_frame\",\"offset\":" + std::to_string(data_at) + ",\"size\":10"), std::string::npos) << unw;
  EXPECT_NE(unw.find("\"name\":\"eh_frame_hdr\",\"offset\":" + std::to_string(data_at + 10) + ",\"size\":20"), std::string::npos) << unw;
  EXPECT_NE(unw.find("\"name\":\"padding\",\"offset\":" + std::to_string(data_at + 30) + ",\"size\":2"), std::string::npos) << unw;

  std::string dbg = s.RecordFieldsJson(1);
  EXPECT_NE(dbg.find("\"name\":\"entry[1]\""), std::string::npos) << dbg;
  EXPECT_NE(dbg.find("\"name\":\"lineno\""), std::string::npos);
  EXPECT_NE(dbg.find("a.js:11"), std::string::npos);
  EXPECT_NE(dbg.find("\"name\":\"discrim\",\"offset\":" + std::to_string(b.offsets[0] + 16 + 16 + 21 + 12) + ",\"size\":4,\"value\":\"3\""),
            std::string::npos) << dbg;

  std::string mv = s.RecordFieldsJson(4);
  EXPECT_NE(mv.find("\"name\":\"new_code_addr\""), std::string::npos);
  EXPECT_NE(mv.find("\"value\":\"0x2000\""), std::string::npos);

  std::string hdr = s.RecordFieldsJson(0);
  EXPECT_NE(hdr.find("\"name\":\"flags\""), std::string::npos);
  EXPECT_NE(hdr.find(big ? "big endian" : "little endian"), std::string::npos);

  std::string tl = s.TimelineJson();
  EXPECT_EQ(tl,
            "[{\"time\":1001,\"kind\":\"load\",\"name\":\"JS:*foo a.js:1:1\",\"addr\":\"0x1000\",\"size\":17,\"index\":1,\"record\":2},"
            "{\"time\":1003,\"kind\":\"move\",\"name\":\"JS:*foo a.js:1:1\",\"addr\":\"0x2000\",\"old_addr\":\"0x1000\",\"size\":17,\"index\":1,\"record\":4},"
            "{\"time\":1005,\"kind\":\"load\",\"name\":\"empty\",\"addr\":\"0x3000\",\"size\":0,\"index\":2,\"record\":6}]");

  // The parsed contents.
  Window w(src);
  jd::Dump d;
  ASSERT_TRUE(jd::ReadDump(w, &d, nullptr, nullptr));
  ASSERT_EQ(d.loads.size(), 2u);
  EXPECT_EQ(d.loads[0].name, "JS:*foo a.js:1:1");
  EXPECT_EQ(d.loads[0].tid, 4243u);
  EXPECT_EQ(d.loads[0].code_size, 17u);
  ASSERT_EQ(d.debug.size(), 1u);
  ASSERT_EQ(d.debug[0].entries.size(), 2u);
  EXPECT_EQ(d.debug[0].entries[1].line, 11u);
  EXPECT_EQ(d.debug[0].entries[1].discrim, 3u);
  ASSERT_EQ(d.moves.size(), 1u);
  EXPECT_EQ(d.moves[0].new_code_addr, 0x2000u);
  EXPECT_EQ(d.unknown, 1u);
  EXPECT_EQ(d.header.order, big ? ByteOrder::kBig : ByteOrder::kLittle);
}

// Every prefix of the dump: no crash, every complete record kept, a
// diagnostic with the offset where the file stops in the middle of one.
TEST_P(JitdumpOrder, EveryTruncationLength) {
  Built b = BuildAll(GetParam());
  for (size_t n = 0; n <= b.bytes.size(); ++n) {
    std::vector<uint8_t> cut(b.bytes.begin(), b.bytes.begin() + static_cast<long>(n));
    MemorySource src(cut);
    Session s(src, "cut");
    bool ok = s.Decode();
    if (n < 4) {
      EXPECT_FALSE(ok) << n;
      continue;
    }
    if (n < 40) {
      EXPECT_FALSE(ok) << n;
      EXPECT_TRUE(HasDiag(s, profscope::DiagCode::kTruncatedHeader)) << n;
      continue;
    }
    EXPECT_TRUE(ok) << n;
    size_t complete = 0;
    bool at_boundary = n == 40;
    for (size_t i = 0; i < b.offsets.size(); ++i) {
      uint64_t end = i + 1 < b.offsets.size() ? b.offsets[i + 1] : b.bytes.size();
      if (end <= n) ++complete;
      if (end == n) at_boundary = true;
    }
    size_t listed = 0;
    for (char c : s.RecordsText()) listed += c == '\n';
    EXPECT_EQ(listed, complete) << n;
    bool truncated = HasDiag(s, profscope::DiagCode::kRecordTruncated);
    EXPECT_EQ(truncated, !at_boundary) << n;
    if (truncated) {
      uint64_t start = 40;
      for (size_t i = 0; i < b.offsets.size(); ++i) if (b.offsets[i] < n) start = b.offsets[i];
      bool found = false;
      for (const auto& d : s.result().diags.items())
        if (d.code == profscope::DiagCode::kRecordTruncated && d.offset == start) found = true;
      EXPECT_TRUE(found) << n;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(ByteOrders, JitdumpOrder, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& i) { return i.param ? "big" : "little"; });

TEST(Jitdump, VersionOneAndTwo) {
  for (uint32_t v : {1u, 2u, 3u}) {
    Built b = BuildAll(false, v);
    MemorySource src(b.bytes);
    Session s(src, "jit.dump");
    ASSERT_TRUE(s.Decode());
    EXPECT_NE(s.InfoJson().find("\"version\":" + std::to_string(v)), std::string::npos);
    EXPECT_EQ(HasDiag(s, profscope::DiagCode::kBadHeader), v == 3) << v;
    size_t listed = 0;
    for (char c : s.RecordsText()) listed += c == '\n';
    EXPECT_EQ(listed, 7u);
  }
}

TEST(Jitdump, GarbageHeaderAndZeroSizeRecord) {
  JitWriter w(false);
  w.Header(1, 7, 0xbdbfef81d6bdbfefULL);
  w.Bytes(64, 0);  // record id 0, total_size 0
  MemorySource src(w.bytes());
  Session s(src, "bad.dump");
  s.Decode();
  EXPECT_TRUE(HasDiag(s, profscope::DiagCode::kBadHeader));
  EXPECT_TRUE(HasDiag(s, profscope::DiagCode::kRecordTooSmall));
  EXPECT_EQ(s.RecordsText(), "");
}

TEST(Jitdump, NameWithoutTerminatorAndOversizedCode) {
  JitWriter w(false);
  w.Header(1, 7);
  w.Begin(jd::kCodeLoad, 5);
  w.U32(7); w.U32(7); w.U64(0x10); w.U64(0x10); w.U64(1000); w.U64(1);
  w.Str("f");
  w.Bytes(4, 0x90);  // code_size says 1000
  w.End();
  w.Begin(jd::kCodeLoad, 6);
  w.U32(7); w.U32(7); w.U64(0x10); w.U64(0x10); w.U64(0); w.U64(2);
  w.Bytes(3, 'x');  // no NUL
  w.End();
  MemorySource src(w.bytes());
  Session s(src, "x.dump");
  ASSERT_TRUE(s.Decode());
  EXPECT_TRUE(HasDiag(s, profscope::DiagCode::kRecordFieldOverrun));
  EXPECT_TRUE(HasDiag(s, profscope::DiagCode::kBadString));
  EXPECT_NE(s.RecordFieldsJson(1).find("4 of 1000 bytes"), std::string::npos);
}

TEST(Jitdump, SniffBothOrders) {
  const uint8_t le[] = {'D', 'T', 'i', 'J'};
  const uint8_t be[] = {'J', 'i', 'T', 'D'};
  const uint8_t no[] = {'J', 'i', 'T', 'X'};
  EXPECT_TRUE(jd::Sniff(le, 4));
  EXPECT_TRUE(jd::Sniff(be, 4));
  EXPECT_FALSE(jd::Sniff(no, 4));
  EXPECT_FALSE(jd::Sniff(le, 3));
}

}  // namespace

// A dump of many code loads (a runtime that never stops compiling): one memory
// budget bounds the decode; reaching it stops at a record boundary with one
// error diagnostic, and every load before it is kept and shown.
TEST(Jitdump, MemoryBudgetStopsTheDecodeAndKeepsWhatWasDecoded) {
  JitWriter w(false);
  w.Header(1, 4242);
  const std::string name(200, 'f');  // 200 bytes of name each: ~1.6 MB of loads
  for (uint32_t i = 0; i < 6000; ++i) w.CodeLoad(1000 + i, 4242, 0x100000 + 64ull * i, 16, i, name + std::to_string(i));
  std::vector<uint8_t> bytes = w.bytes();
  profscope::MemorySource src(bytes.data(), bytes.size());
  Session s(src, "jit-4242.dump");
  s.SetMaxMemoryMiB(1);
  ASSERT_TRUE(s.Decode());
  const profscope::Diagnostic* budget = nullptr;
  for (const auto& g : s.result().diags.items())
    if (g.code == profscope::DiagCode::kMemoryBudget) budget = &g;
  ASSERT_NE(budget, nullptr) << s.DiagnosticsJson();
  EXPECT_EQ(budget->severity, profscope::Severity::kError);
  EXPECT_GT(budget->offset, 40u);
  EXPECT_LT(budget->offset, bytes.size());
  const size_t rows = s.result().records.rows();
  EXPECT_GT(rows, 1000u);
  EXPECT_LT(rows, 6001u);
  // The last record kept ends where the decode stopped.
  const auto& rt = s.result().records;
  EXPECT_EQ(rt.offset[rows - 1] + rt.size[rows - 1], budget->offset);
  // Without a budget that low, every load is read.
  Session all(src, "jit-4242.dump");
  ASSERT_TRUE(all.Decode());
  EXPECT_EQ(all.result().records.rows(), 6001u);
}

namespace {

// Stepped as the page decodes: paused between records, resumed to the same rows, markers and info; a stop
// keeps the records read before it (with their markers) and says where.
TEST(Jitdump, PausesBetweenRecordsAndAStopKeepsWhatWasRead) {
  JitWriter w(false);
  w.Header(1, 4242);
  std::vector<uint64_t> starts;
  for (uint32_t i = 0; i < 100; ++i) {
    starts.push_back(w.size());
    w.CodeLoad(1000 + i, 4242, 0x100000 + 64ull * i, 16, i, "fn" + std::to_string(i));
  }
  const std::vector<uint8_t> bytes = w.bytes();
  MemorySource a(bytes.data(), bytes.size()), b(bytes.data(), bytes.size()), c(bytes.data(), bytes.size());
  Session whole(a, "jit-4242.dump"), stepped(b, "jit-4242.dump"), stopped(c, "jit-4242.dump");
  ASSERT_TRUE(whole.Decode());
  int pauses = 0;
  auto state = stepped.DecodeStart(nullptr, [](uint64_t, uint8_t) { return true; }, 1);
  while (state == Session::DecodeState::kPaused) {
    ++pauses;
    state = stepped.DecodeResume();
  }
  EXPECT_EQ(pauses, 100);
  EXPECT_EQ(stepped.RecordsText(), whole.RecordsText());
  EXPECT_EQ(stepped.InfoJson(), whole.InfoJson());
  EXPECT_EQ(stepped.TimelineJson(), whole.TimelineJson());
  // stopped before the 41st load
  state = stopped.DecodeStart(nullptr, [&](uint64_t off, uint8_t) { return off >= starts[40]; }, 1);
  ASSERT_EQ(state, Session::DecodeState::kPaused);
  EXPECT_EQ(stopped.PausedAt(), starts[40]);
  stopped.DecodeStop();
  EXPECT_TRUE(stopped.DecodeOk());
  EXPECT_EQ(stopped.result().records.rows(), 41u);  // the header and 40 loads
  EXPECT_EQ(stopped.result().profile.markers.size(), 40u);
  const std::string timeline = stopped.TimelineJson();
  EXPECT_NE(timeline.find("fn39"), std::string::npos);
  EXPECT_EQ(timeline.find("fn40"), std::string::npos);
  const std::string diags = stopped.DiagnosticsJson();
  EXPECT_NE(diags.find("\"code\":\"decode_stopped\""), std::string::npos) << diags;
  EXPECT_NE(diags.find("\"offset\":" + std::to_string(starts[40])), std::string::npos) << diags;
  EXPECT_NE(stopped.InfoJson().find("\"end_offset\":" + std::to_string(starts[40])), std::string::npos);
}

}  // namespace
