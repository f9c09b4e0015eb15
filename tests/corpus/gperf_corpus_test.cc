// Every gperftools case of tests/data/gperf (copied from shared/corpus/gperf):
//  - `stacks --addresses` (raw PCs, root first, weighted by record counts)
//    against folded_addrs.txt;
//  - with pprof's adjustments switched on (Session::SetOption: pc_minus_one,
//    strip_signal_frames) against folded_addrs_pprof.txt (Go pprof -raw);
//  - `records` against gperf_dump.txt: one header, every sample record at its
//    offset with its count and depth, the trailer, the maps text;
//  - `info`: sample totals.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/corpus/corpus_util.h"
#include "core/api/session.h"

namespace fs = std::filesystem;
using profscope::MemorySource;
using profscope::Session;

namespace {

using profscope::corpus::ReadFile;
using profscope::corpus::ReadText;

const fs::path kData = fs::path(PROFSCOPE_SOURCE_DIR) / "tests" / "data" / "gperf";


std::vector<std::string> SortedLines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);)
    if (!l.empty()) out.push_back(l);
  std::sort(out.begin(), out.end());
  return out;
}


std::vector<std::string> Cases() {
  std::vector<std::string> c;
  if (fs::exists(kData))
    for (const auto& e : fs::directory_iterator(kData))
      if (e.is_directory() && fs::exists(e.path() / "cpu.prof")) c.push_back(e.path().filename().string());
  std::sort(c.begin(), c.end());
  return c;
}

class GperfCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(GperfCorpus, RawStacksMatchFoldedAddrs) {
  fs::path ref = kData / GetParam() / "folded_addrs.txt";
  if (!fs::exists(ref)) GTEST_SKIP() << "no raw reference (Java variant: see NOTE.txt)";
  auto bytes = ReadFile(kData / GetParam() / "cpu.prof");
  MemorySource src(bytes);
  Session s(src, "cpu.prof");
  ASSERT_TRUE(s.Decode());
  EXPECT_EQ(s.result().format, "gperftools");
  EXPECT_EQ(SortedLines(s.StacksText(true, "")), SortedLines(ReadText(ref)));
}

TEST_P(GperfCorpus, PprofAdjustedStacksMatchGoPprof) {
  fs::path ref = kData / GetParam() / "folded_addrs_pprof.txt";
  ASSERT_TRUE(fs::exists(ref));
  auto bytes = ReadFile(kData / GetParam() / "cpu.prof");
  MemorySource src(bytes);
  Session s(src, "cpu.prof");
  s.SetOption("pc_minus_one", "1");
  s.SetOption("strip_signal_frames", "1");
  ASSERT_TRUE(s.Decode());
  auto got = SortedLines(s.StacksText(true, ""));
  auto want = SortedLines(ReadText(ref));
  if (GetParam() == "pprof_java_cpu") {
    // Go pprof shows Java method ids as locations with address 0: compare
    // the shape (depths and counts) only.
    auto shape = [](const std::vector<std::string>& v) {
      std::map<size_t, uint64_t> by_depth;  // Go pprof merges stacks whose locations all print as 0x0
      for (const auto& l : v)
        by_depth[static_cast<size_t>(std::count(l.begin(), l.end(), ';'))] += std::stoull(l.substr(l.rfind(' ') + 1));
      return by_depth;
    };
    EXPECT_EQ(shape(got), shape(want));
    return;
  }
  EXPECT_EQ(got, want);
}

TEST_P(GperfCorpus, RecordsMatchGperfDump) {
  fs::path ref = kData / GetParam() / "gperf_dump.txt";
  if (!fs::exists(ref)) GTEST_SKIP() << "no record listing (Java variant)";
  auto bytes = ReadFile(kData / GetParam() / "cpu.prof");
  MemorySource src(bytes);
  Session s(src, "cpu.prof");
  ASSERT_TRUE(s.Decode());
  std::vector<std::string> want;
  std::regex sample(R"(^@0x([0-9a-f]+) sample count=(\d+) depth=(\d+))"), trailer(R"(^@0x([0-9a-f]+) trailer)");
  std::regex summary(R"(samples=(\d+) maps_offset=0x([0-9a-f]+) maps_bytes=(\d+))");
  uint64_t samples = 0;
  std::istringstream in(ReadText(ref));
  uint64_t word = 8;
  for (std::string l; std::getline(in, l);) {
    std::smatch m;
    if (l.rfind("header word_size=4", 0) == 0) word = 4;
    if (std::regex_search(l, m, sample))
      want.push_back(std::to_string(std::stoull(m[1].str(), nullptr, 16)) + "\t" +
                     std::to_string((2 + std::stoull(m[3].str())) * word) + "\tsample");
    else if (std::regex_search(l, m, trailer))
      want.push_back(std::to_string(std::stoull(m[1].str(), nullptr, 16)) + "\t" + std::to_string(3 * word) + "\ttrailer");
    else if (std::regex_search(l, m, summary)) {
      samples = std::stoull(m[1].str());
      if (m[3].str() != "0") want.push_back(std::to_string(std::stoull(m[2].str(), nullptr, 16)) + "\t" + m[3].str() + "\tmaps");
    }
  }
  want.insert(want.begin(), "0\t" + std::to_string(5 * word) + "\theader");
  std::vector<std::string> got;
  std::istringstream rin(s.RecordsText());
  for (std::string l; std::getline(rin, l);) got.push_back(l);
  EXPECT_EQ(got, want);
  EXPECT_EQ(s.result().profile.samples.size(), samples);
}

INSTANTIATE_TEST_SUITE_P(All, GperfCorpus, ::testing::ValuesIn(Cases()),
                         [](const auto& info) { return info.param; });

TEST(GperfCorpusSet, HasEveryCase) { EXPECT_GE(Cases().size(), 5u); }

}  // namespace
