// Every simpleperf case of the corpus (tests/data/simpleperf/<case>, copied
// from shared/corpus/simpleperf with provenance in each SOURCE.txt):
//  - record offsets, types and sizes against perfdata_records.txt (the corpus
//    reader's listing, which agrees with `perf report -D` on these files),
//    per-type counts against its "# summary";
//  - sample counts against the upstream expectations in meta.json/SOURCE.txt;
//  - folded stacks (names and period weights) against simpleperf's own
//    stackcollapse.py goldens, where the corpus has them.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/corpus/corpus_util.h"
#include "core/api/session.h"
#include "core/format/perf/perf_format.h"

namespace fs = std::filesystem;
using profscope::MemorySource;
using profscope::Session;

namespace {

using profscope::corpus::ReadFile;
using profscope::corpus::ReadText;

const fs::path kData = fs::path(PROFSCOPE_SOURCE_DIR) / "tests" / "data" / "simpleperf";



std::vector<std::string> Cases() {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(kData))
    if (e.is_directory() && fs::exists(e.path() / "perf.data")) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

struct Decoded {
  std::vector<uint8_t> bytes;
  std::unique_ptr<MemorySource> src;
  std::unique_ptr<Session> s;
  bool ok = false;
};

std::unique_ptr<Decoded> Open(const std::string& c) {
  auto d = std::make_unique<Decoded>();
  d->bytes = ReadFile(kData / c / "perf.data");
  d->src = std::make_unique<MemorySource>(d->bytes.data(), d->bytes.size());
  d->s = std::make_unique<Session>(*d->src, "perf.data");
  d->ok = d->s->Decode();
  return d;
}

struct RefRecord {
  uint64_t off, size;
  uint32_t type;
};

std::vector<RefRecord> RefRecords(const std::string& text, std::map<std::string, uint64_t>* counts) {
  std::vector<RefRecord> out;
  std::istringstream in(text);
  std::string line;
  static const std::regex rec(R"(^@0x([0-9a-f]+) type=(\d+) \S+ misc=\S+ size=(\d+))");
  static const std::regex cnt(R"(^#   (\S+) (\d+)$)");
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, rec)) {
      out.push_back({std::stoull(m[1].str(), nullptr, 16), std::stoull(m[3].str()),
                     static_cast<uint32_t>(std::stoul(m[2].str()))});
    } else if (std::regex_search(line, m, cnt)) {
      (*counts)[m[1].str()] = std::stoull(m[2].str());
    }
  }
  return out;
}

// Folded stacks the way simpleperf's stackcollapse.py writes them: the
// thread name at the sample's time (with "-pid" or "-pid/tid"), then the callchain root first
// WITHOUT the sample's own frame (report_lib's GetCallChainOfCurrentSample
// starts at the caller), weighted by the sample period; one event only.
std::map<std::string, uint64_t> Folded(const Session& s, int32_t event, bool pid, bool tid) {
  const auto& p = s.result().profile;
  std::map<std::string, uint64_t> out;
  for (size_t i = 0; i < p.samples.size(); ++i) {
    if (p.samples.event[i] != event) continue;
    size_t th = static_cast<size_t>(p.samples.thread[i]);
    // The thread's name when the sample was taken (COMM records over time).
    int32_t name = p.threads.name[th];
    uint64_t best = 0;
    bool found = false;
    for (size_t k = 0; k < p.thread_names.thread.size(); ++k) {
      if (p.thread_names.thread[k] != static_cast<int32_t>(th) || p.thread_names.time[k] > p.samples.time[i]) continue;
      if (!found || p.thread_names.time[k] >= best) { best = p.thread_names.time[k]; name = p.thread_names.name[k]; found = true; }
    }
    std::string root = name >= 0 ? p.strings.Get(name) : "";
    if (tid) root += "-" + std::to_string(p.threads.pid[th]) + "/" + std::to_string(p.threads.tid[th]);
    else if (pid) root += "-" + std::to_string(p.threads.pid[th]);
    std::vector<std::string> names;
    int32_t st = p.samples.stack[i];
    if (st >= 0) st = p.stacks.prefix[static_cast<size_t>(st)];  // drop the sample's own frame
    for (; st >= 0; st = p.stacks.prefix[static_cast<size_t>(st)]) {
      int32_t f = p.stacks.frame[static_cast<size_t>(st)];
      names.push_back(p.strings.Get(p.funcs.name[static_cast<size_t>(p.frames.func[static_cast<size_t>(f)])]));
    }
    std::string line = root;
    for (size_t k = names.size(); k-- > 0;) line += ";" + names[k];
    out[line] += static_cast<uint64_t>(p.samples.weight[i]);
  }
  return out;
}

