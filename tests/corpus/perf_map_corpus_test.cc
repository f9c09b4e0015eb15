// JIT frames named from a perf map (/tmp/perf-PID.map, node --perf-basic-prof):
// tests/data/jitdump/perf_map_node, perf 6.1's references. Given the map file,
// node, libc, ld.so, libstdc++ and the kernel's symbols, `profscope script` prints
// perf script's lines, JS frames with their names and perf's DSO for them
// (/tmp/perf-PID.map); without the map file, "[unknown] (/tmp/perf-PID.map)" as
// perf without it.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/api/session.h"
#include "tests/corpus/corpus_util.h"

namespace fs = std::filesystem;
using profscope::MemorySource;
using profscope::Session;
using profscope::corpus::Lines;
using profscope::corpus::ReadFile;
using profscope::corpus::ReadText;

namespace {

const fs::path kDir = fs::path(PROFSCOPE_SOURCE_DIR) / "tests" / "data" / "jitdump" / "perf_map_node";

fs::path MapFile() {
  for (const auto& e : fs::directory_iterator(kDir))
    if (e.path().filename().string().rfind("perf-", 0) == 0 && e.path().extension() == ".map") return e.path();
  return {};
}

struct Opened {
  std::vector<std::unique_ptr<std::vector<uint8_t>>> bytes;
  std::vector<std::unique_ptr<MemorySource>> srcs;
  std::unique_ptr<Session> s;
  MemorySource& Src(const fs::path& p) {
    bytes.push_back(std::make_unique<std::vector<uint8_t>>(ReadFile(p)));
    srcs.push_back(std::make_unique<MemorySource>(*bytes.back()));
    return *srcs.back();
  }
};

std::unique_ptr<Opened> Open(bool with_map, const std::string& kallsyms) {
  auto o = std::make_unique<Opened>();
  o->s = std::make_unique<Session>(o->Src(kDir / "perf.data"), "perf.data");
  std::vector<fs::path> side = {"/usr/bin/node", "/lib/x86_64-linux-gnu/libc.so.6", "/lib64/ld-linux-x86-64.so.2",
                                "/usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30"};
  for (const auto& dbg : profscope::corpus::DebugFilesOf({side.begin(), side.end()})) side.push_back(dbg);
  if (with_map) side.push_back(MapFile());
  for (const auto& p : side) o->s->AddSideFile(o->Src(p), p.string());
  if (!kallsyms.empty()) {
    o->bytes.push_back(std::make_unique<std::vector<uint8_t>>(kallsyms.begin(), kallsyms.end()));
    o->srcs.push_back(std::make_unique<MemorySource>(*o->bytes.back()));
    o->s->AddSideFile(*o->srcs.back(), "kallsyms");
  }
  o->s->Decode();
  return o;
}

std::string Script(Session& s) {
  std::string out;
  profscope::StringSink sink(out);
  s.WriteScript(sink);
  sink.Flush();
  return out;
}

bool SystemFiles() {
  for (const char* f : {"/usr/bin/node", "/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30"})
    if (!fs::exists(f)) return false;
  return !MapFile().empty();
}

// perf named the kernel frames from this machine's kallsyms when it recorded: the
// kernel's lines are compared only when the same kernel runs here.
bool SameKernel(const std::string& kallsyms) {
  const std::string want = ReadText(kDir / "script_default.txt");
  // A kernel frame perf printed, e.g. "ffffffff821ec2a4 __get_user_1+0x14": its symbol must be in kallsyms.
  return !kallsyms.empty() && kallsyms.find(" __get_user_1\n") != std::string::npos && want.find("__get_user_1") != std::string::npos;
}

}  // namespace

TEST(PerfMap, JitFramesAreNamedFromThePerfMapAsPerfNamesThem) {
  if (!SystemFiles()) GTEST_SKIP() << "needs Debian 12's node, libc6 and libstdc++6 (the files perf used)";
  const std::string kallsyms = ReadText("/proc/kallsyms");
  auto o = Open(true, kallsyms);
  const auto want = Lines(ReadText(kDir / "script_default.txt"));
  const auto got = Lines(Script(*o->s));
  ASSERT_EQ(want.size(), got.size());
  size_t js = 0, differ = 0;
  const bool kernel = SameKernel(kallsyms);
  for (size_t i = 0; i < want.size(); ++i) {
    if (want[i].find("(/tmp/perf-") != std::string::npos) {
      ++js;
      EXPECT_EQ(want[i], got[i]) << "line " << i + 1;  // every JIT frame: address, name+offset, perf's DSO
      continue;
    }
    if (want[i] == got[i]) continue;
    // Known: perf unwound into the [vdso] from its own copy (none here); kernel frames of another boot.
    if (want[i].find("([vdso])") != std::string::npos) continue;
    if (!kernel && want[i].find("([kernel.kallsyms])") != std::string::npos) continue;
    ++differ;
    ADD_FAILURE() << "line " << i + 1 << "\n perf: " << want[i] << "\n ours: " << got[i];
    if (differ > 5) break;
  }
  EXPECT_GT(js, 1000u);
}

TEST(PerfMap, WithoutTheMapJitFramesAreUnknownInPerfsDso) {
  if (!SystemFiles()) GTEST_SKIP() << "needs Debian 12's node, libc6 and libstdc++6 (the files perf used)";
  auto o = Open(false, "");
  const std::string got = Script(*o->s);
  EXPECT_NE(got.find(" [unknown] (/tmp/perf-"), std::string::npos);
  EXPECT_EQ(got.find("(//anon)"), std::string::npos);
  // Folded stacks say [unknown] for them too, as perf's do.
  const std::string folded = o->s->StacksText(false, "");
  EXPECT_EQ(folded.find("//anon"), std::string::npos);
  EXPECT_EQ(folded.find("/tmp/perf-"), std::string::npos);
  // The "what is missing" report asks for the map file, by name.
  const std::string missing = o->s->MissingJson();
  const std::string map = MapFile().filename().string();
  EXPECT_NE(missing.find("\"dso\":\"/tmp/" + map + "\""), std::string::npos) << missing;
  EXPECT_NE(missing.find("drop " + map + ", the map the JIT runtime wrote"), std::string::npos) << missing;
}

TEST(PerfMap, StacksEqualPerfFoldedNamesForTheJitFrames) {
  if (!SystemFiles()) GTEST_SKIP() << "needs Debian 12's node, libc6 and libstdc++6 (the files perf used)";
  auto o = Open(true, ReadText("/proc/kallsyms"));
  const std::string folded = o->s->StacksText(false, "");
  // V8's names of jswork.js's functions, as perf folded them.
  const std::string want = ReadText(kDir / "folded_sym.txt");
  for (const char* name : {"JS:*fib /opt/demo/run/perf_map_node/jswork.js:3:13", "JS:*mix /opt/demo/run/perf_map_node/jswork.js:4:13"}) {
    EXPECT_NE(want.find(name), std::string::npos) << name;
    EXPECT_NE(folded.find(name), std::string::npos) << name;
  }
  EXPECT_EQ(o->s->StacksText(true, ""), ReadText(kDir / "folded_addrs.txt"));
}
