// Every gperftools case of tests/data/gperf (copied from shared/corpus/gperf):
//  - `stacks --addresses` (raw PCs, root first, weighted by record counts)
//    against folded_addrs.txt;
//  - with pprof's three adjustments switched on (Session::SetOption:
//    pc_minus_one, drop_duplicate_leaf, strip_signal_frames) against
//    folded_addrs_pprof.txt (Go pprof -raw);
//  - `records` against gperf_dump.txt: one header, every sample record at its
//    offset with its count and depth, the trailer, the maps text;
//  - with the program binary and the three options, names against Go pprof
//    -traces (pprof_traces.txt);
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
  s.SetOption("drop_duplicate_leaf", "1");
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

// Names: with the program binary as side file and the three pprof options on,
// `stacks` names what Go pprof's `-traces` names. pprof prints a frame it
// cannot symbolize as "[mapping basename]"; there profscope's frame may be a
// symbol (pprof symbolizes through DWARF only: `_start` stays "[prog]") or
// "path+0xOFFSET", so such a frame only has to be in that mapping or be named.
TEST_P(GperfCorpus, PprofNamedStacksMatchGoPprofTraces) {
  fs::path ref = kData / GetParam() / "pprof_traces.txt";
  fs::path binary;
  for (const auto& e : fs::directory_iterator(kData / GetParam())) {
    auto bytes = e.is_regular_file() ? ReadFile(e.path()) : std::vector<uint8_t>{};
    if (bytes.size() > 4 && bytes[0] == 0x7f && bytes[1] == 'E' && bytes[2] == 'L' && bytes[3] == 'F') binary = e.path();
  }
  if (!fs::exists(ref) || binary.empty()) GTEST_SKIP() << "no program binary: pprof could not name the frames either";
  // pprof -traces: blocks "VALUEms   leaf" / "   caller" ..., split by "-----------+---".
  std::map<std::vector<std::string>, uint64_t> want;
  std::vector<std::string> frames;
  uint64_t value = 0;
  auto flush = [&]() {
    if (!frames.empty()) want[std::vector<std::string>(frames.rbegin(), frames.rend())] += value;
    frames.clear();
  };
  std::istringstream in(ReadText(ref));
  std::regex head(R"(^\s*([\d.]+)(ns|us|ms|s)\s+(\S.*)$)");
  for (std::string l; std::getline(in, l);) {
    std::smatch m;
    if (l.rfind("-----------+", 0) == 0) { flush(); continue; }
    if (std::regex_match(l, m, head)) {
      double v = std::stod(m[1].str());
      double ms = m[2] == "s" ? v * 1000 : m[2] == "us" ? v / 1000 : m[2] == "ns" ? v / 1e6 : v;
      value = static_cast<uint64_t>(ms * 1000 + 0.5);  // in us
      frames.push_back(m[3].str());
    } else if (!frames.empty() && l.size() > 13 && l.find_first_not_of(' ') >= 13) {
      frames.push_back(l.substr(l.find_first_not_of(' ')));
    }
  }
  flush();
  ASSERT_FALSE(want.empty());
  auto bytes = ReadFile(kData / GetParam() / "cpu.prof");
  auto bin = ReadFile(binary);
  MemorySource src(bytes), bin_src(bin);
  Session s(src, "cpu.prof");
  s.AddSideFile(bin_src, binary.filename().string());
  s.SetOption("pc_minus_one", "1");
  s.SetOption("drop_duplicate_leaf", "1");
  s.SetOption("strip_signal_frames", "1");
  ASSERT_TRUE(s.Decode());
  // pprof's values are time: samples x its Period (ns, in pprof_raw.txt).
  std::smatch pm;
  std::string raw = ReadText(kData / GetParam() / "pprof_raw.txt");
  ASSERT_TRUE(std::regex_search(raw, pm, std::regex(R"(Period: (\d+))")));
  uint64_t period_us = std::stoull(pm[1].str()) / 1000;
  std::map<std::vector<std::string>, uint64_t> got;
  std::istringstream sin(s.StacksText(false, ""));
  for (std::string l; std::getline(sin, l);) {
    size_t sp = l.rfind(' ');
    std::vector<std::string> f;
    std::string st = l.substr(0, sp);
    for (size_t a = 0;;) {
      size_t b = st.find(';', a);
      f.push_back(st.substr(a, b == std::string::npos ? std::string::npos : b - a));
      if (b == std::string::npos) break;
      a = b + 1;
    }
    got[f] += std::stoull(l.substr(sp + 1)) * period_us;
  }
  auto same_frame = [](const std::string& ours, const std::string& theirs) {
    if (ours == theirs) return true;
    if (theirs.size() < 3 || theirs.front() != '[' || theirs.back() != ']') return false;
    std::string base = theirs.substr(1, theirs.size() - 2);
    size_t plus = ours.rfind("+0x");
    if (plus == std::string::npos) return ours.find('/') == std::string::npos;  // a symbol pprof did not find
    std::string path = ours.substr(0, plus);
    return path.size() >= base.size() && path.compare(path.size() - base.size(), base.size(), base) == 0;
  };
  // Pair every pprof stack with a profscope stack of the same frames.
  std::map<std::vector<std::string>, uint64_t> matched;
  for (const auto& [wf, wv] : want) {
    const std::vector<std::string>* hit = nullptr;
    for (const auto& [gf, gv] : got) {
      if (gf.size() != wf.size()) continue;
      bool eq = true;
      for (size_t i = 0; eq && i < gf.size(); ++i) eq = same_frame(gf[i], wf[i]);
      if (eq) { hit = &gf; break; }
    }
    ASSERT_NE(hit, nullptr) << "pprof stack not found: " << wf.back() << " (depth " << wf.size() << ")";
    matched[*hit] += wv;
  }
  EXPECT_EQ(matched, got);
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
  EXPECT_EQ(s.result().profile.samples.Total(), samples);
}

INSTANTIATE_TEST_SUITE_P(All, GperfCorpus, ::testing::ValuesIn(Cases()),
                         [](const auto& info) { return info.param; });

TEST(GperfCorpusSet, HasEveryCase) { EXPECT_GE(Cases().size(), 5u); }

}  // namespace
