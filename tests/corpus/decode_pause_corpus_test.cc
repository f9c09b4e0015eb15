// The decode in steps (Session::DecodeStart / DecodeResume / DecodeStop), as
// the page's worker runs it to read ahead and hear a cancel: pausing between
// records and resuming changes nothing in what is decoded, on every perf case
// of tests/data (file and pipe mode, zstd containers, truncated and corrupted
// files), and a stopped decode keeps and names what it read before the stop.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "core/api/output_sink.h"
#include "core/api/session.h"
#include "tests/corpus/corpus_util.h"

namespace profscope {
namespace {

using corpus::PerfCases;
using corpus::PerfData;
using corpus::PerfInput;
using corpus::ReadFile;

struct Outputs {
  std::string records, stacks, addresses, info, diags, script;
  bool ok = false;
};

Outputs Read(Session& s, bool ok) {
  Outputs o;
  o.ok = ok;
  o.records = s.RecordsText();
  o.stacks = s.StacksText(false, "");
  o.addresses = s.StacksText(true, "");
  o.info = s.InfoJson();
  o.diags = s.DiagnosticsJson();
  o.script = Collect([&](OutputSink& out) { s.WriteScript(out); });
  return o;
}

class DecodePause : public ::testing::TestWithParam<std::string> {};

TEST_P(DecodePause, PausingAtEveryRecordAndResumingDecodesTheSame) {
  const std::vector<uint8_t> bytes = ReadFile(PerfInput(PerfData() / GetParam()));
  MemorySource whole_src(bytes);
  Session whole(whole_src, "f");
  Outputs expected = Read(whole, whole.Decode());

  MemorySource src(bytes);
  Session s(src, "f");
  uint64_t asked = 0, last = 0;
  std::vector<uint64_t> progress;
  auto state = s.DecodeStart([&](uint64_t done, uint64_t) { progress.push_back(done); },
                             [&](uint64_t off, uint8_t) {
                               EXPECT_GT(off, last);  // asked at increasing record offsets
                               last = off;
                               ++asked;
                               return true;
                             },
                             1);
  uint64_t pauses = 0;
  while (state == Session::DecodeState::kPaused) {
    EXPECT_EQ(s.PausedAt(), last);
    ++pauses;
    state = s.DecodeResume();
  }
  EXPECT_EQ(pauses, asked);
  if (bytes.size() > 4096) {
    EXPECT_GT(pauses, 2u) << "a file of records pauses between them";
  }
  ASSERT_FALSE(progress.empty());
  EXPECT_EQ(progress.back(), bytes.size());
  Outputs got = Read(s, s.DecodeOk());
  EXPECT_EQ(got.ok, expected.ok);
  EXPECT_EQ(got.records, expected.records);
  EXPECT_EQ(got.stacks, expected.stacks);
  EXPECT_EQ(got.addresses, expected.addresses);
  EXPECT_EQ(got.info, expected.info);
  EXPECT_EQ(got.diags, expected.diags);
  EXPECT_EQ(got.script, expected.script);
}

INSTANTIATE_TEST_SUITE_P(PerfCases, DecodePause, ::testing::ValuesIn(PerfCases()),
                         [](const ::testing::TestParamInfo<std::string>& i) {
                           std::string n = i.param;
                           for (char& c : n)
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

// The count of records, samples and the last record offset the plain decode
// of the first `upto` bytes' records would give: the stopped decode keeps
// exactly the records before the offset where it paused.
TEST(DecodeStop, KeepsAndNamesWhatWasReadAndSaysWhereItStopped) {
  const auto dir = PerfData() / "archive_mt_fp";
  const std::vector<uint8_t> bytes = ReadFile(PerfInput(dir));
  const std::vector<uint8_t> tarball = ReadFile(dir / "perf.data.tar.bz2");
  ASSERT_FALSE(tarball.empty());
  MemorySource whole_src(bytes), whole_tar(tarball);
  Session whole(whole_src, "perf.data");
  whole.AddSideFile(whole_tar, "perf.data.tar.bz2");
  ASSERT_TRUE(whole.Decode());
  const size_t all_samples = whole.result().profile.samples.time.size();

  MemorySource src(bytes), tar(tarball);
  Session s(src, "perf.data");
  s.AddSideFile(tar, "perf.data.tar.bz2");
  const uint64_t half = bytes.size() / 2;
  auto state = s.DecodeStart(nullptr, [&](uint64_t off, uint8_t) { return off >= half; }, 4096);
  ASSERT_EQ(state, Session::DecodeState::kPaused);
  const uint64_t at = s.PausedAt();
  EXPECT_GE(at, half);
  s.DecodeStop();
  EXPECT_EQ(s.DecodeResume(), Session::DecodeState::kDone);  // nothing left to resume
  EXPECT_TRUE(s.DecodeOk());

  const DecodeResult& r = s.result();
  const size_t samples = r.profile.samples.time.size();
  EXPECT_GT(samples, 0u);
  EXPECT_LT(samples, all_samples);
  // No data record at or after the stop; the feature rows are still listed.
  bool feature_rows = false;
  for (size_t i = 0; i < r.records.rows(); ++i) {
    const auto kind = static_cast<RecordKind>(r.records.kind[i]);
    if (kind == RecordKind::kRecord) {
      EXPECT_LT(r.records.offset[i], at);
    }
    feature_rows = feature_rows || kind == RecordKind::kFeature;
  }
  EXPECT_TRUE(feature_rows);
  // One warning says where, with the offset.
  const std::string diags = s.DiagnosticsJson();
  EXPECT_NE(diags.find("\"decode_stopped\""), std::string::npos) << diags;
  EXPECT_NE(diags.find("decoding was stopped at byte offset " + std::to_string(at) + " of " + std::to_string(bytes.size())),
            std::string::npos)
      << diags;
  // The side file still names what was read: the stopped decode's stacks are
  // the whole decode's names (none of them [unknown] where the whole has one).
  const std::string stacks = s.StacksText(false, "");
  ASSERT_FALSE(stacks.empty());
  const std::string whole_stacks = whole.StacksText(false, "");
  for (const std::string& line : corpus::Lines(stacks)) {
    const std::string stack = line.substr(0, line.rfind(' '));
    EXPECT_NE(whole_stacks.find(stack + " "), std::string::npos) << line;
  }
}

// The other formats: XRay logs (FDR and basic), gperftools profiles and jitdumps pause between records
// and resume to the same result.
TEST(DecodePause, OtherFormatsPauseOrDecodeInOneStepToTheSameResult) {
  const auto root = std::filesystem::path(PROFSCOPE_SOURCE_DIR) / "tests" / "data";
  int xray = 0, gperf = 0, jit = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
    const std::string n = e.path().filename().string();
    const bool is_xray = n == "xray.log" || n.rfind("xray-log.", 0) == 0;
    if (!e.is_regular_file() || (n.rfind("jit-", 0) != 0 && !is_xray && n != "cpu.prof")) continue;
    const std::vector<uint8_t> bytes = ReadFile(e.path());
    MemorySource a(bytes), b(bytes);
    Session plain(a, n), stepped(b, n);
    const bool ok = plain.Decode();
    int pauses = 0;
    auto state = stepped.DecodeStart(nullptr, [](uint64_t, uint8_t) { return true; }, 1);
    while (state == Session::DecodeState::kPaused) {
      ++pauses;
      state = stepped.DecodeResume();
    }
    ++(is_xray ? xray : n == "cpu.prof" ? gperf : jit);
    if (bytes.size() > 256) {
      EXPECT_GT(pauses, 0) << e.path();
    }
    EXPECT_EQ(stepped.DecodeOk(), ok);
    EXPECT_EQ(stepped.StacksText(false, ""), plain.StacksText(false, "")) << e.path();
    EXPECT_EQ(stepped.RecordsText(), plain.RecordsText()) << e.path();
    EXPECT_EQ(stepped.DiagnosticsJson(), plain.DiagnosticsJson()) << e.path();
    EXPECT_EQ(stepped.InfoJson(), plain.InfoJson()) << e.path();
  }
  EXPECT_GE(xray, 3);
  EXPECT_GE(gperf, 3);
  EXPECT_GE(jit, 3);
}

// A stopped XRay log keeps the calls read before the stop (calls still open are repaired as after the budget).
TEST(DecodeStop, XRayKeepsTheCallsReadBeforeTheStop) {
  const auto dir = std::filesystem::path(PROFSCOPE_SOURCE_DIR) / "tests" / "data" / "xray" / "fdr_threads";
  const std::vector<uint8_t> bytes = ReadFile(dir / "xray.log");
  ASSERT_GT(bytes.size(), 1024u);
  MemorySource whole_src(bytes), src(bytes);
  Session whole(whole_src, "xray.log"), s(src, "xray.log");
  ASSERT_TRUE(whole.Decode());
  const uint64_t half = bytes.size() / 2;
  auto state = s.DecodeStart(nullptr, [&](uint64_t off, uint8_t) { return off >= half; }, 64);
  ASSERT_EQ(state, Session::DecodeState::kPaused);
  const uint64_t at = s.PausedAt();
  s.DecodeStop();
  EXPECT_TRUE(s.DecodeOk());
  const std::string diags = s.DiagnosticsJson();
  EXPECT_NE(diags.find("decoding was stopped at byte offset " + std::to_string(at) + " of " + std::to_string(bytes.size())),
            std::string::npos)
      << diags;
  for (size_t i = 0; i < s.result().records.rows(); ++i) EXPECT_LT(s.result().records.offset[i], at);
  const size_t samples = s.result().profile.samples.time.size();
  EXPECT_GT(samples, 0u);
  EXPECT_LT(samples, whole.result().profile.samples.time.size());
  EXPECT_FALSE(s.StacksText(false, "").empty());
}

// A decode stopped by the memory budget stops at the same record, with the same output, whether it
// pauses or not (the pause is asked before the budget, so a resumed record is counted once).
// A perf record --threads directory: the data.N files pause too (the pause function is told which
// file), resume to the same result, and a stop inside one skips the rest.
TEST(DecodePause, PerfThreadsDataFilesPauseResumeAndStop) {
  const auto dir = std::filesystem::path(PROFSCOPE_SOURCE_DIR) / "tests" / "data" / "perf_dir" / "threads_dir" / "perf.data";
  const std::vector<uint8_t> main = ReadFile(dir / "data"), d0 = ReadFile(dir / "data.0"), d1 = ReadFile(dir / "data.1");
  auto open = [&](std::vector<std::unique_ptr<MemorySource>>& srcs) {
    for (const auto* v : {&main, &d0, &d1}) srcs.push_back(std::make_unique<MemorySource>(*v));
    auto s = std::make_unique<Session>(*srcs[0], "perf.data/data");
    s->AddDataFile(*srcs[1], "data.0");
    s->AddDataFile(*srcs[2], "data.1");
    return s;
  };
  std::vector<std::unique_ptr<MemorySource>> a, b, c;
  auto whole = open(a);
  ASSERT_TRUE(whole->Decode());
  auto stepped = open(b);
  std::vector<int> files;
  auto state = stepped->DecodeStart(nullptr, [&](uint64_t, uint8_t file) { files.push_back(file); return true; }, 1);
  int in_data = 0;
  while (state == Session::DecodeState::kPaused) {
    in_data += stepped->PausedFile() == 1;
    state = stepped->DecodeResume();
  }
  EXPECT_GT(in_data, 2) << "the 32 KB data.0 pauses between its records";
  ASSERT_FALSE(files.empty());
  EXPECT_EQ(files.back(), 1);
  EXPECT_EQ(stepped->RecordsText(), whole->RecordsText());
  EXPECT_EQ(stepped->StacksText(false, ""), whole->StacksText(false, ""));
  EXPECT_EQ(stepped->DiagnosticsJson(), whole->DiagnosticsJson());

  auto stopped = open(c);
  state = stopped->DecodeStart(nullptr, [&](uint64_t off, uint8_t file) { return file == 1 && off >= d0.size() / 2; }, 64);
  ASSERT_EQ(state, Session::DecodeState::kPaused);
  EXPECT_EQ(stopped->PausedFile(), 1);
  const uint64_t at = stopped->PausedAt();
  stopped->DecodeStop();
  const std::string diags = stopped->DiagnosticsJson();
  EXPECT_NE(diags.find("decoding was stopped at byte offset " + std::to_string(at) + " of data file 1, " + std::to_string(d0.size()) + " bytes"),
            std::string::npos)
      << diags;
  // the main file's rows are whole, data.0's end before the stop
  for (size_t i = 0; i < stopped->result().records.rows(); ++i) {
    if (stopped->result().records.file[i] == 1 && static_cast<RecordKind>(stopped->result().records.kind[i]) == RecordKind::kRecord) {
      EXPECT_LT(stopped->result().records.offset[i], at);
    }
  }
  EXPECT_LT(stopped->result().records.rows(), whole->result().records.rows());
  EXPECT_GT(stopped->result().profile.samples.time.size(), 0u);
}

// A long pipe-mode stream: the pipe_mode case's header and attrs, then its records from the first
// kernel record on, `times` times (as the page's e2e test makes its large file).
std::vector<uint8_t> RepeatedPipe(int times) {
  const std::vector<uint8_t> d = ReadFile(PerfData() / "pipe_mode" / "pipe.data");
  size_t off = 16, first = 0;
  while (off + 8 <= d.size()) {
    const uint32_t type = static_cast<uint32_t>(d[off]) | d[off + 1] << 8 | d[off + 2] << 16 | static_cast<uint32_t>(d[off + 3]) << 24;
    const size_t size = d[off + 6] | d[off + 7] << 8;
    if (type < 64 && !first) first = off;
    if (size < 8) break;
    off += size;
  }
  std::vector<uint8_t> out(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(first));
  for (int i = 0; i < times; ++i) out.insert(out.end(), d.begin() + static_cast<std::ptrdiff_t>(first), d.end());
  return out;
}

TEST(DecodePause, TheMemoryBudgetStopsAtTheSameRecordWithPauses) {
  int reached = 0;
  for (const std::string name : {"repeated pipe_mode", "dwarf_mt_nofp_pipe", "archive_dwarf_lib"}) {
    const std::vector<uint8_t> bytes =
        name == "repeated pipe_mode" ? RepeatedPipe(150) : ReadFile(PerfInput(PerfData() / name));
    MemorySource a(bytes), b(bytes);
    Session plain(a, "f"), stepped(b, "f");
    plain.SetMaxMemoryMiB(1);
    stepped.SetMaxMemoryMiB(1);
    plain.Decode();
    auto state = stepped.DecodeStart(nullptr, [](uint64_t, uint8_t) { return true; }, 1);
    while (state == Session::DecodeState::kPaused) state = stepped.DecodeResume();
    EXPECT_EQ(stepped.DiagnosticsJson(), plain.DiagnosticsJson()) << name;
    EXPECT_EQ(stepped.RecordsText(), plain.RecordsText()) << name;
    EXPECT_EQ(stepped.StacksText(false, ""), plain.StacksText(false, "")) << name;
    reached += plain.DiagnosticsJson().find("\"memory_budget\"") != std::string::npos;
  }
  EXPECT_GT(reached, 0) << "no case reached the 1 MiB budget";
}

}  // namespace
}  // namespace profscope
