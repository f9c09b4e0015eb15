// Leader sampling (perf record -e '{cpu-clock,task-clock}:S'): every SAMPLE is
// the group leader's and reads all the group's counters (PERF_SAMPLE_READ,
// read_format GROUP|ID); perf 6.1 makes of it one sample per counter that
// moved, of that counter's event, with the counter's increase as its period
// (session.c deliver_sample_group). tests/data/perf/leader_group_u (see its
// produce.sh): perf script's output, byte for byte, and each event's folded
// stacks, names and addresses.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/api/output_sink.h"
#include "core/api/session.h"
#include "tests/corpus/corpus_util.h"

namespace fs = std::filesystem;

namespace {

using profscope::MemorySource;
using profscope::corpus::ReadFile;
using profscope::corpus::ReadText;

struct Opened {
  std::vector<std::vector<uint8_t>> keep;
  std::vector<std::unique_ptr<MemorySource>> srcs;
  std::unique_ptr<profscope::Session> s;
};

std::unique_ptr<Opened> Open(bool side_files) {
  const fs::path dir = profscope::corpus::PerfData() / "leader_group_u";
  auto o = std::make_unique<Opened>();
  o->keep.reserve(8);
  auto source = [&](const fs::path& p) -> MemorySource& {
    o->keep.push_back(ReadFile(p));
    o->srcs.push_back(std::make_unique<MemorySource>(o->keep.back()));
    return *o->srcs.back();
  };
  o->s = std::make_unique<profscope::Session>(source(dir / "perf.data"), "perf.data");
  if (side_files) {
    // perf named the libc/ld.so frames from libc6-dbg's debug files of Debian 12's libc6.
    const std::vector<fs::path> system = {"/lib/x86_64-linux-gnu/libc.so.6", "/lib64/ld-linux-x86-64.so.2"};
    std::vector<fs::path> side = {dir / "calltree"};
    side.insert(side.end(), system.begin(), system.end());
    for (const auto& dbg : profscope::corpus::DebugFilesOf(system)) side.push_back(dbg);
    for (const auto& p : side) o->s->AddSideFile(source(p), p.string());
  }
  EXPECT_TRUE(o->s->Decode());
  return o;
}

TEST(PerfLeaderSampling, EveryMemberEventHasItsSamples) {
  auto o = Open(false);
  // 811 SAMPLE records, each delivered to both counters (perf script: 811 + 811).
  const std::string info = o->s->InfoJson();
  EXPECT_NE(info.find("{\"name\":\"cpu-clock\",\"samples\":811"), std::string::npos) << info.substr(0, 400);
  EXPECT_NE(info.find("{\"name\":\"task-clock\",\"samples\":811"), std::string::npos) << info.substr(0, 400);
  EXPECT_NE(info.find("\"samples\":1622"), std::string::npos);
  for (const auto& d : o->s->result().diags.items()) EXPECT_NE(d.code, profscope::DiagCode::kUnknownSampleId) << d.message;
}

TEST(PerfLeaderSampling, ScriptEqualsPerfScript) {
  if (profscope::corpus::DebugFilesOf({"/lib/x86_64-linux-gnu/libc.so.6", "/lib64/ld-linux-x86-64.so.2"}).size() < 2)
    GTEST_SKIP() << "needs Debian 12's libc6 and libc6-dbg, which perf named frames from (scripts/setup.sh)";
  auto o = Open(true);
  std::string got;
  {
    profscope::StringSink sink(got);
    ASSERT_TRUE(o->s->WriteScript(sink));
  }
  const std::string want = ReadText(profscope::corpus::PerfData() / "leader_group_u" / "script_default.txt");
  ASSERT_FALSE(want.empty());
  if (got != want) {
    auto a = profscope::corpus::Lines(want), b = profscope::corpus::Lines(got);
    for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
      const std::string x = i < a.size() ? a[i] : "<end>", y = i < b.size() ? b[i] : "<end>";
      if (x != y) {
        ADD_FAILURE() << "first difference, line " << i + 1 << "\n perf: " << x << "\n ours: " << y;
        break;
      }
    }
  }
  // The member's periods are its own counter's increases, not the leader's.
  EXPECT_NE(got.find("     621378 task-clock: \n"), std::string::npos);
  EXPECT_NE(got.find("     598454  cpu-clock: \n"), std::string::npos);
}

TEST(PerfLeaderSampling, EachEventsStacksEqualPerfs) {
  if (profscope::corpus::DebugFilesOf({"/lib/x86_64-linux-gnu/libc.so.6", "/lib64/ld-linux-x86-64.so.2"}).size() < 2)
    GTEST_SKIP() << "needs Debian 12's libc6 and libc6-dbg, which perf named frames from (scripts/setup.sh)";
  auto o = Open(true);
  const fs::path dir = profscope::corpus::PerfData() / "leader_group_u";
  for (const std::string ev : {"cpu-clock", "task-clock"}) {
    EXPECT_EQ(o->s->StacksText(false, ev), ReadText(dir / ("folded_sym." + ev + ".txt"))) << ev;
    EXPECT_EQ(o->s->StacksText(true, ev), ReadText(dir / ("folded_addrs." + ev + ".txt"))) << ev;
  }
  // perf report --group: main's share is the same in both (98.89%): the stacks are the leader's.
  EXPECT_NE(o->s->StacksText(false, "task-clock").find("__libc_start_call_main;main;top_a;leaf_a 143\n"), std::string::npos);
}

}  // namespace
