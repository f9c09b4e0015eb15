// Every jitdump case of the corpus (tests/data/jitdump/<case>, copied from
// shared/corpus with jitdump_ref.txt[.gz], the corpus' own Python reader's
// listing): record offsets, types and sizes, per-type counts and the
// problems it reports. And perf.data + jit-PID.dump: the JIT frame names must
// be perf's own (`perf inject --jit` + perf script / folded), and clock or
// process mismatches must be reported instead of naming frames.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/corpus/corpus_util.h"
#include "core/api/session.h"
#include "core/format/jitdump/jitdump_format.h"

namespace fs = std::filesystem;
using profscope::DiagCode;
using profscope::MemorySource;
using profscope::Session;

namespace {

using profscope::corpus::ReadFile;
using profscope::corpus::ReadText;
using profscope::corpus::Lines;

const fs::path kData = fs::path(PROFSCOPE_SOURCE_DIR) / "tests" / "data" / "jitdump";



fs::path DumpOf(const fs::path& dir) {
  for (const auto& e : fs::directory_iterator(dir)) {
    std::string n = e.path().filename().string();
    if (n.rfind("jit-", 0) == 0 && n.size() > 5 && n.substr(n.size() - 5) == ".dump") return e.path();
  }
  return {};
}

std::vector<std::string> Cases() {
  std::vector<std::string> out;
  if (!fs::exists(kData)) return out;
  for (const auto& e : fs::directory_iterator(kData))
    if (e.is_directory() && !DumpOf(e.path()).empty()) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}


TEST(JitdumpCorpus, HasCases) { EXPECT_GE(Cases().size(), 6u); }

class JitdumpCase : public ::testing::TestWithParam<std::string> {};

TEST_P(JitdumpCase, RecordsAndCountsMatchReference) {
  fs::path dir = kData / GetParam();
  std::string ref = ReadText(dir / "jitdump_ref.txt");
  ASSERT_FALSE(ref.empty()) << "no jitdump_ref.txt in " << dir;
  std::vector<uint8_t> bytes = ReadFile(DumpOf(dir));
  MemorySource src(bytes);
  Session s(src, DumpOf(dir).filename().string());
  s.Decode();
  ASSERT_EQ(s.result().format, "jitdump");

  // Reference records: "@0xOFF TYPE size=N ..."; problems: "! @0xOFF: ...".
  static const std::regex rec_re(R"(^@0x([0-9a-f]+) (\S+) size=(\d+))");
  static const std::regex prob_re(R"(^! @0x([0-9a-f]+):)");
  static const std::regex count_re(R"(^#   (\S+) (\d+)$)");
  static const std::regex sum_re(R"(^# summary: records=(\d+) end_offset=0x([0-9a-f]+))");
  std::string want;
  std::vector<uint64_t> problems;
  std::map<std::string, uint64_t> counts;
  uint64_t want_records = 0, want_end = 0;
  for (const auto& l : Lines(ref)) {
    std::smatch m;
    if (std::regex_search(l, m, rec_re)) {
      std::string type = m[2];
      uint32_t id = 999;
      for (uint32_t i = 0; i < 5; ++i) if (type == profscope::jitdump::RecordName(i)) id = i;
      want += std::to_string(std::stoull(m[1], nullptr, 16)) + "\t" + std::string(m[3]) + "\t" + std::to_string(id) + "\n";
    } else if (std::regex_search(l, m, prob_re)) {
      problems.push_back(std::stoull(m[1], nullptr, 16));
    } else if (std::regex_search(l, m, count_re)) {
      counts[m[1]] = std::stoull(m[2]);
    } else if (std::regex_search(l, m, sum_re)) {
      want_records = std::stoull(m[1]);
      want_end = std::stoull(m[2], nullptr, 16);
    }
  }
  std::string got = s.RecordsText();
  if (got != want) {
    auto a = Lines(want), b = Lines(got);
    size_t i = 0;
    while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
    FAIL() << "records differ at line " << i + 1 << ": ref '" << (i < a.size() ? a[i] : "<end>") << "' ours '"
           << (i < b.size() ? b[i] : "<end>") << "' (ref " << a.size() << " lines, ours " << b.size() << ")";
  }
  std::string info = s.InfoJson();
  EXPECT_NE(info.find("\"records\":" + std::to_string(want_records) + ","), std::string::npos) << info.substr(0, 300);
  EXPECT_NE(info.find("\"end_offset\":" + std::to_string(want_end) + "}"), std::string::npos);
  for (const char* t : {"CODE_LOAD", "CODE_MOVE", "DEBUG_INFO", "CODE_CLOSE", "UNWINDING_INFO"}) {
    uint64_t n = counts.count(t) ? counts[t] : 0;
    EXPECT_NE(info.find("\"" + std::string(t) + "\":" + std::to_string(n)), std::string::npos) << t;
  }
  // Every problem the reference reader reports is an error diagnostic at the same offset.
  for (uint64_t off : problems) {
    bool found = false;
    for (const auto& d : s.result().diags.items())
      if (d.offset == off && d.severity >= profscope::Severity::kError) found = true;
    EXPECT_TRUE(found) << "no error diagnostic at " << off;
  }
  if (problems.empty()) EXPECT_TRUE(s.result().diags.items().empty()) << s.DiagnosticsJson();
}

INSTANTIATE_TEST_SUITE_P(Corpus, JitdumpCase, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

// ---- perf.data + jit dump ---------------------------------------------------

std::set<std::string> LoadNames(const fs::path& dump) {
  std::vector<uint8_t> bytes = ReadFile(dump);
  MemorySource src(bytes);
  profscope::Window w(src);
  profscope::jitdump::Dump d;
  profscope::jitdump::ReadDump(w, &d, nullptr, nullptr);
  std::set<std::string> out;
  for (const auto& l : d.loads) out.insert(l.name);
  return out;
}

struct Joined {
  std::vector<uint8_t> perf, dump;
  std::unique_ptr<MemorySource> psrc, dsrc;
  std::unique_ptr<Session> s;
};

std::unique_ptr<Joined> Join(const fs::path& perf, const fs::path& dump, std::vector<uint8_t> dump_bytes = {}) {
  auto j = std::make_unique<Joined>();
  j->perf = ReadFile(perf);
  j->dump = dump_bytes.empty() ? ReadFile(dump) : std::move(dump_bytes);
  j->psrc = std::make_unique<MemorySource>(j->perf);
  j->dsrc = std::make_unique<MemorySource>(j->dump);
  j->s = std::make_unique<Session>(*j->psrc, perf.filename().string());
  j->s->AddSideFile(*j->dsrc, dump.string());
  j->s->Decode();
  return j;
}

// Folded stack lines -> per JIT name, how many sample frames carry it.
std::map<std::string, uint64_t> JitNameWeights(const std::string& folded, const std::set<std::string>& names) {
  std::map<std::string, uint64_t> out;
  for (const auto& l : Lines(folded)) {
    size_t sp = l.rfind(' ');
    if (sp == std::string::npos) continue;
    uint64_t n = std::stoull(l.substr(sp + 1));
    std::stringstream ss(l.substr(0, sp));
    std::string f;
    while (std::getline(ss, f, ';'))
      if (names.count(f)) out[f] += n;
  }
  return out;
}

// Folded stacks reduced to their JIT frames (the JS part), with weights.
std::map<std::string, uint64_t> JitOnlyStacks(const std::string& folded, const std::set<std::string>& names) {
  std::map<std::string, uint64_t> out;
  for (const auto& l : Lines(folded)) {
    size_t sp = l.rfind(' ');
    if (sp == std::string::npos) continue;
    uint64_t n = std::stoull(l.substr(sp + 1));
    std::stringstream ss(l.substr(0, sp));
    std::string f, kept;
    while (std::getline(ss, f, ';'))
      if (names.count(f)) kept += (kept.empty() ? "" : ";") + f;
    if (!kept.empty()) out[kept] += n;
  }
  return out;
}

TEST(PerfJitJoin, NamesMatchPerfInject) {
  fs::path dir = kData / "perf_inject_jit";
  fs::path dump = dir / "jit-25830.dump";
  std::set<std::string> names = LoadNames(dump);
  ASSERT_EQ(names.size() > 1000, true);
  auto j = Join(dir / "perf.data", dump);
  const Session& s = *j->s;
  for (const auto& d : s.result().diags.items())
    EXPECT_NE(d.code, DiagCode::kClockMismatch) << d.message;
  std::string ours = s.StacksText(false, "");
  std::string perf = ReadText(dir / "jit_folded_sym.txt");
  ASSERT_FALSE(perf.empty());
  auto a = JitNameWeights(ours, names), b = JitNameWeights(perf, names);
  EXPECT_EQ(a.size(), 66u);  // distinct JIT functions perf named in this recording
  EXPECT_EQ(a, b);
  EXPECT_EQ(JitOnlyStacks(ours, names), JitOnlyStacks(perf, names));

  // Without the dump no frame carries a JIT name.
  std::vector<uint8_t> pb = ReadFile(dir / "perf.data");
  MemorySource ps(pb);
  Session plain(ps, "perf.data");
  plain.Decode();
  EXPECT_TRUE(JitNameWeights(plain.StacksText(false, ""), names).empty());
  // DEBUG_INFO: frames of functions with line tables carry "file:line".
  const profscope::Profile& p = s.result().profile;
  static const std::regex src_re(R"(^.+:\d+$)");
  for (size_t i = 0; i < p.frame_sources.size(); ++i) {
    int32_t fr = p.frame_sources.frame[i];
    const std::string& fn = p.strings.Get(p.funcs.name[static_cast<size_t>(p.frames.func[static_cast<size_t>(fr)])]);
    EXPECT_TRUE(names.count(fn)) << fn;
    EXPECT_TRUE(std::regex_match(p.strings.Get(p.frame_sources.source[i]), src_re)) << p.strings.Get(p.frame_sources.source[i]);
  }
  EXPECT_GT(p.frame_sources.size(), 0u);  // 14 in this recording
}

// Per sample (in time order), the JIT frames leaf first must be perf script's.
TEST(PerfJitJoin, PerSampleMatchesPerfScript) {
  fs::path dir = kData / "perf_inject_jit";
  fs::path dump = dir / "jit-25830.dump";
  std::set<std::string> names = LoadNames(dump);
  auto j = Join(dir / "perf.data", dump);
  const profscope::Profile& p = j->s->result().profile;
  std::vector<std::pair<uint64_t, std::vector<std::string>>> ours;
  for (size_t i = 0; i < p.samples.size(); ++i) {
    std::vector<std::string> v;
    for (int32_t k = p.samples.stack[i]; k != profscope::kNone; k = p.stacks.prefix[static_cast<size_t>(k)]) {
      int32_t fr = p.stacks.frame[static_cast<size_t>(k)];
      const std::string& n = p.strings.Get(p.funcs.name[static_cast<size_t>(p.frames.func[static_cast<size_t>(fr)])]);
      if (names.count(n)) v.push_back(n);
    }
    ours.push_back({p.samples.time[i], v});
  }
  std::stable_sort(ours.begin(), ours.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::vector<std::string>> theirs;
  for (const auto& l : Lines(ReadText(dir / "jit_script_sym.txt"))) {
    if (l.empty()) continue;
    if (l[0] != '\t') { theirs.emplace_back(); continue; }
    size_t a = l.find_first_not_of(" \t");
    size_t sp = l.find(' ', a);
    if (sp == std::string::npos || theirs.empty()) continue;
    std::string sym = l.substr(sp + 1);
    if (names.count(sym)) theirs.back().push_back(sym);
  }
  ASSERT_EQ(theirs.size(), ours.size());
  size_t with_jit = 0;
  for (size_t i = 0; i < ours.size(); ++i) {
    EXPECT_EQ(ours[i].second, theirs[i]) << "sample " << i << " at " << ours[i].first;
    with_jit += !theirs[i].empty();
  }
  EXPECT_GT(with_jit, 30u);
}

// A dump whose pid matches no process of the recording is not used.
TEST(PerfJitJoin, OtherProcessIsReported) {
  fs::path perf = fs::path(PROFSCOPE_SOURCE_DIR) / "tests" / "data" / "perf" / "default_event" / "perf.data";
  if (!fs::exists(perf)) GTEST_SKIP() << "no perf/default_event case";
  auto j = Join(perf, kData / "perf_inject_jit" / "jit-25830.dump");
  bool mismatch = false;
  for (const auto& d : j->s->result().diags.items()) mismatch |= d.code == DiagCode::kSideFileMismatch;
  EXPECT_TRUE(mismatch) << j->s->DiagnosticsJson();
}

// A small dump for process `pid` with one load at `time`.
std::vector<uint8_t> TinyDump(uint32_t pid, uint64_t time, uint64_t addr) {
  std::vector<uint8_t> b;
  auto u32 = [&](uint32_t v) { for (int i = 0; i < 4; ++i) b.push_back(static_cast<uint8_t>(v >> (8 * i))); };
  auto u64 = [&](uint64_t v) { for (int i = 0; i < 8; ++i) b.push_back(static_cast<uint8_t>(v >> (8 * i))); };
  u32(profscope::jitdump::kMagic); u32(1); u32(40); u32(62); u32(0); u32(pid); u64(0); u64(0);
  u32(0); u32(16 + 40 + 2 + 16); u64(time);
  u32(pid); u32(pid); u64(addr); u64(addr); u64(16); u64(1);
  b.push_back('f'); b.push_back(0);
  for (int i = 0; i < 16; ++i) b.push_back(0x90);
  return b;
}

// perf.data recorded without -k mono: the clocks cannot be compared.
TEST(PerfJitJoin, NoMonotonicClockIsReported) {
  fs::path perf = fs::path(PROFSCOPE_SOURCE_DIR) / "tests" / "data" / "perf" / "default_event" / "perf.data";
  if (!fs::exists(perf)) GTEST_SKIP() << "no perf/default_event case";
  std::vector<uint8_t> pb = ReadFile(perf);
  MemorySource ps(pb);
  Session plain(ps, "perf.data");
  plain.Decode();
  ASSERT_GT(plain.result().profile.threads.size(), 0u);
  uint32_t pid = static_cast<uint32_t>(plain.result().profile.threads.pid[0]);
  auto j = Join(perf, "jit-" + std::to_string(pid) + ".dump", TinyDump(pid, 1, 0x1000));
  bool clock = false;
  for (const auto& d : j->s->result().diags.items()) clock |= d.code == DiagCode::kClockMismatch;
  EXPECT_TRUE(clock) << j->s->DiagnosticsJson();
  EXPECT_EQ(j->s->StacksText(false, ""), plain.StacksText(false, ""));
}

// -k 1 recording, but every sample is long before the dump's first load.
TEST(PerfJitJoin, SamplesBeforeAnyLoadAreReported) {
  fs::path dir = kData / "perf_inject_jit";
  auto j = Join(dir / "perf.data", dir / "jit-25830.dump", TinyDump(25830, 1ULL << 62, 0x7f0c22800000));
  bool clock = false;
  for (const auto& d : j->s->result().diags.items()) clock |= d.code == DiagCode::kClockMismatch;
  EXPECT_TRUE(clock) << j->s->DiagnosticsJson();
}

}  // namespace
