// Every perf case of the corpus (tests/data/perf/<case>, copied from
// shared/corpus with its reference outputs) against what perf itself says:
// record boundaries and types against `perf report -D`, per-type counts
// against its "Aggregated stats", folded stacks against perf's own
// callchains (folded_addrs*.txt) where perf took them from the file.
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

#include "tests/corpus/corpus_util.h"
#include "core/api/output_sink.h"
#include "core/api/session.h"
#include "core/format/perf/perf_format.h"

namespace fs = std::filesystem;
using profscope::MemorySource;
using profscope::Session;

namespace {

using profscope::corpus::ReadFile;
using profscope::corpus::ReadText;
using profscope::corpus::Lines;

const fs::path& kData = profscope::corpus::PerfData();

fs::path Input(const fs::path& dir) { return profscope::corpus::PerfInput(dir); }

std::vector<std::string> Cases() { return profscope::corpus::PerfCases(); }

struct Rec {
  uint64_t off, size;
  uint32_t type;
  bool operator<(const Rec& o) const {
    return std::tie(off, size, type) < std::tie(o.off, o.size, o.type);
  }
  bool operator==(const Rec& o) const { return off == o.off && size == o.size && type == o.type; }
};


// perf's names in "Aggregated stats" drop the HEADER_ prefix of user records.
std::string PerfStatName(uint32_t type) {
  std::string n = profscope::perf::RecordTypeName(type);
  if (n.rfind("HEADER_", 0) == 0) n = n.substr(7);
  return n;
}

class PerfCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(PerfCorpus, RecordsAgreeWithPerfReportD) {
  fs::path dir = kData / GetParam();
  std::string report = ReadText(dir / "report_D.txt");
  if (report.empty()) GTEST_SKIP() << "perf report -D failed on this file (no reference)";
  auto bytes = ReadFile(Input(dir));
  MemorySource src(bytes);
  Session s(src, GetParam());
  ASSERT_TRUE(s.Decode());
  // perf lists every record as "0xOFF@FILE [0xSIZE]: event: TYPE"; pipe offsets
  // count from the end of the 16-byte header; records inside COMPRESSED are
  // listed with the container's offset and the container itself is not listed.
  std::vector<Rec> ref;
  static const std::regex re(R"(^(0x[0-9a-f]+|0)@(\S+) \[(0x[0-9a-f]+)\]: event: (\d+))");
  for (const auto& l : Lines(report)) {
    std::smatch m;
    if (!std::regex_search(l, m, re)) continue;
    uint64_t off = std::stoull(m[1].str(), nullptr, 16);
    if (m[2].str() == "pipe") off += 16;
    ref.push_back({off, std::stoull(m[3].str(), nullptr, 16), static_cast<uint32_t>(std::stoul(m[4].str()))});
  }
  std::vector<Rec> ours;
  std::map<uint32_t, uint64_t> per_type;
  for (const auto& l : Lines(s.RecordsText())) {
    std::vector<std::string> c;
    std::istringstream in(l);
    std::string t;
    while (std::getline(in, t, '\t')) c.push_back(t);
    ASSERT_GE(c.size(), 3u) << l;
    uint32_t type = static_cast<uint32_t>(std::stoul(c[2]));
    ++per_type[type];
    if (type == profscope::perf::kCompressed || type == profscope::perf::kCompressed2) continue;
    uint64_t off = c.size() == 4 ? std::stoull(c[3].substr(3)) : std::stoull(c[0]);
    ours.push_back({off, std::stoull(c[1]), type});
  }
  std::sort(ref.begin(), ref.end());
  std::sort(ours.begin(), ours.end());
  bool perf_failed = fs::exists(dir / "script_addrs.txt.rc") || report.find("Aggregated stats") == std::string::npos;
  if (perf_failed) {
    // perf stopped at the damage; everything it listed must be ours too.
    for (const Rec& r : ref)
      if (r.size >= 8) EXPECT_TRUE(std::binary_search(ours.begin(), ours.end(), r)) << "missing record at " << r.off;
    EXPECT_FALSE(s.result().diags.items().empty()) << "a damaged file must give a diagnostic";
  } else {
    EXPECT_EQ(ref.size(), ours.size());
    EXPECT_TRUE(ref == ours) << "record boundaries differ from perf report -D";
    // Aggregated stats: "TOTAL events: N" counts containers and their records.
    std::smatch m;
    static const std::regex total(R"(TOTAL events:\s+(\d+))");
    ASSERT_TRUE(std::regex_search(report, m, total));
    uint64_t n = 0;
    for (auto& [k, v] : per_type) n += v;
    EXPECT_EQ(std::stoull(m[1].str()), n);
    static const std::regex stat(R"(^\s+([A-Z_0-9]+) events:\s+(\d+))");
    size_t at = report.find("Aggregated stats");
    for (const auto& l : Lines(report.substr(at))) {
      if (l.find(" stats:") != std::string::npos && l.find("Aggregated") == std::string::npos) break;
      std::smatch sm;
      if (!std::regex_search(l, sm, stat) || sm[1].str() == "TOTAL") continue;
      uint64_t want = std::stoull(sm[2].str());
      uint64_t got = 0;
      for (auto& [k, v] : per_type)
        if (sm[1].str() == PerfStatName(k)) got = v;
      EXPECT_EQ(want, got) << sm[1].str();
    }
  }
}

TEST_P(PerfCorpus, StacksAgreeWithPerfCallchains) {
  fs::path dir = kData / GetParam();
  auto bytes = ReadFile(Input(dir));
  MemorySource src(bytes);
  Session s(src, GetParam());
  ASSERT_TRUE(s.Decode());
  std::string evlist = ReadText(dir / "evlist.txt");
  if (evlist.find("REGS_USER") != std::string::npos && evlist.find("STACK_USER") != std::string::npos)
    GTEST_SKIP() << "--call-graph dwarf: perf unwound the user stacks (unwinding comes later)";
  // --call-graph lbr: user frames come from the LBR call stack, as perf resolves them. A sample
  // whose LBR stack is empty gets, from perf, entries[0].to read past the end of the stack (the
  // next bytes of the file); we keep the recorded user ip instead. Such stacks (one user frame
  // at the root, kernel frames below it) are compared without their root frame.
  const bool lbr = evlist.find("BRANCH_STACK") != std::string::npos && evlist.find("CALLCHAIN") != std::string::npos;
  auto lbr_normalize = [](const std::vector<std::string>& lines) {
    std::map<std::string, long long> agg;
    for (const auto& l : lines) {
      size_t sp = l.rfind(' ');
      std::string stack = l.substr(0, sp);
      long long n = std::stoll(l.substr(sp + 1));
      std::vector<std::string> fr;
      size_t p = 0;
      while (true) {
        size_t q = stack.find(';', p);
        fr.push_back(stack.substr(p, q == std::string::npos ? std::string::npos : q - p));
        if (q == std::string::npos) break;
        p = q + 1;
      }
      bool rest_kernel = fr.size() > 1;
      for (size_t i = 1; i < fr.size(); ++i)
        if (fr[i].rfind("0xffff", 0) != 0) rest_kernel = false;
      if (rest_kernel) fr[0] = "?";
      std::string key;
      for (size_t i = 0; i < fr.size(); ++i) key += (i ? ";" : "") + fr[i];
      agg[key] += n;
    }
    std::vector<std::string> out;
    for (auto& [k, v] : agg) out.push_back(k + " " + std::to_string(v));
    return out;
  };
  if (fs::exists(dir / "script_addrs.txt.rc")) GTEST_SKIP() << "perf failed on this file";
  std::string log = ReadText(dir / "folded.log");
  std::smatch m;
  static const std::regex evs(R"(events: (.*))");
  std::vector<std::string> events;
  if (std::regex_search(log, m, evs)) {
    std::string list = m[1].str();
    size_t p = 0;
    while (p < list.size()) {
      size_t q = list.find(", ", p);
      events.push_back(list.substr(p, q == std::string::npos ? std::string::npos : q - p));
      if (q == std::string::npos) break;
      p = q + 2;
    }
  }
  std::string ours_events = s.EventsJson();
  int compared = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::string f = e.path().filename().string();
    if (f.rfind("folded_addrs", 0) != 0 || f.find("_pprof") != std::string::npos) continue;
    std::string tag = f.substr(12, f.size() - 12 - 4);
    std::string event;
    if (!tag.empty()) {
      tag = tag.substr(1);
      for (const auto& ev : events) {
        std::string t = ev;
        for (char& c : t) if (!(isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_')) c = '_';
        if (t == tag) event = ev;
      }
      ASSERT_FALSE(event.empty()) << f;
      if (ours_events.find(profscope::QuoteString(event)) == std::string::npos) {
        // Events perf synthesized while decoding a hardware trace (Intel PT).
        continue;
      }
    }
    auto want = Lines(ReadText(e.path()));
    auto got = Lines(s.StacksText(true, event));
    if (lbr) {
      want = lbr_normalize(want);
      got = lbr_normalize(got);
    }
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    EXPECT_EQ(want, got) << f;
    ++compared;
  }
  if (!compared) GTEST_SKIP() << "no folded reference";
}

TEST_P(PerfCorpus, InfoCountsSamplesAndNamesEvents) {
  fs::path dir = kData / GetParam();
  auto bytes = ReadFile(Input(dir));
  MemorySource src(bytes);
  Session s(src, GetParam());
  ASSERT_TRUE(s.Decode());
  std::string log = ReadText(dir / "folded.log");
  std::smatch m;
  static const std::regex n(R"(perf_fold: (\d+) samples, events: (.*))");
  if (!std::regex_search(log, m, n) || fs::exists(dir / "script_addrs.txt.rc")) GTEST_SKIP();
  std::string info = s.InfoJson();
  // Every event perf folded samples of is named the same way by us.
  std::string list = m[2].str();
  size_t p = 0;
  while (!list.empty() && p < list.size()) {
    size_t q = list.find(", ", p);
    std::string ev = list.substr(p, q == std::string::npos ? std::string::npos : q - p);
    if (GetParam().find("intel_pt") == std::string::npos)
      EXPECT_NE(info.find(profscope::QuoteString(ev)), std::string::npos) << ev;
    if (q == std::string::npos) break;
    p = q + 2;
  }
}

// Every cut of a small real file: no crash, a diagnostic, and every record
// that ends before the cut decoded exactly as in the whole file.
TEST_P(PerfCorpus, TruncationKeepsEverythingBeforeTheCut) {
  fs::path dir = kData / GetParam();
  auto bytes = ReadFile(Input(dir));
  MemorySource full_src(bytes);
  Session full(full_src, "full");
  ASSERT_TRUE(full.Decode());
  auto full_lines = Lines(full.RecordsText());
  // Past damage already in the file, resynchronisation may differ per cut.
  uint64_t first_damage = UINT64_MAX;
  for (const auto& d : full.result().diags.items())
    if (d.severity >= profscope::Severity::kError) first_damage = std::min<uint64_t>(first_damage, d.offset);
  size_t step = bytes.size() <= 16384 ? 1 : bytes.size() / 2048 + 1;
  for (size_t cut = 0; cut < bytes.size(); cut += step) {
    MemorySource src(bytes.data(), cut);
    Session s(src, "cut");
    bool ok = s.Decode();
    std::string info = s.InfoJson();
    // A pipe stream cut exactly between two records is a valid, shorter stream.
    bool boundary = false;
    for (const auto& l : full_lines) {
      std::istringstream in(l);
      uint64_t off;
      in >> off;
      if (off == cut && l.find("in:") == std::string::npos) boundary = true;
    }
    if (!(boundary && full.result().mode == "pipe"))
      ASSERT_FALSE(s.result().diags.items().empty()) << "cut at " << cut << " gave no diagnostic";
    if (!ok) continue;
    auto lines = Lines(s.RecordsText());
    std::set<std::string> have(lines.begin(), lines.end());
    for (const auto& l : full_lines) {
      std::istringstream in(l);
      uint64_t off, size;
      in >> off >> size;
      if (l.find("in:") != std::string::npos) continue;
      if (off + size <= cut && off + size <= first_damage) {
        EXPECT_TRUE(have.count(l)) << "cut " << cut << " lost record " << l;
      }
    }
  }
}

// The samples' threads are held as runs while the samples of a thread come in a row (a single-threaded
// recording: no 4 bytes a sample), else as plain values; either way they read as decoded.
TEST_P(PerfCorpus, SamplesOfOneThreadInARowTakeNoRoomPerSample) {
  fs::path dir = kData / GetParam();
  auto bytes = ReadFile(Input(dir));
  MemorySource src(bytes);
  Session s(src, GetParam());
  s.Decode();
  const auto& th = s.result().profile.samples.thread;
  const std::vector<int32_t> v = th.ToVector();
  ASSERT_EQ(v.size(), s.result().profile.samples.size());
  if (v.empty()) GTEST_SKIP();
  size_t changes = 0;
  for (size_t i = 1; i < v.size(); ++i) changes += v[i] != v[i - 1];
  size_t run = 0;
  for (size_t i = 0; i < v.size(); ++i) ASSERT_EQ(th.At(i, &run), v[i]) << i;
  for (size_t i = v.size(); i-- > 0;) ASSERT_EQ(th[i], v[i]) << i;
  if (changes == 0) {
    EXPECT_TRUE(th.is_runs());
    EXPECT_EQ(th.run_count(), 1u);
  }
  // a run takes 12 bytes (its first row, first value and step), a plain value the width of the largest
  if (th.is_runs())
    EXPECT_LE(th.packed_bytes(), 12 * (changes + 1)) << changes << " changes";
  else
    EXPECT_EQ(th.packed_bytes(), static_cast<size_t>(profscope::PackedColumn<int32_t>::WidthFor(th.most())) * v.size());
}

INSTANTIATE_TEST_SUITE_P(All, PerfCorpus, ::testing::ValuesIn(Cases()),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n) if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

}  // namespace

// perf record --threads of three named threads, both data.N files holding samples of each: perf
// script's text, names of threads and frames included, line for line (the data files are read in
// turns, as perf reads them). The frames in libc need this machine's Debian 12 libc.
TEST(PerfCorpusDir, NamedThreadsDirectoryGivesPerfScriptsText) {
  fs::path dir = fs::path(PROFSCOPE_SOURCE_DIR) / "tests" / "data" / "perf_dir" / "threads_named";
  const fs::path libc = "/lib/x86_64-linux-gnu/libc.so.6";
  if (!fs::exists(libc)) GTEST_SKIP() << "needs " << libc;
  auto main_bytes = ReadFile(dir / "perf.data" / "data");
  // libc's own symbols and, as perf used, libc6-dbg's debug file for it (start_thread is a local symbol)
  std::vector<fs::path> side = {dir / "named_threads", libc};
  for (const auto& dbg : profscope::corpus::DebugFilesOf({libc})) side.push_back(dbg);
  if (side.size() < 3) GTEST_SKIP() << "needs libc6-dbg's debug file of " << libc << " (scripts/setup.sh)";
  std::vector<std::vector<uint8_t>> parts = {ReadFile(dir / "perf.data" / "data.0"), ReadFile(dir / "perf.data" / "data.1")};
  for (const auto& p : side) parts.push_back(ReadFile(p));
  MemorySource main_src(main_bytes);
  std::vector<std::unique_ptr<MemorySource>> srcs;
  for (auto& p : parts) srcs.push_back(std::make_unique<MemorySource>(p));
  Session s(main_src, "perf.data/data");
  s.AddDataFile(*srcs[0], "data.0");
  s.AddDataFile(*srcs[1], "data.1");
  for (size_t k = 0; k < side.size(); ++k) s.AddSideFile(*srcs[2 + k], side[k].string());
  ASSERT_TRUE(s.Decode());
  std::string got;
  {
    profscope::StringSink sink(got);
    s.WriteScript(sink);
  }
  // [vdso] frames: perf named them from the running kernel's vdso (the command line does too; here, without
  // file access, they stay unnamed)
  static const std::regex vdso(R"((\t +[0-9a-f]+ )\S+( \(\[vdso\]\)))");
  const std::string want = std::regex_replace(ReadText(dir / "script_default.txt"), vdso, "$1[unknown]$2");
  EXPECT_EQ(got, want);
  EXPECT_NE(got.find("([vdso])"), std::string::npos);
  for (const char* name : {"alpha", "beta", "gamma"}) EXPECT_NE(got.find("\n" + std::string(name) + " "), std::string::npos) << name;
  EXPECT_NE(got.find("leaf_a+"), std::string::npos);
  EXPECT_NE(got.find("start_thread+"), std::string::npos);
}

// perf record --threads: a directory of data (header, features) and data.N
// (records per writer thread), decoded as one recording.
TEST(PerfCorpusDir, ThreadsDirectoryAgreesWithPerfReportD) {
  fs::path dir = fs::path(PROFSCOPE_SOURCE_DIR) / "tests" / "data" / "perf_dir" / "threads_dir";
  std::string report = ReadText(dir / "report_D.txt");
  ASSERT_FALSE(report.empty());
  auto main_bytes = ReadFile(dir / "perf.data" / "data");
  MemorySource main_src(main_bytes);
  Session s(main_src, "perf.data/data");
  std::vector<std::vector<uint8_t>> parts;
  std::vector<std::unique_ptr<MemorySource>> srcs;
  for (int k = 0; fs::exists(dir / "perf.data" / ("data." + std::to_string(k))); ++k) {
    parts.push_back(ReadFile(dir / "perf.data" / ("data." + std::to_string(k))));
  }
  for (size_t k = 0; k < parts.size(); ++k) {
    srcs.push_back(std::make_unique<MemorySource>(parts[k]));
    s.AddDataFile(*srcs.back(), "data." + std::to_string(k));
  }
  ASSERT_TRUE(s.Decode());
  std::multiset<std::string> want, got;
  static const std::regex re(R"(^(0x[0-9a-f]+|0)@perf\.data/(\S+) \[(0x[0-9a-f]+)\]: event: (\d+))");
  for (const auto& l : Lines(report)) {
    std::smatch m;
    if (!std::regex_search(l, m, re)) continue;
    std::string file = m[2].str() == "data" ? "" : "\tfile:" + m[2].str();
    want.insert(std::to_string(std::stoull(m[1].str(), nullptr, 16)) + "\t" +
                std::to_string(std::stoull(m[3].str(), nullptr, 16)) + "\t" + m[4].str() + file);
  }
  for (const auto& l : Lines(s.RecordsText())) got.insert(l);
  EXPECT_EQ(want, got);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(report, m, std::regex(R"(SAMPLE events:\s+(\d+))")));
  EXPECT_EQ(std::stoull(m[1].str()), s.result().profile.samples.size());
}