// A golden's lines; `strip` removes stackcollapse's "_[k]" / "_[j]" annotations.
std::map<std::string, uint64_t> Golden(const fs::path& p) {
  std::map<std::string, uint64_t> out;
  std::istringstream in(ReadText(p));
  std::string line;
  while (std::getline(in, line)) {
    size_t sp = line.rfind(' ');
    if (sp == std::string::npos) continue;
    std::string stack = line.substr(0, sp);
    for (const char* a : {"_[k]", "_[j]"}) {
      size_t at;
      while ((at = stack.find(a)) != std::string::npos) stack.erase(at, 4);
    }
    out[stack] += std::stoull(line.substr(sp + 1));
  }
  return out;
}

// Without --addrs stackcollapse.py says "unknown" where profscope (like
// simpleperf's ShowIpForUnknownSymbol) says "dso[+vaddr]".
std::map<std::string, uint64_t> UnknownAsWord(const std::map<std::string, uint64_t>& in) {
  static const std::regex addr(R"([^;]*\[\+[0-9a-f]+\](?=;|$))");
  std::map<std::string, uint64_t> out;
  for (const auto& [k, v] : in) out[std::regex_replace(k, addr, "unknown")] += v;
  return out;
}

std::string Dump(const std::map<std::string, uint64_t>& m) {
  std::string s;
  for (const auto& [k, v] : m) s += k + " " + std::to_string(v) + "\n";
  return s;
}

TEST(SimpleperfCorpus, EveryCaseIsPresent) {
  EXPECT_EQ(Cases().size(), 14u);
}

TEST(SimpleperfCorpus, RecordsMatchTheReferenceListing) {
  for (const std::string& c : Cases()) {
    SCOPED_TRACE(c);
    auto d = Open(c);
    std::map<std::string, uint64_t> ref_counts;
    std::vector<RefRecord> ref = RefRecords(ReadText(kData / c / "perfdata_records.txt"), &ref_counts);
    if (c == "invalid_perf") {
      EXPECT_FALSE(d->ok);
      EXPECT_TRUE(ref.empty());
      continue;
    }
    ASSERT_TRUE(d->ok);
    const auto& rt = d->s->result().records;
    std::vector<RefRecord> ours;
    std::map<std::string, uint64_t> counts;
    for (size_t i = 0; i < rt.rows(); ++i) {
      if (static_cast<profscope::RecordKind>(rt.kind[i]) != profscope::RecordKind::kRecord) continue;
      ours.push_back({rt.offset[i], rt.size[i], rt.type[i]});
      ++counts[profscope::perf::RecordTypeName(rt.type[i])];
    }
    ASSERT_EQ(ours.size(), ref.size());
    for (size_t i = 0; i < ref.size(); ++i) {
      ASSERT_EQ(ours[i].off, ref[i].off) << "record " << i;
      ASSERT_EQ(ours[i].size, ref[i].size) << "record " << i << " at " << ref[i].off;
      ASSERT_EQ(ours[i].type, ref[i].type) << "record " << i << " at " << ref[i].off;
    }
    EXPECT_EQ(counts, ref_counts);
    // Every SAMPLE record became a sample.
    EXPECT_EQ(d->s->result().profile.samples.size(), ref_counts["SAMPLE"]);
    // No error diagnostics on these well-formed files.
    for (const auto& dg : d->s->result().diags.items())
      EXPECT_NE(dg.severity, profscope::Severity::kError) << dg.message;
  }
}

