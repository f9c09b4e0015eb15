// perf record --threads: the data.N files are read in turns of 2 MiB each
// (PerfTokenizer::DataFiles, as perf's __perf_session__process_dir_events),
// so a COMM in one file names the samples of another file that come after it
// in time, even when the ordered-events queue is bounded (queue_size) and
// the files are larger than it. Read one after the other, the first file's
// samples were interpreted (by the queue's half-flush) before the second
// file's earlier COMM: they showed no name. Both byte orders; pausing at every
// record gives the same result.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "core/api/output_sink.h"
#include "core/api/session.h"
#include "core/format/perf/perf_tokenizer.h"
#include "tests/unit/cut_source.h"
#include "tests/unit/perf_test_writer.h"

namespace profscope::perf {
namespace {

constexpr uint64_t kIdAll = 1ULL << 18;  // attr flags: sample_id_all
constexpr uint64_t kSt = kSampleIp | kSampleTid | kSampleTime | kSamplePeriod;

PerfEventAttr Attr() { return SamplingAttr(kTypeSoftware, 1000, kSt, kIdAll); }

void Comm(PerfWriter& w, int32_t tid, const std::string& name, uint64_t time) {
  w.BeginRecord(kComm, 0);
  w.I32(tid);
  w.I32(tid);
  w.String(name);
  w.I32(tid);  // sample_id_all: pid, tid, time
  w.I32(tid);
  w.U64(time);
  w.EndRecord();
}

void Sample(PerfWriter& w, int32_t tid, uint64_t time) {
  w.BeginRecord(kSample, 2 /* PERF_RECORD_MISC_USER */);
  w.U64(0x400000 + static_cast<uint64_t>(tid));
  w.I32(tid);
  w.I32(tid);
  w.U64(time);
  w.U64(1000);
  w.EndRecord();
}

struct Recording {
  std::vector<uint8_t> main, d0, d1;
};

// data.0: thread 7's samples from time 2000 on (bytes past 4 turns); data.1: thread 7's COMM at time 1000,
// then thread 8's samples at the same times as thread 7's.
Recording Make(ByteOrder order) {
  Recording r;
  FileBuilder fb(order);
  fb.AddAttr(Attr(), {});
  r.main = fb.Build();
  PerfWriter d0(order), d1(order);
  Comm(d1, 7, "early", 1000);
  Comm(d1, 8, "other", 1001);
  for (uint64_t t = 2000; d0.Pos() < 4 * PerfTokenizer::kDataTurn + 4096; t += 10) {
    Sample(d0, 7, t);
    Sample(d1, 8, t);
  }
  r.d0 = std::move(d0.data());
  r.d1 = std::move(d1.data());
  return r;
}

struct Opened {
  std::vector<std::unique_ptr<MemorySource>> srcs;
  std::unique_ptr<Session> s;
};

Opened Open(const Recording& r, const std::string& queue_size) {
  Opened o;
  for (const auto* v : {&r.main, &r.d0, &r.d1}) o.srcs.push_back(std::make_unique<MemorySource>(*v));
  o.s = std::make_unique<Session>(*o.srcs[0], "perf.data/data");
  o.s->AddDataFile(*o.srcs[1], "data.0");
  o.s->AddDataFile(*o.srcs[2], "data.1");
  if (!queue_size.empty()) o.s->SetOption("queue_size", queue_size);
  return o;
}

std::string Script(Session& s) {
  std::string out;
  {
    StringSink sink(out);
    s.WriteScript(sink);
  }
  return out;
}

// Samples per comm name of thread 7 in `perf script`'s first column.
size_t Count(const std::string& script, const std::string& head) {
  size_t n = 0;
  for (size_t at = 0; (at = script.find(head, at)) != std::string::npos; ++at)
    if (at == 0 || script[at - 1] == '\n') ++n;
  return n;
}

class PerfDataFiles : public ::testing::TestWithParam<bool> {};

TEST_P(PerfDataFiles, TurnsKeepTimeOrderAcrossFilesLargerThanTheQueue) {
  const Recording r = Make(GetParam() ? ByteOrder::kBig : ByteOrder::kLittle);
  const size_t samples = (r.d0.size()) / 40;  // 40-byte samples
  ASSERT_GT(r.d0.size(), 4 * PerfTokenizer::kDataTurn);
  // a queue of 3 turns: the files are read in turns, one round (2 turns) fits
  Opened o = Open(r, std::to_string(3 * PerfTokenizer::kDataTurn));
  ASSERT_TRUE(o.s->Decode());
  const std::string script = Script(*o.s);
  EXPECT_EQ(Count(script, "           early     7 "), samples) << script.substr(0, 400);
  EXPECT_EQ(Count(script, "           other     8 "), samples);
  EXPECT_EQ(Count(script, "             :7     7 "), 0u);
  EXPECT_EQ(o.s->result().profile.samples.size(), 2 * samples);
  // the thread table names both
  const Profile& p = o.s->result().profile;
  ASSERT_EQ(p.threads.size(), 2u);
  for (size_t t = 0; t < p.threads.size(); ++t) EXPECT_NE(p.threads.name[t], kNone);

  // the same, paused at every record and resumed (the turns go on where they paused)
  Opened q = Open(r, std::to_string(3 * PerfTokenizer::kDataTurn));
  std::vector<uint8_t> files;
  auto state = q.s->DecodeStart(nullptr, [&](uint64_t, uint8_t file) { files.push_back(file); return true; }, 1);
  size_t pauses = 0;
  while (state == Session::DecodeState::kPaused) {
    ++pauses;
    state = q.s->DecodeResume();
  }
  EXPECT_GE(pauses, 2 * samples);
  EXPECT_EQ(Script(*q.s), script);
  EXPECT_EQ(q.s->RecordsText(), o.s->RecordsText());
  // the pause function saw the files take turns: data.0's first turn, data.1's, data.0's again
  std::vector<uint8_t> runs;
  for (uint8_t f : files)
    if (runs.empty() || runs.back() != f) runs.push_back(f);
  ASSERT_GE(runs.size(), 8u);
  EXPECT_EQ(runs[0], 1);
  EXPECT_EQ(runs[1], 2);
  EXPECT_EQ(runs[2], 1);
}

TEST_P(PerfDataFiles, StopInATurnEndsEveryFile) {
  const Recording r = Make(GetParam() ? ByteOrder::kBig : ByteOrder::kLittle);
  Opened o = Open(r, "");
  // stop in data.1's second turn
  int turns_of_1 = 0;
  uint8_t last = 0;
  auto state = o.s->DecodeStart(nullptr, [&](uint64_t, uint8_t file) {
    if (file != last && file == 2) ++turns_of_1;
    last = file;
    return file == 2 && turns_of_1 == 2;
  }, 1);
  ASSERT_EQ(state, Session::DecodeState::kPaused);
  EXPECT_EQ(o.s->PausedFile(), 2);
  const uint64_t at = o.s->PausedAt();
  EXPECT_GE(at, PerfTokenizer::kDataTurn);
  o.s->DecodeStop();
  const std::string diags = o.s->DiagnosticsJson();
  EXPECT_NE(diags.find("decoding was stopped at byte offset " + std::to_string(at) + " of data file 2"), std::string::npos) << diags;
  // data.0 got two turns, data.1 one and part of a second: what was read is shown, named
  const Profile& p = o.s->result().profile;
  EXPECT_GT(p.samples.size(), 0u);
  EXPECT_LT(p.samples.size(), 2 * r.d0.size() / 40);
  const std::string script = Script(*o.s);
  EXPECT_EQ(Count(script, "             :7     7 "), 0u);
  EXPECT_GT(Count(script, "           early     7 "), 0u);
}

TEST(PerfDataFiles, TheQueueCountsInTheMemoryBudget) {
  const Recording r = Make(ByteOrder::kLittle);
  // ~8 MiB of records wait in a queue bounded at 64 MiB (no FINISHED_ROUND in data files): with the
  // record rows (~6 MB) they pass a 12 MiB budget, which the rows alone do not reach
  for (const bool counted : {true, false}) {
    Opened o = Open(r, counted ? "64M" : "");
    o.s->SetMaxMemoryMiB(counted ? 12 : 64);
    ASSERT_TRUE(o.s->Decode());
    const std::string diags = o.s->DiagnosticsJson();
    EXPECT_EQ(diags.find("\"memory_budget\"") != std::string::npos, counted) << diags;
    if (counted) {
      EXPECT_GT(o.s->result().profile.samples.size(), 0u);  // what was read before it is shown
      EXPECT_LT(o.s->result().profile.samples.size(), 2 * r.d0.size() / 40);
    }
  }
}

// Both data files cut since they were opened: each is said, by name (not one diagnostic counted twice).
TEST(PerfDataFiles, EveryDataFileThatEndedIsSaid) {
  const Recording r = Make(ByteOrder::kLittle);
  MemorySource main(r.main);
  CutSource d0(r.d0, r.d0.size() / 2), d1(r.d1, r.d1.size() / 3);
  Session s(main, "perf.data/data");
  s.AddDataFile(d0, "data.0");
  s.AddDataFile(d1, "data.1");
  s.Decode();
  std::vector<std::string> said;
  for (const auto& d : s.result().diags.items())
    if (d.code == DiagCode::kFileChanged) {
      EXPECT_EQ(d.count, 1u);
      said.push_back(d.message);
    }
  ASSERT_EQ(said.size(), 2u) << s.DiagnosticsJson();
  EXPECT_EQ(said[0].rfind("data.0 ended at byte offset " + std::to_string(r.d0.size() / 2) + " ", 0), 0u) << said[0];
  EXPECT_EQ(said[1].rfind("data.1 ended at byte offset " + std::to_string(r.d1.size() / 3) + " ", 0), 0u) << said[1];
  EXPECT_GT(s.result().profile.samples.size(), 0u);
}

TEST(PerfDataFiles, QueueSizeOption) {
  const Recording r = Make(ByteOrder::kLittle);
  for (const char* bad : {"", "x", "0", "12T", "5KB", "17179869185G"}) {
    Opened o = Open(r, "");
    o.s->SetOption("queue_size", bad);
    ASSERT_TRUE(o.s->Decode());
    EXPECT_NE(o.s->DiagnosticsJson().find("option queue_size is not known"), std::string::npos) << bad;
  }
  Opened o = Open(r, "64M");
  ASSERT_TRUE(o.s->Decode());
  EXPECT_EQ(o.s->DiagnosticsJson().find("queue_size"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(ByteOrder, PerfDataFiles, ::testing::Bool(), [](const auto& i) { return i.param ? "Big" : "Little"; });

}  // namespace
}  // namespace profscope::perf
