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
#include <set>
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

// A golden's lines as a stack -> weight map. `strip` removes stackcollapse's
// "_[k]" / "_[j]" annotations (--kernel / --jit) and the "-pid" / "-pid/tid"
// of the thread root (--pid / --tid), which `profscope stacks` does not print.
std::map<std::string, uint64_t> Parse(const std::string& text, bool strip) {
  std::map<std::string, uint64_t> out;
  std::istringstream in(text);
  std::string line;
  static const std::regex pid(R"(^([^;]*)-\d+(/\d+)?(?=;|$))");
  while (std::getline(in, line)) {
    size_t sp = line.rfind(' ');
    if (sp == std::string::npos) continue;
    std::string stack = line.substr(0, sp);
    if (strip) {
      for (const char* a : {"_[k]", "_[j]"}) {
        size_t at;
        while ((at = stack.find(a)) != std::string::npos) stack.erase(at, 4);
      }
      stack = std::regex_replace(stack, pid, "$1");
    }
    out[stack] += std::stoull(line.substr(sp + 1));
  }
  return out;
}

// Without --addrs stackcollapse.py says "unknown" where profscope (like
// simpleperf's ShowIpForUnknownSymbol, i.e. stackcollapse.py --addrs) says "dso[+vaddr]".
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

// `profscope stacks FILE [--event NAME]` (Session::StacksText, what both
// CLIs print) against a stackcollapse.py golden. `exact`: byte for byte (the
// golden's options are what profscope prints: --addrs, no annotations, no
// pid/tid); else compared after dropping what the golden's options add.
void CheckGolden(const std::string& c, const std::string& golden, const std::string& event, bool exact) {
  SCOPED_TRACE(c + "/" + golden);
  auto d = Open(c);
  ASSERT_TRUE(d->ok);
  std::string ours = d->s->StacksText(false, event);
  std::string want = ReadText(kData / c / golden);
  if (std::getenv("SIMPLEPERF_DUMP")) std::fprintf(stderr, "--- ours\n%s--- golden\n%s", ours.c_str(), want.c_str());
  if (exact) {
    EXPECT_EQ(ours, want);
  } else {
    EXPECT_EQ(Dump(UnknownAsWord(Parse(ours, false))), Dump(Parse(want, true)));
  }
}

// The name profscope gives the attr at `index` (for --event).
std::string EventName(const std::string& c, size_t index) {
  auto d = Open(c);
  const auto& p = d->s->result().profile;
  return index < p.events.size() ? p.strings.Get(p.events.name[index]) : std::string();
}

TEST(SimpleperfCorpus, StackcollapseJit) {
  CheckGolden("perf_with_jit_symbol", "upstream_stackcollapse_jit.foldedstack", "", false);
}
TEST(SimpleperfCorpus, StackcollapseKernel) {
  CheckGolden("perf_with_jit_symbol", "upstream_stackcollapse_kernel.foldedstack", "", false);
}
TEST(SimpleperfCorpus, StackcollapsePid) {
  CheckGolden("perf_with_jit_symbol", "upstream_stackcollapse_jit_pid.foldedstack", "", false);
}
TEST(SimpleperfCorpus, StackcollapseTid) {
  CheckGolden("perf_with_jit_symbol", "upstream_stackcollapse_jit_tid.foldedstack", "", false);
}
TEST(SimpleperfCorpus, StackcollapseAddrs) {
  CheckGolden("perf_with_jit_symbol", "upstream_stackcollapse_addrs.foldedstack", "", true);
}
TEST(SimpleperfCorpus, StackcollapseFirstEvent) {
  // No --event: like stackcollapse.py, only the first sample's event.
  CheckGolden("perf_with_two_event_types", "upstream_stackcollapse_first_event.foldedstack", "", true);
}
TEST(SimpleperfCorpus, StackcollapseCpuClock) {
  CheckGolden("perf_with_two_event_types", "upstream_stackcollapse_cpu_clock.foldedstack",
              EventName("perf_with_two_event_types", 1), true);
}

// Linux perf files keep perf's folded form (no thread root, sample counts).
TEST(SimpleperfCorpus, LinuxPerfStacksKeepTheirForm) {
  auto bytes = ReadFile(fs::path(PROFSCOPE_SOURCE_DIR) / "tests" / "data" / "perf" / "default_event" / "perf.data");
  MemorySource src(bytes.data(), bytes.size());
  Session s(src, "perf.data");
  ASSERT_TRUE(s.Decode());
  EXPECT_FALSE(s.result().stacks_thread_root);
  std::string out = s.StacksText(false, "");
  ASSERT_FALSE(out.empty());
  EXPECT_EQ(out.rfind("/opt/demo/run/default_event/calltree+0x", 0), 0u) << out.substr(0, 200);
}

// Markers: one per record of a marker type (perfdata_records.txt lists them).
TEST(SimpleperfCorpus, MarkersMatchTheRecordListing) {
  const std::set<std::string> kinds = {"MMAP", "MMAP2", "COMM", "EXIT", "FORK", "LOST", "LOST_SAMPLES",
                                       "THROTTLE", "UNTHROTTLE", "SWITCH", "SWITCH_CPU_WIDE", "KSYMBOL",
                                       "BPF_EVENT", "NAMESPACES", "CGROUP", "TEXT_POKE", "AUX", "ITRACE_START"};
  for (const std::string& c : Cases()) {
    if (c == "invalid_perf") continue;
    SCOPED_TRACE(c);
    auto d = Open(c);
    ASSERT_TRUE(d->ok);
    std::map<std::string, uint64_t> ref_counts, want, got;
    RefRecords(ReadText(kData / c / "perfdata_records.txt"), &ref_counts);
    for (const auto& [k, n] : ref_counts)
      if (kinds.count(k)) want[k] = n;
    const auto& p = d->s->result().profile;
    for (size_t i = 0; i < p.markers.size(); ++i) {
      int32_t row = p.markers.record[i];
      // INIT_MAP records (in a feature section) are not in the data section's listing.
      if (row >= 0 && d->s->result().records.kind[static_cast<size_t>(row)] != static_cast<uint8_t>(profscope::RecordKind::kRecord))
        continue;
      ++got[p.strings.Get(p.markers.kind[i])];
    }
    EXPECT_EQ(got, want);
  }
}

}  // namespace
