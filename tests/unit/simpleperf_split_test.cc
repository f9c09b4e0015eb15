// simpleperf's SPLIT / SPLIT_END records and its INIT_MAP feature, in both
// byte orders:
//  - a record written as SIMPLEPERF_SPLIT pieces then SIMPLEPERF_SPLIT_END
//    (record_file_writer.cpp WriteRecord) is joined and interpreted (a SAMPLE;
//    a JOINED SIMPLEPERF_CALLCHAIN over 64 KiB, split the way simpleperf
//    splits it), the pieces stay rows of their own;
//  - damaged splits (no SPLIT_END, a record between pieces, SPLIT_END alone,
//    pieces that do not hold their record) give diagnostics, never a crash;
//  - INIT_MAP's MMAP/COMM records become mappings and thread names, so the
//    data section's samples resolve, and point at the feature's row.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/api/session.h"
#include "core/format/perf/perf_format.h"
#include "core/format/perf/simpleperf/simpleperf_format.h"
#include "tests/unit/perf_test_writer.h"

namespace profscope::perf {
namespace {

constexpr uint64_t kSt = kSampleIp | kSampleTid | kSampleTime | kSampleCallchain | kSamplePeriod;
constexpr uint64_t kSampleIdAllFlag = 1ULL << 18;

// A simpleperf record: u32 type, u16 size_hi, u16 size_lo, then `body`.
std::vector<uint8_t> SpRecordBytes(ByteOrder o, uint32_t type, const std::vector<uint8_t>& body) {
  PerfWriter w(o);
  uint32_t size = static_cast<uint32_t>(8 + body.size());
  w.U32(type);
  w.U16(static_cast<uint16_t>(size >> 16));
  w.U16(static_cast<uint16_t>(size & 0xffff));
  w.Bytes(body);
  return w.data();
}

// `whole` (a record, header included) as SPLIT pieces of at most `piece`
// bytes of it each, then SPLIT_END, as simpleperf writes it. Returns the
// offsets (relative to `w`) of the pieces and of the SPLIT_END.
std::vector<size_t> WriteSplit(PerfWriter& w, const std::vector<uint8_t>& whole, size_t piece, bool end = true) {
  std::vector<size_t> at;
  for (size_t k = 0; k < whole.size(); k += piece) {
    size_t n = std::min(piece, whole.size() - k);
    at.push_back(w.Pos());
    w.Bytes(SpRecordBytes(w.order(), kSpSplit, std::vector<uint8_t>(whole.begin() + k, whole.begin() + k + n)));
  }
  if (end) {
    at.push_back(w.Pos());
    w.Bytes(SpRecordBytes(w.order(), kSpSplitEnd, {}));
  }
  return at;
}

PerfEventAttr Attr() { return SamplingAttr(kTypeHardware, 4000, kSt, kSampleIdAllFlag); }

// MMAP of libfoo.so at 0x10000 and COMM "app" for pid/tid 10 (sample_id trailer: pid, tid, time).
void WriteMapAndComm(PerfWriter& w) {
  w.BeginRecord(kMmap, 2);
  w.I32(10); w.I32(10); w.U64(0x10000); w.U64(0x1000); w.U64(0); w.String("/system/lib64/libfoo.so");
  w.I32(10); w.I32(10); w.U64(5);
  w.EndRecord();
  w.BeginRecord(kComm, 0);
  w.I32(10); w.I32(10); w.String("app");
  w.I32(10); w.I32(10); w.U64(6);
  w.EndRecord();
}

std::vector<uint8_t> SampleBytes(ByteOrder o, uint64_t time, const std::vector<uint64_t>& chain) {
  PerfWriter w(o);
  w.BeginRecord(kSample, 2);
  w.U64(chain.size() > 1 ? chain[1] : 0x10010); w.I32(10); w.I32(10); w.U64(time);
  w.U64(100);  // period
  w.U64(chain.size());
  for (uint64_t v : chain) w.U64(v);
  w.EndRecord();
  return w.data();
}

struct Decoded {
  std::vector<uint8_t> bytes;
  MemorySource src;
  Session s;
  bool ok;
  explicit Decoded(std::vector<uint8_t> b) : bytes(std::move(b)), src(bytes), s(src, "perf.data") { ok = s.Decode(); }
  const DecodeResult& r() const { return s.result(); }
  const Profile& p() const { return r().profile; }
  std::string Diags() const {
    std::string out;
    for (const auto& d : r().diags.items())
      out += std::string(SeverityName(d.severity)) + " " + DiagCodeName(d.code) + " @" + std::to_string(d.offset) + ": " + d.message + "\n";
    return out;
  }
  bool HasError(const std::string& text) const {
    for (const auto& d : r().diags.items())
      if (d.severity >= Severity::kWarning && d.message.find(text) != std::string::npos) return true;
    return false;
  }
  size_t Depth(size_t sample) const {
    size_t n = 0;
    for (int32_t k = p().samples.stack[sample]; k >= 0; k = p().stacks.prefix[static_cast<size_t>(k)]) ++n;
    return n;
  }
};

class SimpleperfSplit : public ::testing::TestWithParam<ByteOrder> {
 protected:
  ByteOrder o() const { return GetParam(); }
};

TEST_P(SimpleperfSplit, SplitSampleIsJoinedAndInterpreted) {
  FileBuilder fb(o());
  fb.AddAttr(Attr(), {});
  PerfWriter& w = fb.data();
  WriteMapAndComm(w);
  std::vector<uint8_t> sample = SampleBytes(o(), 1000, {kContextUser, 0x10010, 0x10020, 0x10030});
  ASSERT_EQ(sample.size(), 80u);
  std::vector<size_t> pieces = WriteSplit(w, sample, 24);  // 24 + 24 + 24 + 8 bytes, then SPLIT_END
  ASSERT_EQ(pieces.size(), 5u);
  w.Bytes(SampleBytes(o(), 2000, {kContextUser, 0x10040}));
  std::vector<uint8_t> bytes = fb.Build();
  Decoded d(bytes);
  ASSERT_TRUE(d.ok) << d.Diags();
  EXPECT_EQ(d.Diags(), "");
  ASSERT_EQ(d.p().samples.size(), 2u);
  EXPECT_EQ(d.p().samples.time[0], 1000u);
  EXPECT_EQ(d.Depth(0), 3u);
  EXPECT_EQ(d.p().samples.weight[0], 100.0);
  // The joined sample's row is its first piece; every piece is a listed record.
  int32_t row = d.p().samples.record[0];
  ASSERT_GE(row, 0);
  EXPECT_EQ(d.r().records.offset[static_cast<size_t>(row)], fb.data_offset() + pieces[0]);
  EXPECT_EQ(d.r().records.type[static_cast<size_t>(row)], kSpSplit);
  std::string recs = d.s.RecordsText();
  for (size_t k = 0; k < pieces.size(); ++k) {
    std::string type = std::to_string(k + 1 < pieces.size() ? kSpSplit : kSpSplitEnd);
    EXPECT_NE(recs.find(std::to_string(fb.data_offset() + pieces[k]) + "\t"), std::string::npos) << k;
    EXPECT_NE(recs.find("\t" + type + "\n"), std::string::npos);
  }
  // The SPLIT_END row's fields show the joined record, each field placed on
  // the piece holding its first byte (the time, 24 bytes in, opens piece 2).
  int32_t end_row = kNone;
  for (size_t k = 0; k < d.r().records.rows(); ++k)
    if (d.r().records.type[k] == kSpSplitEnd) end_row = static_cast<int32_t>(k);
  ASSERT_GE(end_row, 0);
  std::string fields = d.s.RecordFieldsJson(end_row);
  EXPECT_NE(fields.find("SAMPLE, 80 bytes from 4 SIMPLEPERF_SPLIT pieces"), std::string::npos) << fields;
  EXPECT_NE(fields.find("\"offset\":" + std::to_string(fb.data_offset() + pieces[1] + 8) + ","), std::string::npos) << fields;
  EXPECT_EQ(fields.find("problem"), std::string::npos) << fields;
  // simpleperf's folded form: the sample's own frame is left out.
  EXPECT_EQ(d.r().stacks_thread_root, true);
  // The second sample has only its own frame: just the thread.
  std::string stacks = d.s.StacksText(false, "");
  EXPECT_NE(stacks.find("\napp;"), std::string::npos) << stacks;
  EXPECT_EQ(stacks.rfind("app 100\n", 0), 0u) << stacks;
}

TEST_P(SimpleperfSplit, JoinedCallchainOver64KiBReplacesTheSamplesUserStack) {
  FileBuilder fb(o());
  fb.AddAttr(Attr(), {});
  PerfWriter& w = fb.data();
  WriteMapAndComm(w);
  constexpr size_t kIps = 5000;  // 40 + 16 * 5000 bytes: more than one 64 KiB record
  PerfWriter body(o());
  body.U32(10); body.U32(10); body.U64(2 /* JOINED_OFFLINE */); body.U64(1000); body.U64(kIps);
  for (size_t i = 0; i < kIps; ++i) body.U64(0x10000 + 4 * (i % 1000));
  for (size_t i = 0; i < kIps; ++i) body.U64(0x7ff00000 + 8 * i);
  std::vector<uint8_t> cc = SpRecordBytes(o(), kSpCallchain, body.data());
  ASSERT_GT(cc.size(), 65535u);
  std::vector<size_t> pieces = WriteSplit(w, cc, 65535 - 8);  // simpleperf's piece size
  EXPECT_EQ(pieces.size(), 3u);  // two SPLIT pieces and the SPLIT_END
  w.Bytes(SampleBytes(o(), 1000, {kContextUser, 0x10010}));
  Decoded d(fb.Build());
  ASSERT_TRUE(d.ok) << d.Diags();
  EXPECT_EQ(d.Diags(), "");
  ASSERT_EQ(d.p().samples.size(), 1u);
  EXPECT_EQ(d.Depth(0), kIps);
}

TEST_P(SimpleperfSplit, DamagedSplitsAreReported) {
  std::vector<uint8_t> sample = SampleBytes(o(), 1000, {kContextUser, 0x10010, 0x10020});
  {  // a record between the pieces and their SPLIT_END
    FileBuilder fb(o());
    fb.AddAttr(Attr(), {});
    WriteMapAndComm(fb.data());
    WriteSplit(fb.data(), sample, 24, false);
    fb.data().Bytes(SampleBytes(o(), 2000, {kContextUser, 0x10040}));
    fb.data().Bytes(SpRecordBytes(o(), kSpSplitEnd, {}));
    Decoded d(fb.Build());
    ASSERT_TRUE(d.ok);
    EXPECT_TRUE(d.HasError("instead of SIMPLEPERF_SPLIT_END")) << d.Diags();
    EXPECT_TRUE(d.HasError("ends no SIMPLEPERF_SPLIT pieces")) << d.Diags();
    EXPECT_EQ(d.p().samples.size(), 1u);
  }
  {  // pieces at the end of the data
    FileBuilder fb(o());
    fb.AddAttr(Attr(), {});
    WriteMapAndComm(fb.data());
    WriteSplit(fb.data(), sample, 24, false);
    Decoded d(fb.Build());
    ASSERT_TRUE(d.ok);
    EXPECT_TRUE(d.HasError("not followed by SIMPLEPERF_SPLIT_END")) << d.Diags();
    EXPECT_EQ(d.p().samples.size(), 0u);
  }
  {  // pieces holding less than their record's header announces
    FileBuilder fb(o());
    fb.AddAttr(Attr(), {});
    WriteMapAndComm(fb.data());
    WriteSplit(fb.data(), std::vector<uint8_t>(sample.begin(), sample.end() - 8), 24);
    Decoded d(fb.Build());
    ASSERT_TRUE(d.ok);
    EXPECT_TRUE(d.HasError("do not hold the record")) << d.Diags();
    EXPECT_EQ(d.p().samples.size(), 0u);
  }
}

// The same file cut at every length: no crash, every sample before the cut kept.
TEST_P(SimpleperfSplit, EveryTruncation) {
  FileBuilder fb(o());
  fb.AddAttr(Attr(), {});
  WriteMapAndComm(fb.data());
  WriteSplit(fb.data(), SampleBytes(o(), 1000, {kContextUser, 0x10010, 0x10020}), 16);
  std::vector<uint8_t> bytes = fb.Build();
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    Decoded d(std::vector<uint8_t>(bytes.begin(), bytes.begin() + static_cast<long>(cut)));
    (void)d.s.InfoJson();
    (void)d.s.StacksText(false, "");
  }
}

TEST_P(SimpleperfSplit, InitMapRecordsResolveSamples) {
  FileBuilder fb(o());
  fb.AddAttr(Attr(), {});
  PerfWriter init(o());
  WriteMapAndComm(init);
  fb.AddFeature(kSpFeatInitMap, init.data());
  fb.data().Bytes(SampleBytes(o(), 1000, {kContextUser, 0x10010, 0x10020}));
  std::vector<uint8_t> bytes = fb.Build();
  Decoded d(bytes);
  ASSERT_TRUE(d.ok) << d.Diags();
  EXPECT_EQ(d.Diags(), "");
  const Profile& p = d.p();
  ASSERT_EQ(p.mappings.size(), 1u);
  EXPECT_EQ(p.strings.Get(p.mappings.path[0]), "/system/lib64/libfoo.so");
  // The mapping and the markers point at the INIT_MAP feature row.
  int32_t frow = p.mappings.record[0];
  ASSERT_GE(frow, 0);
  EXPECT_EQ(d.r().records.kind[static_cast<size_t>(frow)], static_cast<uint8_t>(RecordKind::kFeature));
  EXPECT_EQ(d.r().records.type[static_cast<size_t>(frow)], kSpFeatInitMap);
  EXPECT_EQ(d.r().records.offset[static_cast<size_t>(frow)], fb.feature_offset(kSpFeatInitMap));
  ASSERT_EQ(p.markers.size(), 2u);
  EXPECT_EQ(p.markers.record[0], frow);
  EXPECT_EQ(p.markers.record[1], frow);
  EXPECT_EQ(p.markers.time[0], 5u);
  // The sample's frames fall in libfoo.so, its thread is named.
  ASSERT_EQ(p.samples.size(), 1u);
  int32_t st = p.samples.stack[0];
  ASSERT_GE(st, 0);
  EXPECT_EQ(p.frames.mapping[static_cast<size_t>(p.stacks.frame[static_cast<size_t>(st)])], 0);
  int32_t th = p.samples.thread[0];
  ASSERT_GE(th, 0);
  ASSERT_NE(p.threads.name[static_cast<size_t>(th)], kNone);
  EXPECT_EQ(p.strings.Get(p.threads.name[static_cast<size_t>(th)]), "app");
  std::string stacks = d.s.StacksText(false, "");
  EXPECT_EQ(stacks.rfind("app;", 0), 0u) << stacks;
  EXPECT_NE(stacks.find("libfoo.so"), std::string::npos) << stacks;
  // The INIT_MAP records are not data-section records.
  EXPECT_EQ(d.s.RecordsText().find("\t1\n"), std::string::npos) << d.s.RecordsText();
}

TEST_P(SimpleperfSplit, InitMapWithASplitRecord) {
  FileBuilder fb(o());
  fb.AddAttr(Attr(), {});
  PerfWriter init(o());
  PerfWriter whole(o());
  WriteMapAndComm(whole);
  // The MMAP record (the first one written) as two pieces, then the COMM as is.
  size_t mmap_size = whole.data()[6] | (whole.data()[7] << 8);
  if (o() == ByteOrder::kBig) mmap_size = (whole.data()[6] << 8) | whole.data()[7];
  std::vector<uint8_t> mmap(whole.data().begin(), whole.data().begin() + static_cast<long>(mmap_size));
  WriteSplit(init, mmap, 40);
  init.Bytes(std::vector<uint8_t>(whole.data().begin() + static_cast<long>(mmap_size), whole.data().end()));
  fb.AddFeature(kSpFeatInitMap, init.data());
  fb.data().Bytes(SampleBytes(o(), 1000, {kContextUser, 0x10010, 0x10020}));
  Decoded d(fb.Build());
  ASSERT_TRUE(d.ok) << d.Diags();
  EXPECT_EQ(d.Diags(), "");
  ASSERT_EQ(d.p().mappings.size(), 1u);
  EXPECT_EQ(d.p().strings.Get(d.p().mappings.path[0]), "/system/lib64/libfoo.so");
}

// Old simpleperf files carry no simpleperf feature or record: their CMDLINE
// names the simpleperf binary. A thread made by FORK gets its parent's name
// (simpleperf's ThreadTree::ForkThread), so stackcollapse's root is that name.
TEST_P(SimpleperfSplit, RecognisedByCmdlineAndForkedThreadsInheritTheName) {
  for (bool simpleperf : {true, false}) {
    SCOPED_TRACE(simpleperf);
    FileBuilder fb(o());
    fb.AddAttr(Attr(), {});
    PerfWriter cmd(o());
    cmd.U32(2);
    cmd.HeaderString(simpleperf ? "/data/local/tmp/simpleperf" : "/usr/bin/perf");
    cmd.HeaderString("record");
    fb.AddFeature(kFeatCmdline, cmd.data());
    PerfWriter& w = fb.data();
    w.BeginRecord(kComm, 0);
    w.I32(10); w.I32(10); w.String("app");
    w.I32(10); w.I32(10); w.U64(5);
    w.EndRecord();
    w.BeginRecord(kFork, 0);
    w.I32(10); w.I32(10); w.I32(11); w.I32(10); w.U64(7);
    w.I32(10); w.I32(11); w.U64(7);
    w.EndRecord();
    w.BeginRecord(kSample, 2);
    w.U64(0x10010); w.I32(10); w.I32(11); w.U64(10); w.U64(100); w.U64(2); w.U64(kContextUser); w.U64(0x10010);
    w.EndRecord();
    Decoded d(fb.Build());
    ASSERT_TRUE(d.ok) << d.Diags();
    EXPECT_EQ(d.r().stacks_thread_root, simpleperf);
    if (simpleperf) {
      EXPECT_EQ(d.s.StacksText(false, ""), "app 100\n");
      EXPECT_NE(d.s.ThreadsJson().find("\"tid\":11,\"pid\":10,\"name\":\"app\""), std::string::npos) << d.s.ThreadsJson();
    } else {
      // perf's thread__fork names the child after its parent too.
      EXPECT_EQ(d.s.StacksText(false, ""), "[unknown] 1\n");
      EXPECT_NE(d.s.ThreadsJson().find("\"tid\":11,\"pid\":10,\"name\":\"app\""), std::string::npos) << d.s.ThreadsJson();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(BothOrders, SimpleperfSplit, ::testing::Values(ByteOrder::kLittle, ByteOrder::kBig),
                         [](const ::testing::TestParamInfo<ByteOrder>& i) {
                           return std::string(i.param == ByteOrder::kLittle ? "Little" : "Big");
                         });

}  // namespace
}  // namespace profscope::perf
