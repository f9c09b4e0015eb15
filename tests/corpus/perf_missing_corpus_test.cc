// "What is missing" (DecodeResult::missing, Session::MissingJson, `info`'s
// "missing") on real recordings: what a person who drops perf.data is asked
// for, step by step, until every frame is named; and the dwarf cases'
// missing binaries (samples cut short) and too small stack copies (issue 12).
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/api/session.h"
#include "tests/corpus/corpus_util.h"

namespace fs = std::filesystem;

namespace {

using profscope::MemorySource;
using profscope::MissingMapping;
using profscope::corpus::ReadFile;

struct Opened {
  std::vector<std::vector<uint8_t>> keep;
  std::vector<std::unique_ptr<MemorySource>> srcs;
  std::unique_ptr<profscope::Session> s;
};

// The recording with side files, decoded (no file access: what the page does).
std::unique_ptr<Opened> Open(const fs::path& data, const std::vector<fs::path>& side) {
  auto o = std::make_unique<Opened>();
  o->keep.reserve(side.size() + 1);
  o->keep.push_back(ReadFile(data));
  o->srcs.push_back(std::make_unique<MemorySource>(o->keep.back()));
  o->s = std::make_unique<profscope::Session>(*o->srcs.back(), data.filename().string());
  for (const auto& p : side) {
    o->keep.push_back(ReadFile(p));
    o->srcs.push_back(std::make_unique<MemorySource>(o->keep.back()));
    o->s->AddSideFile(*o->srcs.back(), p.filename().string());
  }
  EXPECT_TRUE(o->s->Decode());
  return o;
}

const fs::path kLibc = "/lib/x86_64-linux-gnu/libc.so.6";
const fs::path kLibcDebug = "/usr/lib/debug/.build-id/93/ac61ec5a8eb1396f9fbd350e3169a558528a40.debug";

TEST(PerfMissing, ArchiveMtAskedForStepByStep) {
  fs::path dir = profscope::corpus::PerfData() / "archive_mt_fp";
  const std::string archive = "run `perf archive` on the recording machine and drop perf.data.tar.bz2";
  {
    // perf.data alone: the program (with a build-id) is in the tarball perf archive makes;
    // libc (only in callchains, so without a recorded build-id) is asked for by name.
    auto o = Open(dir / "perf.data", {});
    const auto& m = o->s->result().missing;
    ASSERT_TRUE(m.computed);
    ASSERT_EQ(m.mappings.size(), 2u);
    EXPECT_EQ(m.mappings[0].path, "/opt/demo/run/archive_mt_fp/mt");
    EXPECT_EQ(m.mappings[0].build_id, "0406d1fdeca0551075d37638183cd0cae417a01c");
    EXPECT_EQ(m.mappings[0].samples, 184u);
    EXPECT_EQ(m.mappings[0].frames, 550u);
    EXPECT_EQ(m.mappings[0].drop, archive);
    EXPECT_EQ(m.mappings[1].path, "/usr/lib/x86_64-linux-gnu/libc.so.6");
    EXPECT_EQ(m.mappings[1].samples, 184u);
    EXPECT_EQ(m.mappings[1].drop, "drop libc.so.6 (the recording machine's /usr/lib/x86_64-linux-gnu/libc.so.6)");
    EXPECT_EQ(m.stack_short_samples, 0u);
    EXPECT_NE(o->s->InfoJson().find("\"missing\":{\"mappings\":[{\"path\":\"/opt/demo/run/archive_mt_fp/mt\""), std::string::npos);
  }
  {
    // With the tarball: only libc is left.
    auto o = Open(dir / "perf.data", {dir / "perf.data.tar.bz2"});
    const auto& m = o->s->result().missing;
    ASSERT_EQ(m.mappings.size(), 1u);
    EXPECT_EQ(m.mappings[0].dso, "/usr/lib/x86_64-linux-gnu/libc.so.6");
    EXPECT_EQ(m.mappings[0].frames, 184u);
  }
  if (!fs::exists(kLibc) || !fs::exists(kLibcDebug)) GTEST_SKIP() << "needs Debian 12's libc6 and libc6-dbg";
  {
    // + the stripped libc.so.6: its debug file is named (the page cannot look in /usr/lib/debug).
    auto o = Open(dir / "perf.data", {dir / "perf.data.tar.bz2", kLibc});
    const auto& m = o->s->result().missing;
    ASSERT_EQ(m.mappings.size(), 1u);
    EXPECT_EQ(m.mappings[0].drop, "drop its debug file " + kLibcDebug.string() + " (package libc6-dbg)");
    EXPECT_EQ(m.mappings[0].samples, 184u);
  }
  {
    // + the debug file: nothing is missing.
    auto o = Open(dir / "perf.data", {dir / "perf.data.tar.bz2", kLibc, kLibcDebug});
    EXPECT_TRUE(o->s->result().missing.mappings.empty()) << o->s->MissingJson();
    EXPECT_EQ(o->s->MissingJson(), "{\"mappings\":[],\"stack_copy\":null}");
  }
}

TEST(PerfMissing, KernelFramesAskForKallsyms) {
  fs::path dir = profscope::corpus::PerfData() / "archive_kernel_fp";
  auto o = Open(dir / "perf.data", {});
  const auto& m = o->s->result().missing;
  bool kernel = false;
  for (const MissingMapping& x : m.mappings)
    if (x.dso == "[kernel.kallsyms]") {
      kernel = true;
      EXPECT_GT(x.samples, 0u);
      // the archive, or the kernel's own files: kallsyms or vmlinux with the recorded build-id
      EXPECT_EQ(x.drop.rfind("run `perf archive` on the recording machine and drop perf.data.tar.bz2 (it holds the kernel's kallsyms), "
                             "or drop the recording machine's /proc/kallsyms or its vmlinux", 0), 0u) << x.drop;
    }
  EXPECT_TRUE(kernel) << o->s->MissingJson();
  auto named = Open(dir / "perf.data", {dir / "perf.data.tar.bz2"});
  for (const MissingMapping& x : named->s->result().missing.mappings) EXPECT_NE(x.dso, "[kernel.kallsyms]");
}

TEST(PerfMissing, DwarfMissingBinaryCutsSamplesShort) {
  fs::path dir = profscope::corpus::PerfData() / "dwarf_static_nofp";
  auto o = Open(dir / "perf.data", {});
  const auto& m = o->s->result().missing;
  ASSERT_EQ(m.mappings.size(), 1u) << o->s->MissingJson();
  EXPECT_EQ(m.mappings[0].path, "/opt/demo/run/dwarf_static_nofp/calltree_static_nofp");
  EXPECT_EQ(m.mappings[0].build_id, "3343e430c97b45a577e0803916368646b6c1a6de");
  EXPECT_EQ(m.mappings[0].unwind_cut, 244u);
  // With the binary everything unwinds and is named.
  auto b = Open(dir / "perf.data", {dir / "calltree_static_nofp"});
  EXPECT_TRUE(b->s->result().missing.mappings.empty()) << b->s->MissingJson();
}

TEST(PerfMissing, DwarfStackCopyTooSmallSaysWhichSize) {
  fs::path dir = profscope::corpus::PerfData() / "dwarf_cpp_nofp";
  std::vector<fs::path> side;
  for (const auto& e : fs::directory_iterator(dir)) {
    auto b = ReadFile(e.path());
    if (b.size() > 4 && b[0] == 0x7f && b[1] == 'E') side.push_back(e.path());
  }
  ASSERT_FALSE(side.empty());
  auto o = Open(dir / "perf.data", side);
  const auto& m = o->s->result().missing;
  ASSERT_GT(m.stack_short_samples, 0u) << o->s->MissingJson();
  EXPECT_GT(m.stack_needed_bytes, m.stack_copy_bytes);
  EXPECT_EQ(m.stack_fix.rfind("perf record --call-graph dwarf,", 0), 0u) << m.stack_fix;
  uint64_t size = std::stoull(m.stack_fix.substr(std::string("perf record --call-graph dwarf,").size()));
  EXPECT_GE(size, m.stack_needed_bytes);
  EXPECT_NE(o->s->MissingJson().find("\"stack_copy\":{\"samples\":" + std::to_string(m.stack_short_samples)), std::string::npos);
}

}  // namespace
