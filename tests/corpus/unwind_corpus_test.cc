// The DWARF unwinder (core/unwind) against perf on real `perf record
// --call-graph dwarf` files: every dwarf case of tests/data/perf is decoded
// with Session/PerfDecoder, each SAMPLE row is parsed again (ParseSample) for
// its user registers and stack copy, the process's mappings at the sample's
// time are rebuilt from the profile's mapping table, and the user stack is
// unwound with the binaries perf used (the case's own program, this
// machine's Debian 12 libc.so.6 / ld-linux-x86-64.so.2 / node). perf's stack
// is then the sample's kernel callchain (perf records with
// exclude_callchain_user) followed by the unwound user frames; folded root
// first, it must equal perf's own folded_addrs*.txt. Without any binary
// perf keeps the user ip alone: folded_addrs_nobin.txt (made by produce.sh
// with `perf script --symfs` pointing at an empty folder) and the perfparser
// cases, whose binaries perf never had.
//
// This driver stands in for the decoder integration (next step): it is the
// reference for what PerfDecoder must give the unwinder per sample and per
// mapping.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/api/session.h"
#include "core/format/perf/perf_attr.h"
#include "core/format/perf/perf_format.h"
#include "core/format/perf/perf_sample.h"
#include "core/unwind/unwinder.h"
#include "tests/corpus/corpus_util.h"
#include "tests/corpus/unwind_driver.h"

namespace fs = std::filesystem;
using profscope::MemorySource;
using profscope::Session;
using profscope::corpus::Lines;
using profscope::corpus::ReadFile;
using profscope::corpus::ReadText;
namespace uw = profscope::unwind;
namespace drv = profscope::unwind_driver;

namespace {

// The --call-graph dwarf cases: sample_type has REGS_USER and STACK_USER.
std::vector<std::string> DwarfCases() {
  std::vector<std::string> out;
  for (const auto& c : profscope::corpus::PerfCases({"evlist.txt"})) {
    std::string ev = ReadText(profscope::corpus::PerfData() / c / "evlist.txt");
    if (ev.find("REGS_USER") != std::string::npos && ev.find("STACK_USER") != std::string::npos) out.push_back(c);
  }
  return out;
}

std::vector<std::string> Sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// Lines of `want` missing from `got` and the other way round, for a readable failure.
std::string Diff(const std::vector<std::string>& want, const std::vector<std::string>& got) {
  std::multiset<std::string> w(want.begin(), want.end()), g(got.begin(), got.end());
  std::string s;
  for (const auto& l : want)
    if (!g.count(l)) s += "  perf only: " + l + "\n";
  for (const auto& l : got)
    if (!w.count(l)) s += "  ours only: " + l + "\n";
  return s;
}

class UnwindCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(UnwindCorpus, StacksWithBinariesEqualPerfFoldedAddrs) {
  const fs::path dir = profscope::corpus::PerfData() / GetParam();
  drv::Options o;
  o.use_binaries = true;
  drv::CaseResult r = drv::UnwindCase(dir, o);
  ASSERT_TRUE(r.ok) << r.error;
  if (!r.missing_system_binaries.empty())
    FAIL() << "this machine lacks the binaries perf used: " << r.missing_system_binaries;
  for (const auto& [file, want_lines] : r.references) {
    auto want = Sorted(want_lines);
    auto got = Sorted(r.FoldedFor(file));
    EXPECT_EQ(want, got) << GetParam() << "/" << file << " differs:\n" << Diff(want, got) << r.Summary();
  }
  EXPECT_FALSE(r.references.empty()) << "no folded_addrs reference";
}

TEST_P(UnwindCorpus, StacksWithoutBinariesKeepTheUserIpAlone) {
  const fs::path dir = profscope::corpus::PerfData() / GetParam();
  drv::Options o;
  o.use_binaries = false;
  drv::CaseResult r = drv::UnwindCase(dir, o);
  ASSERT_TRUE(r.ok) << r.error;
  // Every sample stops at its first frame, for want of its binary.
  for (const auto& s : r.samples) {
    if (s.result.frames.empty()) continue;
    EXPECT_EQ(s.result.frames.size(), 1u);
    EXPECT_TRUE(s.result.stop == uw::StopReason::kMissingBinary || s.result.stop == uw::StopReason::kNoMapping)
        << uw::StopReasonName(s.result.stop);
  }
  fs::path nobin = dir / "folded_addrs_nobin.txt";
  if (fs::exists(nobin)) {
    auto want = Sorted(Lines(ReadText(nobin)));
    auto got = Sorted(r.FoldedFor("folded_addrs.txt"));
    EXPECT_EQ(want, got) << "differs from perf without binaries:\n" << Diff(want, got);
  }
}

INSTANTIATE_TEST_SUITE_P(Dwarf, UnwindCorpus, ::testing::ValuesIn(DwarfCases()), [](const auto& info) {
  std::string n = info.param;
  for (char& c : n)
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
});

}  // namespace