// The recorded program given as a side file names its frames as perf does
// (perf script's symbols for the same samples, folded_sym.txt): every
// function profscope names from the binary carries the same weight as in
// perf's folded stacks.
TEST(PerfCorpusSymbols, BinaryNamesFramesLikePerf) {
  for (const char* c : {"default_event", "pipe_mode"}) {
    fs::path dir = kData / c;
    auto bytes = ReadFile(Input(dir));
    auto bin = ReadFile(dir / "calltree");
    MemorySource src(bytes), bin_src(bin);
    Session s(src, c);
    s.AddSideFile(bin_src, "calltree");
    ASSERT_TRUE(s.Decode()) << c;
    for (const auto& d : s.result().diags.items()) ADD_FAILURE() << c << ": " << d.message;
    auto weights = [](const std::string& folded, const std::set<std::string>* only) {
      std::map<std::string, uint64_t> w;
      for (const auto& l : Lines(folded)) {
        size_t sp = l.rfind(' ');
        uint64_t n = std::stoull(l.substr(sp + 1));
        std::string stack = l.substr(0, sp);
        size_t p = 0;
        while (p <= stack.size()) {
          size_t q = stack.find(';', p);
          std::string f = stack.substr(p, q == std::string::npos ? std::string::npos : q - p);
          if (!only || only->count(f)) w[f] += n;
          if (q == std::string::npos) break;
          p = q + 1;
        }
      }
      return w;
    };
    auto ours = weights(s.StacksText(false, ""), nullptr);
    std::set<std::string> named;
    for (const auto& [f, n] : ours)
      if (f.find("+0x") == std::string::npos && f != "[unknown]") named.insert(f);
    ASSERT_GE(named.size(), 4u) << c << ": the leaf_* functions at least should be named";
    std::map<std::string, uint64_t> mine;
    for (const auto& f : named) mine[f] = ours[f];
    EXPECT_EQ(weights(ReadText(dir / "folded_sym.txt"), &named), mine) << c;
  }
}