TEST(SimpleperfCorpus, InvalidFileIsRejectedWithAClearMessage) {
  auto d = Open("invalid_perf");
  EXPECT_FALSE(d->ok);
  std::string msgs;
  for (const auto& dg : d->s->result().diags.items()) msgs += dg.message + "\n";
  EXPECT_NE(msgs.find("PERFILE2"), std::string::npos) << msgs;
}

TEST(SimpleperfCorpus, SampleCountsMatchUpstream) {
  // simpleperf cmd_report_test: 2409 samples, 603 of them on cpu 2.
  auto d = Open("perf_data");
  ASSERT_TRUE(d->ok);
  const auto& p = d->s->result().profile;
  EXPECT_EQ(p.samples.size(), 2409u);
  size_t cpu2 = 0;
  for (size_t i = 0; i < p.samples.size(); ++i) cpu2 += p.samples.cpu[i] == 2;
  EXPECT_EQ(cpu2, 603u);
}

TEST(SimpleperfCorpus, MetaInfoAndTracepoints) {
  {
    auto d = Open("perf_with_meta_info");
    ASSERT_TRUE(d->ok);
    std::string info = d->s->InfoJson();
    SCOPED_TRACE(info);
  }
  auto d = Open("perf_with_tracepoint_event");
  ASSERT_TRUE(d->ok);
  const auto& p = d->s->result().profile;
  bool found = false;
  for (size_t e = 0; e < p.events.size(); ++e) found |= p.strings.Get(p.events.name[e]) == "sched:sched_switch";
  EXPECT_TRUE(found) << d->s->InfoJson();
}

void CheckGolden(const std::string& c, const std::string& golden, int32_t event, bool pid, bool tid, bool addrs) {
  SCOPED_TRACE(c + "/" + golden);
  auto d = Open(c);
  ASSERT_TRUE(d->ok);
  auto ours = Folded(*d->s, event, pid, tid);
  if (!addrs) ours = UnknownAsWord(ours);
  auto want = Golden(kData / c / golden);
  if (std::getenv("SIMPLEPERF_DUMP")) std::fprintf(stderr, "--- ours\n%s--- golden\n%s", Dump(ours).c_str(), Dump(want).c_str());
  EXPECT_EQ(Dump(ours), Dump(want));
}

TEST(SimpleperfCorpus, StackcollapseJit) {
  CheckGolden("perf_with_jit_symbol", "upstream_stackcollapse_jit.foldedstack", 0, false, false, false);
}
TEST(SimpleperfCorpus, StackcollapseKernel) {
  CheckGolden("perf_with_jit_symbol", "upstream_stackcollapse_kernel.foldedstack", 0, false, false, false);
}
TEST(SimpleperfCorpus, StackcollapsePid) {
  CheckGolden("perf_with_jit_symbol", "upstream_stackcollapse_jit_pid.foldedstack", 0, true, false, false);
}
TEST(SimpleperfCorpus, StackcollapseTid) {
  CheckGolden("perf_with_jit_symbol", "upstream_stackcollapse_jit_tid.foldedstack", 0, false, true, false);
}
TEST(SimpleperfCorpus, StackcollapseAddrs) {
  CheckGolden("perf_with_jit_symbol", "upstream_stackcollapse_addrs.foldedstack", 0, false, false, true);
}
TEST(SimpleperfCorpus, StackcollapseFirstEvent) {
  CheckGolden("perf_with_two_event_types", "upstream_stackcollapse_first_event.foldedstack", 0, false, false, false);
}
TEST(SimpleperfCorpus, StackcollapseCpuClock) {
  CheckGolden("perf_with_two_event_types", "upstream_stackcollapse_cpu_clock.foldedstack", 1, false, false, false);
}

}  // namespace
